#!/usr/bin/env bash
# Refresh the machine models built into libccl (comm/models/np<N>.txt, comm/models/README.md):
# at each rank count, RUNS jobs of ccl-calibrate (3 by default), merged by ccl-merge-models into
# one model (medians over the runs), so that no single job — a slow spell of the shared machine,
# an unlucky placement of the ranks — decides the choices every user gets. The runs and their
# logs stay in perf/results/calibration/. Rebuild afterwards: the models are compiled in.
#   CCL_BENCH_RANKS="2 3 4 5 7 8" RUNS=3 perf/calibrate_models.sh
set -euo pipefail
source "$(dirname "$0")/../scripts/common.sh"
root=$(ccl_root)
ccl_perf_prepare
runs_dir="$(ccl_results_dir)/calibration"
ranks=${CCL_BENCH_RANKS:-2 3 4 5 7 8}
mkdir -p "$runs_dir"
for np in $ranks; do rm -f "$runs_dir"/np"${np}"_*; done  # other rank counts' runs stay
# Runs alternate over the rank counts, so that a slow spell lands on one run of several counts
# rather than on every run of one.
for run in $(seq 1 "${RUNS:-3}"); do
  for np in $ranks; do
    mpirun -np "$np" $(ccl_oversubscribe "$np") "$root/build/tools/ccl-calibrate" \
      --output "$runs_dir/np${np}_$run.txt" > "$runs_dir/np${np}_$run.log"
  done
done
for np in $ranks; do
  "$root/build/tools/ccl-merge-models" --np "$np" --output "$root/comm/models/np$np.txt" \
    "$runs_dir"/np"${np}"_*.txt
done
echo "wrote comm/models/np<N>.txt for N in $ranks (runs in $runs_dir); rebuild to compile them in"
