#!/usr/bin/env bash
# Resident memory (largest over ranks) against progress through each soak phase, from
# perf/run_soak.sh's CSV: flat lines mean nothing accumulates per call or per group.
#   plot_soak.sh soak.csv soak.png
set -euo pipefail
csv=$1 png=$2
data=$(mktemp -d)
trap 'rm -rf "$data"' EXIT
plots=()
for key in $(awk -F, 'NR > 1 { print $1 "-" $2 }' "$csv" | sort -u); do
  np=${key%%-*} phase=${key#*-}
  awk -F, -v np="$np" -v ph="$phase" '$1 == np && $2 == ph { print $3, $4 / 1024 }' "$csv" > "$data/$key"
  # x: fraction of the phase done, so both phases share the axis
  max=$(awk 'END { print $1 }' "$data/$key")
  plots+=("\"$data/$key\" using (\$1/$max):2 with linespoints title \"$phase, np=$np\"")
done
joined=$(IFS=,; echo "${plots[*]}")
gnuplot <<GP
set terminal png size 800,480
set output "$png"
set title "ccl soak: resident memory of the largest rank"
set xlabel "fraction of the phase done"
set ylabel "resident memory [MiB]"
set key outside right
set yrange [0:*]
plot $joined
GP
