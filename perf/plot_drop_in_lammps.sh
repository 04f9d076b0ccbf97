#!/usr/bin/env bash
# Bar chart of LAMMPS's time per step with libccl_mpi / without it, a group of bars per deck and a
# bar per rank count, from perf/run_drop_in.sh's drop_in_lammps.csv.
#   plot_drop_in_lammps.sh drop_in_lammps.csv drop_in_lammps.png
set -euo pipefail
csv=$1 png=$2
data=$(mktemp)
trap 'rm -f "$data"' EXIT
nps=$(tail -n +2 "$csv" | cut -d, -f2 | sort -n | uniq | tr '\n' ' ')
# One row per deck (in the CSV's order), one column per rank count; "-" where a case is missing.
awk -F, -v nps="$nps" 'NR > 1 { if (!($1 in seen)) { seen[$1] = 1; order[++n] = $1 } r[$1, $2] = $7 }
  END { k = split(nps, np, " ")
        for (i = 1; i <= n; ++i) { line = order[i]; for (j = 1; j <= k; ++j) line = line " " ((order[i], np[j]) in r ? r[order[i], np[j]] : "-"); print line } }' \
  "$csv" > "$data"
plots=""
col=2
for np in $nps; do
  plots+="${plots:+, }'$data' using $col:xtic(1) title '$np ranks'"
  col=$((col + 1))
done
gnuplot <<GP
set terminal pngcairo size 900,500 font ',10'
set termoption noenhanced
set output "$png"
set title "LAMMPS with libccl_mpi preloaded: time per step / time per step on Open MPI alone"
set ylabel "ratio (below 1: faster with the drop-in)"
set datafile missing "-"
set style data histogram
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set key outside right
set yrange [0:*]
set grid ytics
plot $plots, 1 with lines lt -1 dt 2 notitle
GP
