#!/usr/bin/env bash
# Install what is missing, build, and run the default deck (inputs/nacl-ewald.in: 512-ion rock
# salt, Born-Mayer-Huggins + Ewald, 1000 steps) with the MD app on 4 MPI ranks. Any arguments go
# to ewald-md before the deck (e.g. ./run.sh --ccl-mode develop).
set -euo pipefail
source "$(dirname "$0")/scripts/common.sh"
root=$(ccl_root)
ccl_install_deps
ccl_build
ccl_mpi_env
mpirun -np 4 --oversubscribe "$root/build/md/ewald-md" "$@" "$root/inputs/nacl-ewald.in"
