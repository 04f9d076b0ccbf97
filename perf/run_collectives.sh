#!/usr/bin/env bash
# ccl collectives against Open MPI's (coll/tuned by default) at 2, 4 and 8 ranks on this machine.
# Writes perf/results/collectives.csv and collectives.png; prints one summary line per rank count.
#   perf/run_collectives.sh [extra ccl-bench-collectives options]
set -euo pipefail
source "$(dirname "$0")/../scripts/common.sh"
root=$(ccl_root)
ccl_install_deps
ccl_build
ccl_mpi_env
out="$root/perf/results"
mkdir -p "$out"
csv="$out/collectives.csv"
rm -f "$csv"
for np in 2 4 8; do
  mpirun -np "$np" --oversubscribe "$root/build/perf/ccl-bench-collectives" --csv "$out/collectives_np$np.csv" "$@"
  if [ ! -f "$csv" ]; then head -n 1 "$out/collectives_np$np.csv" > "$csv"; fi
  tail -n +2 "$out/collectives_np$np.csv" >> "$csv"
done
"$root/perf/plot_collectives.sh" "$csv" "$out/collectives.png"
echo "wrote $csv and $out/collectives.png"
