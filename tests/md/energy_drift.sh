#!/usr/bin/env bash
# Runs a deck and passes when the total energy at the end differs from the start by less than
# LIMIT relative; prints the largest deviation along the way too.
#   energy_drift.sh LIMIT LAUNCH... APP DECK
set -euo pipefail
source "$(dirname "$0")/thermo_column.sh"
limit=$1
shift
out=$("$@")
echo "$out" | grep -E "^ +Step|Loop time" || true
echo "$out" | thermo_column TotEng | awk -v limit="$limit" '
  NR == 1 { e0 = $1 }
  { d = ($1 - e0) / e0; if (d < 0) d = -d; if (d > worst) worst = d; last = d; n++ }
  END {
    if (n < 2) { print "fewer than two thermo rows"; exit 1 }
    printf "total energy: %d rows, drift at the end %.2e, largest deviation %.2e (limit %g)\n", n, last, worst, limit;
    exit !(last < limit) }'
