#!/usr/bin/env bash
# Install ccl from the build tree into a fresh prefix, build tests/consumer against it with
# find_package(ccl), and run it on 2 ranks.
#   run_consumer_test.sh <build dir> <consumer source dir> <mpiexec> [cmake options...]
set -euo pipefail
build=$1
src=$2
mpiexec=$3
work="$build/consumer-test"
rm -rf "$work"
cmake --install "$build" --prefix "$work/prefix" > /dev/null
cmake -S "$src" -B "$work/build" -DCMAKE_PREFIX_PATH="$work/prefix" -DCMAKE_BUILD_TYPE=Release "${@:4}" > /dev/null
cmake --build "$work/build" > /dev/null
"$mpiexec" -n 2 --oversubscribe "$work/build/consumer"
