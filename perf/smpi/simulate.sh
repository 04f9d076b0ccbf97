#!/usr/bin/env bash
# smpirun with the simulation's settings, in one place for the study and the SMPI tests:
#   simulate.sh WORKDIR PLATFORM NP [--cfg=NAME:VALUE...] PROGRAM [ARGS...]
# PLATFORM is torus_platform.sh's OUT (PLATFORM.xml, PLATFORM.hosts). Settings (README.md here):
# a node computes as fast as a core of this host (smpi/host-speed), each simulated rank loads its
# own Kokkos (Kokkos keeps its state in its shared library), CM02 network model without
# cross-traffic, Open MPI's selector for SMPI's own collectives. SMPI writes its per-rank copies
# of the program and of Kokkos into TMPDIR, here WORKDIR: simulations running at once each need
# their own, or they race on those files ("Cannot write into /tmp/0000000inos_kokkoscore.so: File
# exists"); smpirun's -tmpdir option is misparsed in SimGrid 3.32 and it appends its own
# smpi/tmpdir after any given, so TMPDIR is the way. --cfg options before PROGRAM are added
# after these settings, so they may override them. With CCL_WORK_RATES set (charged computation,
# README.md) SMPI times nothing itself (smpi/simulate-computation:0): only the counted work costs
# time, and what lies between a rank's MPI calls outside it (SMPI's own overhead among it) does
# not. Broadcasts are SMPI's binomial tree: the Open MPI selector's broadcast, which SMPI runs
# to set up every new communicator, first detects the nodes' layout by a ring allgather over the
# whole communicator, kept per member (3 MPI_Comm_dup on 512 simulated ranks: 31 s of host time
# and 266 MB; with the binomial tree 0.2 s and 69 MB). No send is detached
# (smpi/send-is-detached-thresh:0): SimGrid keeps every detached message on one list that each
# completion walks, so a round in which thousands of ranks send costs time quadratic in them (a
# 4,096-rank run spent 99.9% of its host time there); the simulated times do not change (a
# 1,024-node ewald-md step: the same to the last digit).
set -euo pipefail
work=$1 platform=$2 np=$3
shift 3
more=()
[ -z "${CCL_WORK_RATES:-}" ] || more+=(--cfg=smpi/simulate-computation:0)
while [[ "${1:-}" == --cfg=* ]]; do
  more+=("$1")
  shift
done
TMPDIR="$work" exec smpirun -np "$np" -platform "$platform.xml" -hostfile "$platform.hosts" \
  --cfg=smpi/host-speed:1Gf --cfg=smpi/privatize-libs:libtrilinos_kokkoscore.so.13.2 \
  --cfg=network/model:CM02 --cfg=network/crosstraffic:0 --cfg=smpi/coll-selector:ompi --cfg=smpi/bcast:binomial_tree \
  --cfg=smpi/send-is-detached-thresh:0 "${more[@]}" "$@"
