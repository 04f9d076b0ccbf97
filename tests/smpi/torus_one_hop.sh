#!/usr/bin/env bash
# On a simulated torus from perf/smpi/torus_platform.sh, every neighbour of ccl's Torus is one
# link away (ccl-torus-hops): the platform and ccl number the nodes alike, so the strong-scaling
# study's torus allgathers run on the torus they were planned for.
#   torus_one_hop.sh SOURCE_DIR BUILD_DIR SHAPE
set -euo pipefail
src=$1 build=$2 shape=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$src/perf/smpi/torus_platform.sh" "$shape" "$work/torus"
nodes=$(wc -l < "$work/torus.hosts")
cd "$work"
# Only the network is measured: the host's time between two MPI calls (noisy when other tests
# run) is not charged to the simulated nodes.
"$src/perf/smpi/simulate.sh" "$work" torus "$nodes" --cfg=smpi/simulate-computation:no \
  "$build/smpi/perf/ccl-torus-hops" "$shape" 2> smpi.err ||
  { cat smpi.err; exit 1; }
