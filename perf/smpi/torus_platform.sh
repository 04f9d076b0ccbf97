#!/usr/bin/env bash
# A SimGrid platform for a torus partition, and the hostfile that puts rank i on node i.
#   torus_platform.sh SHAPE OUT [qcdoc|modern]     e.g. torus_platform.sh 4x4x4 /tmp/t444
# writes OUT.xml and OUT.hosts. SHAPE is the torus's sizes, any number of dimensions (2x2x2,
# 8x8x8, 2x2x2x4x4x4). One SimGrid TORUS cluster: a node per point, a link to each neighbour in
# every dimension (SimGrid routes dimension by dimension along shortest paths, and SMPI does not
# spread one message over several links). Links are full duplex (SPLITDUPLEX), as QCDOC's are:
# the two directions of a link do not share its bandwidth.
# Numbering: SimGrid numbers a torus's nodes with its first dimension varying fastest; ccl's
# Torus (and MPI_Cart_create) with the last. The dimensions are handed to SimGrid reversed, so
# node i sits at the coordinates ccl's --torus SHAPE gives rank i, and a ccl neighbour is one hop.
# Link parameters, per link and direction:
#   qcdoc   660 ns, 500 MB/s: the QCDOC paper's per-hop latency with its software and the
#           bandwidth of one link (the same defaults as grids' torus_network.hpp), the default;
#   modern  1 us, 12.5 GB/s: a 100 Gb/s torus link with an MPI stack's latency.
# Node speed 1 Gflop/s only names the host: SMPI times computation on this machine and scales
# it by smpi/host-speed (perf/smpi/README.md).
set -euo pipefail
shape=$1 out=$2 links=${3:-qcdoc}
case "$links" in
  qcdoc) lat=660ns bw=500MBps ;;
  modern) lat=1us bw=12.5GBps ;;
  *) echo "torus_platform.sh: links must be qcdoc or modern, not '$links'" >&2; exit 2 ;;
esac
if ! [[ "$shape" =~ ^[1-9][0-9]*(x[1-9][0-9]*)*$ ]]; then
  echo "torus_platform.sh: shape must look like 4x4x4, not '$shape'" >&2
  exit 2
fi
nodes=1 simgrid_dims=""
for d in ${shape//x/ }; do
  nodes=$((nodes * d))
  simgrid_dims="$d${simgrid_dims:+,}$simgrid_dims"
done
cat > "$out.xml" <<XML
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<!-- Torus $shape ($nodes nodes), $links links: $lat, $bw per link (perf/smpi/torus_platform.sh) -->
<platform version="4.1">
  <cluster id="torus" topology="TORUS" topo_parameters="$simgrid_dims" prefix="node-"
           radical="0-$((nodes - 1))" suffix="" speed="1Gf" bw="$bw" lat="$lat" sharing_policy="SPLITDUPLEX"
           loopback_bw="10GBps" loopback_lat="100ns"/>
</platform>
XML
for ((i = 0; i < nodes; ++i)); do echo "node-$i"; done > "$out.hosts"
