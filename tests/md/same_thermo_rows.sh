# Sourced by tests that compare two runs' thermo output. same_thermo_rows A B: A and B hold rows
# of numbers (one printed thermo line each); prints how many rows and whether they are identical,
# and fails unless they have as many rows and every number agrees to 1e-10 relative.
same_thermo_rows() {
  [ -s "$1" ] || { echo "no thermo output"; return 1; }
  echo "thermo rows: $(wc -l < "$1"); bit for bit: $(cmp -s "$1" "$2" && echo yes || echo no)"
  [ "$(wc -l < "$1")" = "$(wc -l < "$2")" ] || { echo "thermo outputs differ in length"; return 1; }
  paste -d'|' "$1" "$2" | awk -F'|' '{
      n = split($1, x, " "); m = split($2, y, " ")
      if (n != m) { print "thermo lines differ: " $0; bad = 1; next }
      for (i = 1; i <= n; ++i) {
        a = x[i]; b = y[i]; d = a - b; if (d < 0) d = -d
        s = a < 0 ? -a : a
        if (d > 1e-10 * s && d > 1e-300) { print "differs: " a " vs " b " in: " $1; bad = 1 }
      }
    } END { exit bad }'
}
