#!/usr/bin/env bash
# Plot ratio = ccl time / Open MPI time against bytes per member, one panel per rank count.
#   perf/plot_collectives.sh collectives.csv collectives.png
set -euo pipefail
csv=$1
png=$2
colls=$(tail -n +2 "$csv" | cut -d, -f1 | awk '!seen[$0]++' | grep -v '^sync$')
nps=$(tail -n +2 "$csv" | cut -d, -f3 | sort -n | uniq)
{
  echo "set terminal pngcairo size 1500,450 font ',9'"
  echo "set output '$png'"
  echo "set datafile separator ','"
  echo "set logscale x 2"
  echo "set xtics ('8' 8, '64' 64, '512' 512, '4K' 4096, '32K' 32768, '256K' 262144, '1M' 1048576)"
  echo "set xrange [5:1700000]"
  echo "set logscale y 2"
  echo "set xlabel 'bytes per member'"
  echo "set ylabel 'time ccl / time Open MPI (below 1: ccl faster)'"
  echo "set key outside right"
  echo "set grid"
  echo "set multiplot layout 1,$(echo "$nps" | wc -w)"
  for np in $nps; do
    echo "set title '$np ranks'"
    echo "f(x) = 1"
    printf "plot "
    i=0
    for c in $colls; do
      i=$((i + 1))
      printf "'%s' using (strcol(1) eq '%s' && \$3 == %s ? \$4 : 1/0):7 with points lc %d pt %d ps 1.1 title '%s', " "$csv" "$c" "$np" "$i" "$i" "$c"
    done
    echo "f(x) with lines lt -1 dt 2 notitle"
  done
  echo "unset multiplot"
} | gnuplot
