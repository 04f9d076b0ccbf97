# Sourced by the MD test scripts. thermo_column NAME: the values of thermo column NAME (as headed,
# e.g. TotEng) from ewald-md's output on stdin, one per line.
thermo_column() {
  awk -v name="$1" '
    $1 == "Step" { col = 0; for (i = 1; i <= NF; ++i) if ($i == name) col = i; next }
    col > 0 && $1 ~ /^[0-9]+$/ && NF >= col { print $col; next }
    { col = 0 }'
}
