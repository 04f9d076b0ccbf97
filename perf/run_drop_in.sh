#!/usr/bin/env bash
# libccl_mpi (the PMPI drop-in) under unmodified MPI programs, against plain Open MPI:
#  1. ccl-bench-drop-in, a plain MPI program, with the drop-in preloaded: each collective it
#     covers timed as MPI_X (ccl, through the drop-in) and as PMPI_X (Open MPI) in the same run,
#     8 B to 4 MiB per member, at CCL_DROP_IN_RANKS ranks, each after ccl-calibrate has measured
#     the machine model at that rank count.
#  2. LAMMPS (Debian's lmp) with and without the drop-in, runs alternating, CCL_DROP_IN_REPEATS
#     times per case: melt, peptide and min from lammps-examples and this project's NaCl PPPM deck
#     at CCL_DROP_IN_LAMMPS_RANKS ranks. Time per step: all of the deck's run/minimize loops
#     ("Loop time" lines) over all their steps; the ratio is the median of the runs' paired ratios.
# Writes perf/results/drop_in_collectives.csv and .png, drop_in_lammps.csv and .png; prints the
# benchmark's summary line per rank count and one line for LAMMPS.
#   perf/run_drop_in.sh   (CCL_DROP_IN_RANKS="2 3 4 8", CCL_DROP_IN_LAMMPS_RANKS="1 2 4 8",
#                          CCL_DROP_IN_REPEATS=5; extra arguments go to ccl-bench-drop-in)
set -euo pipefail
source "$(dirname "$0")/../scripts/common.sh"
root=$(ccl_root)
ccl_perf_prepare
out=$(ccl_results_dir)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
lib="$root/build/comm/drop_in/libccl_mpi.so"

# 1. The collectives, through the drop-in and straight to Open MPI.
csv="$out/drop_in_collectives.csv"
rm -f "$csv"
for np in ${CCL_DROP_IN_RANKS:-2 3 4 8}; do
  mpirun -np "$np" $(ccl_oversubscribe "$np") "$root/build/tools/ccl-calibrate" --output "$work/model_np$np.txt" > /dev/null
  mpirun -np "$np" $(ccl_oversubscribe "$np") -x LD_PRELOAD="$lib" -x CCL_MODEL="$work/model_np$np.txt" \
    "$root/build/perf/ccl-bench-drop-in" --csv "$work/collectives_np$np.csv" "$@"
  if [ ! -f "$csv" ]; then head -n 1 "$work/collectives_np$np.csv" > "$csv"; fi
  tail -n +2 "$work/collectives_np$np.csv" >> "$csv"
done
"$root/perf/plot_collectives.sh" "$csv" "$out" drop_in_collectives "libccl_mpi"

# 2. LAMMPS with and without the drop-in.
examples=/usr/share/lammps/examples
decks=("melt $examples/melt/in.melt"
       "peptide $examples/peptide/in.peptide $examples/peptide/data.peptide"
       "min $examples/min/in.min"
       "nacl-pppm $root/inputs/nacl-pppm.in")
# Milliseconds per step over all "Loop time of T on N procs for S steps" lines of a log.
ms_per_step() { awk '/^Loop time of/ { t += $4; s += $9 } END { if (s > 0) printf "%.5f\n", 1000 * t / s }' "$1"; }
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }
lammps_csv="$out/drop_in_lammps.csv"
echo "deck,ranks,atoms,steps,open_mpi_ms_per_step,drop_in_ms_per_step,ratio,comm_percent,calls_on_ccl,calls_on_mpi,runs" > "$lammps_csv"
repeats=${CCL_DROP_IN_REPEATS:-5}
for entry in "${decks[@]}"; do
  read -r name deck data <<< "$entry"
  dir="$work/$name"
  mkdir -p "$dir"
  cp "$deck" "$dir/in.deck"
  [ -z "${data:-}" ] || cp "$data" "$dir/"
  for np in ${CCL_DROP_IN_LAMMPS_RANKS:-1 2 4 8}; do
    : > "$dir/plain.times"; : > "$dir/ccl.times"; : > "$dir/ratios"
    for ((k = 1; k <= repeats; ++k)); do
      (cd "$dir" && mpirun -np "$np" $(ccl_oversubscribe "$np") lmp -in in.deck -log none -screen plain.out > /dev/null)
      (cd "$dir" && mpirun -np "$np" $(ccl_oversubscribe "$np") -x LD_PRELOAD="$lib" -x CCL_MPI_REPORT=1 \
        lmp -in in.deck -log none -screen ccl.out > report.out)
      grep -q "^ccl_mpi report" "$dir/report.out" || { echo "run_drop_in: no report from the drop-in in $name"; exit 1; }
      plain=$(ms_per_step "$dir/plain.out") ccl=$(ms_per_step "$dir/ccl.out")
      echo "$plain" >> "$dir/plain.times"
      echo "$ccl" >> "$dir/ccl.times"
      awk -v a="$ccl" -v b="$plain" 'BEGIN { printf "%.5f\n", a / b }' >> "$dir/ratios"
    done
    atoms=$(awk '/^Loop time of/ { print $12; exit }' "$dir/plain.out")
    steps=$(awk '/^Loop time of/ { s += $9 } END { print s }' "$dir/plain.out")
    comm=$(awk '$1 == "Comm" && $2 == "|" { print $NF; exit }' "$dir/plain.out")
    calls=$(awk '/^ccl_mpi report/ { on = 1; next } on && $1 ~ /^MPI_/ { c += $2; m += $3 } END { print c + 0 "," m + 0 }' "$dir/report.out")
    echo "$name,$np,$atoms,$steps,$(median < "$dir/plain.times"),$(median < "$dir/ccl.times"),$(median < "$dir/ratios"),${comm:-0},$calls,$repeats" >> "$lammps_csv"
  done
done
"$root/perf/plot_drop_in_lammps.sh" "$lammps_csv" "$out/drop_in_lammps.png"
ratio_median=$(tail -n +2 "$lammps_csv" | cut -d, -f7 | median)
awk -F, -v m="$ratio_median" 'NR > 1 { ++n; if ($7 > w) { w = $7; at = $1 " np=" $2 } if ($7 < 1) f++ }
  END { printf "LAMMPS time per step with libccl_mpi / without, %d cases: median %.3f, worst %.3f (%s), faster in %d\n", n, m, w, at, f }' "$lammps_csv"
echo "wrote $csv, $out/drop_in_collectives.png, $lammps_csv and $out/drop_in_lammps.png"
