#!/usr/bin/env bash
# Install what is missing, build, and run the project's main job on 4 MPI ranks. Until the MD
# application exists this is ccl-demo: every collective on the world and on row/column groups,
# each result checked, and a table of calls, bytes and time.
set -euo pipefail
source "$(dirname "$0")/scripts/common.sh"
root=$(ccl_root)
ccl_install_deps
ccl_build
ccl_mpi_env
mpirun -np 4 --oversubscribe "$root/build/comm/demo/ccl-demo" "$@"
