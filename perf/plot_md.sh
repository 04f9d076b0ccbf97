#!/usr/bin/env bash
# Bar chart of time per step, ewald-md and LAMMPS, per case (kspace, ranks), from perf/run_md.sh's CSV.
#   plot_md.sh md.csv md.png
set -euo pipefail
csv=$1 png=$2
data=$(mktemp)
trap 'rm -f "$data"' EXIT
awk -F, 'NR > 1 { t[$2 " np=" $3, $1] = $5; k[$2 " np=" $3] = 1 }
  END { for (c in k) print "\"" c "\"", t[c, "lammps"], t[c, "ewald-md"] }' "$csv" | sort > "$data"
gnuplot <<GP
set terminal png size 800,480
set output "$png"
set title "4096-ion NaCl, 1e-5 accuracy: time per step"
set ylabel "ms per step"
set style data histogram
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set key top right
set yrange [0:*]
plot "$data" using 2:xtic(1) title "LAMMPS", "" using 3 title "ewald-md (ccl)"
GP
