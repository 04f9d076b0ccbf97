#!/usr/bin/env bash
# Install ccl from the build tree into a fresh prefix, build examples/summa against it with
# find_package(ccl), and run it on 1-8 ranks (uneven blocks, panels crossing block boundaries).
#   run_summa_test.sh <build dir> <summa source dir> <mpiexec> [cmake options...]
set -euo pipefail
build=$1 src=$2 mpiexec=$3
work="$build/summa-test"
rm -rf "$work"
cmake --install "$build" --prefix "$work/prefix" > /dev/null
cmake -S "$src" -B "$work/build" -DCMAKE_PREFIX_PATH="$work/prefix" "${@:4}" > /dev/null
cmake --build "$work/build" > /dev/null
for np in 1 2 3 4 5 7 8; do
  "$mpiexec" -n "$np" --oversubscribe "$work/build/summa" 97 61 83 16
done
"$mpiexec" -n 6 --oversubscribe "$work/build/summa"
