#!/usr/bin/env bash
# Plots of a collectives CSV (ccl-bench-collectives; ccl-bench-drop-in writes the same columns 1
# and 3-7: name, -, ranks, bytes, time, Open MPI's time, ratio):
#   collectives.png          ratio ccl / Open MPI against bytes per member, a panel per rank count
#   collectives_<name>.png   time against bytes per member for both libraries, a line per rank count
#   perf/plot_collectives.sh collectives.csv OUTDIR
# With NAME and WHO, only the ratios, as OUTDIR/NAME.png, labelled "WHO / Open MPI" (or / PEER):
#   perf/plot_collectives.sh drop_in_collectives.csv OUTDIR drop_in_collectives "libccl_mpi" [PEER]
set -euo pipefail
csv=$1
outdir=$2
name=${3:-collectives}
who=${4:-ccl}
peer=${5:-Open MPI}
colls=$(tail -n +2 "$csv" | cut -d, -f1 | awk '!seen[$0]++' | grep -vE '^(sync|MPI_Barrier)$')
nps=$(tail -n +2 "$csv" | cut -d, -f3 | sort -n | uniq)
xtics="set xtics ('8' 8, '64' 64, '512' 512, '4K' 4096, '32K' 32768, '256K' 262144, '1M' 1048576, '4M' 4194304)"
common="set termoption noenhanced; set datafile separator ','; set logscale x 2; $xtics; set xrange [5:6000000]; set grid; set key outside right"
{
  echo "set terminal pngcairo size 1800,700 font ',9'"
  echo "set output '$outdir/$name.png'"
  echo "$common"
  echo "set logscale y 2"
  echo "set xlabel 'bytes per member'"
  echo "set ylabel 'time $who / time $peer (below 1: $who faster)'"
  echo "set multiplot layout 2,3"
  for np in $nps; do
    echo "set title '$np ranks'"
    printf "plot "
    i=0
    for c in $colls; do
      i=$((i + 1))
      printf "'%s' using (strcol(1) eq '%s' && \$3 == %s ? \$4 : 1/0):7 with points lc %d pt %d ps 1.1 title '%s', " "$csv" "$c" "$np" "$i" "$i" "$c"
    done
    echo "1 with lines lt -1 dt 2 notitle"
  done
  echo "unset multiplot"
} | gnuplot
[ $# -le 2 ] || exit 0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for c in $colls; do
  {
    echo "set terminal pngcairo size 1000,600 font ',9'"
    echo "set output '$outdir/collectives_$c.png'"
    echo "$common"
    echo "set logscale y 10"
    echo "set xlabel 'bytes per member'"
    echo "set ylabel 'time per call [us]'"
    echo "set title '$c: ccl (solid) and Open MPI (dashed)'"
    plots=()
    i=0
    for np in $nps; do
      i=$((i + 1))
      data="$tmp/${c}_$np.csv"  # consecutive rows of one rank count, so points join into lines
      awk -F, -v c="$c" -v np="$np" '$1 == c && $3 == np' "$csv" > "$data"
      plots+=("'$data' using 4:5 with linespoints lc $i pt 7 title 'ccl $np ranks'")
      plots+=("'$data' using 4:6 with linespoints lc $i pt 6 dt 2 title 'Open MPI $np ranks'")
    done
    (IFS=','; echo "plot ${plots[*]}")
  } | gnuplot
done
