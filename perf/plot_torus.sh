#!/usr/bin/env bash
# Bar chart of a ccl-bench-torus CSV: efficiency against the bound, per torus and algorithm.
#   perf/plot_torus.sh torus.csv torus.png
set -euo pipefail
csv=$1
png=$2
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
# One row per torus, one column per algorithm (in the order they first appear).
awk -F, 'NR > 1 {
  if (!($1 in seen_t)) { seen_t[$1] = 1; tori[++nt] = $1 }
  if (!($3 in seen_a)) { seen_a[$3] = 1; algos[++na] = $3 }
  eff[$1, $3] = $9 * 100
}
END {
  printf "torus"; for (j = 1; j <= na; j++) printf ",%s", algos[j]; printf "\n"
  for (i = 1; i <= nt; i++) {
    printf "%s", tori[i]
    for (j = 1; j <= na; j++) printf ",%s", ((tori[i], algos[j]) in eff) ? eff[tori[i], algos[j]] : "0"
    printf "\n"
  }
}' "$csv" > "$tmp"
columns=$(head -n 1 "$tmp" | awk -F, '{print NF}')
{
  echo "set terminal pngcairo size 1000,500 font ',10'"
  echo "set output '$png'"
  echo "set termoption noenhanced"  # algorithm names keep their underscores
  echo "set datafile separator ','"
  echo "set style data histograms"
  echo "set style histogram clustered gap 1"
  echo "set style fill solid 0.8 border -1"
  echo "set yrange [0:105]"
  echo "set ylabel 'efficiency: bound / simulated time [%]'"
  echo "set title 'allgather of 1 MiB per node on simulated tori (torus network model)'"
  echo "set key outside right"
  echo "set grid ytics"
  printf "plot "
  for ((c = 2; c <= columns; c++)); do
    printf "'%s' using %d:xtic(1) title columnheader(%d)" "$tmp" "$c" "$c"
    [ "$c" -lt "$columns" ] && printf ", "
  done
  echo
} | gnuplot
