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
# SMPI copies the program per rank into TMPDIR: a directory of its own, so that SMPI tests
# running at once do not write the same copies.
TMPDIR="$work" smpirun -np "$nodes" -platform torus.xml -hostfile torus.hosts --cfg=network/model:CM02 \
  --cfg=network/crosstraffic:0 "$build/smpi/perf/ccl-torus-hops" "$shape" 2> smpi.err || { cat smpi.err; exit 1; }
