#!/usr/bin/env bash
# Allgather on simulated tori under the torus network model: ring, Bruck, recursive doubling, the
# QCDOC scheme and the multi-link one on 4x4x4, 8x8x8, 6x6x6x6, 4x4x8 and 2x2x2x10x10x10 at 1 MiB
# per node, as a fraction of the paper's bound. Writes perf/results/torus.csv and torus.png;
# prints one line per torus and a summary. A few minutes (the 8000-node ring moves 64 million
# messages).
#   perf/run_torus.sh [extra ccl-bench-torus options]
set -euo pipefail
source "$(dirname "$0")/../scripts/common.sh"
root=$(ccl_root)
ccl_perf_prepare
out=$(ccl_results_dir)
"$root/build/perf/ccl-bench-torus" --csv "$out/torus.csv" "$@"
"$root/perf/plot_torus.sh" "$out/torus.csv" "$out/torus.png"
echo "wrote $out/torus.csv and $out/torus.png"
