#!/usr/bin/env bash
# Builds what the SMPI tests run with the smpi preset (smpicxx and its settings), in
# BUILD_DIR/smpi: ewald-md, ccl-torus-hops and ccl-calibrate. A test fixture: the SMPI tests need it first.
#   build_smpi_tree.sh SOURCE_DIR BUILD_DIR
set -euo pipefail
src=$1 build=$2
cd "$src"
cmake --preset smpi -B "$build/smpi" > /dev/null
cmake --build "$build/smpi" --target ewald-md ccl-torus-hops ccl-calibrate -j "$(nproc)" > /dev/null
