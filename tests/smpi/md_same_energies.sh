#!/usr/bin/env bash
# The MD app built against SimGrid's SMPI and run on a simulated torus gives the same thermo
# output as the same app under mpirun on this machine: the simulated studies run the real code.
#   md_same_energies.sh SOURCE_DIR BUILD_DIR MPIEXEC NP SHAPE DECK [APP_FLAGS...]
# Runs ewald-md as build_smpi_tree.sh built it in BUILD_DIR/smpi: DECK on NP simulated ranks of
# a SHAPE torus (perf/smpi/simulate.sh) and on NP real ranks (BUILD_DIR/md/ewald-md), and
# compares the thermo rows printed to 15 digits: within 1e-10 relative, and says whether bit for
# bit.
set -euo pipefail
src=$1 build=$2 mpiexec=$3 np=$4 shape=$5 deck=$6
shift 6
flags=("$@")  # ewald-md's own, such as --decomp owner
source "$(cd "$(dirname "$0")" && pwd)/../md/same_thermo_rows.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
smpi_build="$build/smpi"
"$src/perf/smpi/torus_platform.sh" "$shape" "$work/torus"
sed 's/^\(\s*run\s\)/thermo_modify format float %.15g\n\1/' "$deck" > "$work/in.deck"
cd "$work"
"$src/perf/smpi/simulate.sh" "$work" torus "$np" "$smpi_build/md/ewald-md" "${flags[@]}" in.deck > smpi.out 2> smpi.err ||
  { cat smpi.err; exit 1; }
"$mpiexec" -n "$np" --oversubscribe "$build/md/ewald-md" "${flags[@]}" in.deck > mpi.out
rows() { awk '$1 == "Step" { on = 1; next } /^Loop time/ { on = 0 } on && $1 ~ /^[0-9]+$/' "$1"; }
rows mpi.out > mpi.rows
rows smpi.out > smpi.rows
echo "simulated: $(grep '^Loop time' smpi.out | head -1)"
echo "real:      $(grep '^Loop time' mpi.out | head -1)"
same_thermo_rows mpi.rows smpi.rows
