#!/usr/bin/env bash
# ccl's ten collectives (model-selected) against Open MPI's own (coll/tuned by default) at 2, 3,
# 4, 5, 7 and 8 ranks on this machine, 8 B to 4 MiB per member. Before each rank count,
# ccl-calibrate measures the machine model at that count (oversubscription changes it) and the
# benchmark runs with it (CCL_MODEL). Writes perf/results/collectives.csv, one PNG per collective
# (time against size, both libraries) and collectives.png (ratios); prints one summary line per
# rank count.
#   perf/run_collectives.sh [extra ccl-bench-collectives options]
set -euo pipefail
source "$(dirname "$0")/../scripts/common.sh"
root=$(ccl_root)
ccl_perf_prepare
out=$(ccl_results_dir)
csv="$out/collectives.csv"
rm -f "$csv" "$out"/collectives_np*.csv "$out"/model_np*.txt
for np in ${CCL_BENCH_RANKS:-2 3 4 5 7 8}; do
  mpirun -np "$np" $(ccl_oversubscribe "$np") "$root/build/tools/ccl-calibrate" --output "$out/model_np$np.txt" > /dev/null
  CCL_MODEL="$out/model_np$np.txt" mpirun -np "$np" $(ccl_oversubscribe "$np") -x CCL_MODEL \
    "$root/build/perf/ccl-bench-collectives" --csv "$out/collectives_np$np.csv" "$@"
  if [ ! -f "$csv" ]; then head -n 1 "$out/collectives_np$np.csv" > "$csv"; fi
  tail -n +2 "$out/collectives_np$np.csv" >> "$csv"
done
"$root/perf/plot_collectives.sh" "$csv" "$out"
echo "wrote $csv, $out/collectives.png and $out/collectives_<name>.png"
