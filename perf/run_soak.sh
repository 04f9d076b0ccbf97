#!/usr/bin/env bash
# Soak: a million small collectives and ten thousand group creations and frees at 2, 4 and 8
# ranks, resident memory sampled throughout (ccl-soak). Writes perf/results/soak.csv and
# soak.png (resident memory against progress, per phase and rank count) and prints one summary
# line per rank count; exits non-zero if memory grew past the limit anywhere.
#   perf/run_soak.sh [extra ccl-soak options]
set -euo pipefail
source "$(dirname "$0")/../scripts/common.sh"
root=$(ccl_root)
ccl_perf_prepare
out=$(ccl_results_dir)
csv="$out/soak.csv"
echo "np,phase,step,resident_kib" > "$csv"
status=0
for np in ${CCL_SOAK_RANKS:-2 4 8}; do
  part=$(mktemp)
  mpirun -np "$np" $(ccl_oversubscribe "$np") "$root/build/perf/ccl-soak" --csv "$part" "$@" || status=1
  tail -n +2 "$part" | sed "s/^/$np,/" >> "$csv"
  rm -f "$part"
done
"$root/perf/plot_soak.sh" "$csv" "$out/soak.png"
echo "wrote $csv and $out/soak.png"
exit $status
