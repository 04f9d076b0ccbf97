#!/usr/bin/env bash
# Plots of perf/scaling's CSV, into OUTDIR:
#   scaling_<kspace>_<atoms>.png  four panels against nodes: time per step (with the mpirun
#                                 anchors), speed-up, parallel efficiency, share of the step in
#                                 collectives; a line per variant
#   scaling.png                   parallel efficiency of every system, a panel each
#   scaling_per_node.png          parallel efficiency against ions per node, every system and
#                                 variant, fewest ions to the right; the QCDOC seed's point (about
#                                 14 particles a node) marked
#   plot_scaling.sh scaling.csv OUTDIR
set -euo pipefail
csv=$1 out=$2
data=$(mktemp -d)
trap 'rm -rf "$data"' EXIT
# One file per (system, variant): nodes time speed-up efficiency share; each variant's line
# starts at the shared one-node run.
awk -F, -v dir="$data" 'NR == 1 { next }
  { sys = $3 "_" $2; f = dir "/" sys "_" ($1 == "mpirun" ? "mpirun" : $4) ".dat"
    line = sprintf("%s %s %s %s %s", $5, $8 * 1e3, $17, $18, $13)
    if ($1 == "smpi" && $5 == 1) { one[sys] = line; next }
    if ($1 == "smpi") { if (!((sys, $4) in started)) { started[sys, $4] = 1; print one[sys] > f } }
    print line > f; systems[sys] = 1 }
  END { for (s in systems) print s > dir "/systems" }' "$csv"
panel() {  # system column ylabel logy title
  local plots=() f name
  for f in "$data/$1"_*.dat; do
    name=${f##*/$1_}
    name=${name%.dat}
    if [ "$name" = mpirun ]; then
      [ "$2" = 2 ] && plots+=("'$f' using 1:2 with points pt 7 ps 1.5 lc rgb 'black' title 'mpirun (this machine)'")
      continue
    fi
    plots+=("'$f' using 1:$2 with linespoints title '$name'")
  done
  [ ${#plots[@]} -eq 0 ] && return  # no simulated run of this system (all failed)
  [ "$2" = 3 ] && plots+=("x with lines dt 2 lc rgb 'gray' title 'ideal'")
  [ "$2" = 4 ] && plots+=("0.5 with lines dt 2 lc rgb 'gray' title '50%'")
  echo "set title '$5'; set ylabel '$3'; $4"
  (IFS=,; echo "plot ${plots[*]}")
  echo "unset logscale y"
}
while read -r sys; do
  kspace=${sys%_*} atoms=${sys#*_}
  {
    echo "set terminal png size 1200,900 noenhanced; set output '$out/scaling_$sys.png'"
    echo "set multiplot layout 2,2 title '$atoms-ion NaCl, $kspace 1e-5, simulated torus (SMPI), one rank per node'"
    echo "set logscale x 2; set xlabel 'nodes'; set key left top font ',8'; set grid"
    panel "$sys" 2 "ms per step" "set logscale y" "time per step"
    panel "$sys" 3 "T(1) / T(P)" "set logscale y 2" "speed-up"
    panel "$sys" 4 "T(1) / (P T(P))" "set yrange [0:1.1]" "parallel efficiency"
    echo "set yrange [*:*]"
    panel "$sys" 5 "collectives / step time" "set yrange [0:1]" "share of the step in collectives"
    echo "unset multiplot"
  } | gnuplot
done < "$data/systems"
{
  echo "set terminal png size 1200,900 noenhanced; set output '$out/scaling.png'"
  echo "set multiplot layout 2,2 title 'Parallel efficiency on simulated tori (SMPI): T(1) / (P T(P))'"
  echo "set logscale x 2; set xlabel 'nodes'; set key right top font ',8'; set grid; set yrange [0:1.1]"
  sort "$data/systems" | while read -r sys; do panel "$sys" 4 "efficiency" "" "${sys#*_} ions, ${sys%_*}"; done
  echo "unset multiplot"
} | gnuplot
{
  echo "set terminal png size 1200,800 noenhanced; set output '$out/scaling_per_node.png'"
  echo "set title 'Parallel efficiency against ions per node, simulated tori (SMPI)'"
  most=$(sed 's/.*_//' "$data/systems" | sort -n | tail -1)
  echo "set logscale x 2; set xrange [$most:8]; set xlabel 'ions per node'; set ylabel 'T(1) / (P T(P))'"
  echo "set yrange [0:1.1]; set grid; set key outside right top font ',8'"
  echo "set arrow from 14, graph 0 to 14, graph 1 nohead dt 3 lw 2 lc rgb 'red'"
  echo "set label 'QCDOC seed: 14 per node' at 14, graph 0.04 left offset 0.5,0 textcolor rgb 'red'"
  plots=("0.5 with lines dt 2 lc rgb 'gray' title '50%'")
  while read -r sys; do
    for f in "$data/$sys"_*.dat; do
      name=${f##*/"$sys"_}
      name=${name%.dat}
      [ "$name" = mpirun ] && continue
      plots+=("'$f' using (${sys#*_} / \$1):4 with linespoints title '${sys#*_} ${sys%_*} $name'")
    done
  done < <(sort "$data/systems")
  (IFS=,; echo "plot ${plots[*]}")
} | gnuplot
