#!/usr/bin/env bash
# Builds what the SMPI tests run, with smpicxx and the smpi preset's settings, in BUILD_DIR/smpi:
# ewald-md and ccl-torus-hops. A test fixture: the SMPI tests need it first.
#   build_smpi_tree.sh SOURCE_DIR BUILD_DIR
set -euo pipefail
src=$1 build=$2
cmake -S "$src" -B "$build/smpi" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=smpicxx \
  -DCCL_SMPI=ON -DCCL_BUILD_TESTS=OFF -DCCL_BUILD_PERF=ON > /dev/null
cmake --build "$build/smpi" --target ewald-md ccl-torus-hops -j "$(nproc)" > /dev/null
