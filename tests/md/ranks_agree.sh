#!/usr/bin/env bash
# Runs one deck on several rank counts (and decompositions) and passes when the final total and
# potential energies agree with the first run's to 1e-10 relative.
#   ranks_agree.sh MPIEXEC APP DECK "NP[:FLAGS] ..."     e.g. "1 2 3 4:--decomp=force2d"
set -euo pipefail
source "$(dirname "$0")/thermo_column.sh"
mpiexec=$1 app=$2 deck=$3
reference=""
for run in $4; do
  np=${run%%:*}
  flags=""
  [[ $run == *:* ]] && flags=${run#*:} && flags=${flags//=/ }
  out=$("$mpiexec" -np "$np" --oversubscribe "$app" $flags "$deck")
  final="$(echo "$out" | thermo_column TotEng | tail -1) $(echo "$out" | thermo_column PotEng | tail -1)"
  echo "np $np $flags: TotEng PotEng = $final"
  if [ -z "$reference" ]; then reference=$final; continue; fi
  awk -v a="$reference" -v b="$final" 'BEGIN {
    split(a, x, " "); split(b, y, " ");
    for (i = 1; i <= 2; ++i) {
      rel = (x[i] - y[i]) / x[i]; if (rel < 0) rel = -rel;
      if (!(rel <= 1e-10)) { printf "differs by %.2e relative\n", rel; exit 1 }
    } }'
done
