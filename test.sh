#!/usr/bin/env bash
# Install what is missing, build, and run every test (unit, simulator, MPI on 1..8 ranks,
# the find_package(ccl) consumer) on Open MPI, then the MPI tests again on MPICH. Exits non-zero
# on any failure.
set -euo pipefail
source "$(dirname "$0")/scripts/common.sh"
root=$(ccl_root)
ccl_install_deps
ccl_build
ccl_mpi_env
ctest --test-dir "$root/build" --output-on-failure -j "$(nproc)" "$@"
ccl_mpich_tests "$@"
