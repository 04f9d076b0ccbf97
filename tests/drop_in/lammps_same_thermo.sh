#!/usr/bin/env bash
# LAMMPS on a deck with and without libccl_mpi: the thermo output (printed to 15 significant
# digits) must agree to 1e-10 relative (bit for bit where the reduction order is the same), and
# the drop-in's report must show it ran LAMMPS's collectives.
#   lammps_same_thermo.sh LIB DECK NP MPIEXEC [DATA FILES...]
set -euo pipefail
lib=$1 deck=$2 np=$3 mpiexec=$4
shift 4
here=$(cd "$(dirname "$0")" && pwd)
source "$here/../md/same_thermo_rows.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$deck" "$work/in.deck"
for f in "$@"; do cp "$f" "$work/"; done
cd "$work"
# Full precision before every run command of the deck.
sed -i 's/^\(\s*run\s\)/thermo_modify format float %.15g\n\1/' in.deck
# The numbers of the thermo output, one line per printed line ("one" and "multi" styles; the
# CPU time of "multi" headers left out).
thermo() {
  awk '/^Per MPI rank memory/ { on = 1; next } /^Loop time/ { on = 0 }
       on { line = ""; for (i = 1; i <= NF; ++i) if ($i ~ /^-?[0-9.]+([eE][-+]?[0-9]+)?$/ && $(i - 1) != "=" || $i ~ /^-?[0-9.]/ && $(i - 1) == "=" && $(i - 2) != "CPU") line = line " " $i
            if (line != "") print line }' "$1"
}
"$mpiexec" -np "$np" --oversubscribe lmp -in in.deck -log none -screen plain.out > /dev/null
"$here/run_with_drop_in.sh" "$lib" "MPI_Allreduce" "" \
  "$mpiexec" -np "$np" --oversubscribe lmp -in in.deck -log none -screen ccl.out
thermo plain.out > plain.thermo
thermo ccl.out > ccl.thermo
same_thermo_rows plain.thermo ccl.thermo
