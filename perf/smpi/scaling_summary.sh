#!/usr/bin/env bash
# One line per simulated system of perf/scaling's CSV: for each variant, the first node count at
# which parallel efficiency falls below 50% and the ions per node there ("never" if it stays
# above up to the largest partition); then the simulation against mpirun on the same deck.
#   scaling_summary.sh scaling.csv
set -euo pipefail
awk -F, 'NR == 1 { next }
  $1 == "smpi" { sys = $2 " ions " $3; systems[sys] = 1; key = sys SUBSEP $4
    if (!(key in seen)) { seen[key] = 1; order[sys] = order[sys] " " $4 }
    if ($18 < 0.5 && !(key in drop)) { drop[key] = $5; per[key] = $19 }
    if ($5 > top[key] + 0) { top[key] = $5; topeff[key] = $18 } }
  $1 == "smpi" && $5 <= 4 { sim[$2 " ions " $3, $5] = $8 }
  $1 == "mpirun" { real[$2 " ions " $3, $5] = $8; reals[$2 " ions " $3] = reals[$2 " ions " $3] " " $5 }
  END {
    for (sys in systems) {
      line = sys ": efficiency < 50% from"
      n = split(order[sys], v, " ")
      for (i = 1; i <= n; ++i) { key = sys SUBSEP v[i]
        line = line sprintf(" %s %s;", v[i], (key in drop) ? drop[key] " nodes (" per[key] " ions/node)" \
                                                            : sprintf("never (%.0f%% at %d)", 100 * topeff[key], top[key])) }
      m = split(reals[sys], r, " ")
      if (m > 0) line = line " simulated/mpirun time per step:"
      for (i = 1; i <= m; ++i) if ((sys, r[i]) in sim) line = line sprintf(" %s %.2f", r[i], sim[sys, r[i]] / real[sys, r[i]])
      print line
    } }' "$1" | sort -n
