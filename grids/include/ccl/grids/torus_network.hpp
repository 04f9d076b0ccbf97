// A torus network model for the simulator: how long a collective's schedules take on a machine
// whose nodes are wired as a torus (QCDOC-like). Every node has a + and a − link in each
// dimension of size > 1 (in a dimension of size 2 both reach the same neighbour), full duplex,
// all usable at once. A message goes from node to node along a shortest route, dimension by
// dimension in order; each hop is stored and forwarded and takes latency + bytes / bandwidth on
// its link, which carries one message at a time, first come first served. Where both directions
// are shortest (the antipode of an even ring, or a size-2 dimension), a hop takes whichever of
// the two links frees first.
//
// The members' schedules (one per member, built by the algorithm as the simulator would run
// them) are read for their transfers: a member's round starts when every transfer of its
// previous round has completed (its receives arrived, its sends delivered), and its messages
// then all leave at once; receives match sends in order per pair of members, as on MPI. Data is
// not moved: sizes are enough, so thousands of members with megabytes each are cheap (the
// schedules are built one at a time; what is kept is their sends, peers and sizes).
#pragma once

#include <cstddef>

#include "ccl/algorithm.hpp"
#include "ccl/grids/cartesian.hpp"

namespace ccl::grids {

struct TorusLinks {
  double latency = 660e-9;   // per hop, seconds (the QCDOC paper's estimate with its software)
  double bandwidth = 500e6;  // per link and direction, bytes per second
};

struct NetworkRun {
  double seconds = 0;
  double bound_seconds = 0;  // s·x / n_channels + n_hops·L (the paper's lower bound)
  std::size_t rounds = 0;    // the most rounds with transfers of any member
  std::size_t messages = 0, hops = 0;
  double efficiency() const { return seconds > 0 ? bound_seconds / seconds : 0; }
};

// Concat of `block_bytes` per member by algorithm `a` (with `p`) on a group laid out as `torus`.
NetworkRun simulate_concat(const Cartesian& torus, const Algorithm& a, const Params& p,
                           std::size_t block_bytes, const TorusLinks& links);

// The bound alone: x = (P − 1)·block bytes received per node over its 2k' links, diameter hops.
double concat_bound(const Cartesian& torus, std::size_t block_bytes, const TorusLinks& links);

}  // namespace ccl::grids
