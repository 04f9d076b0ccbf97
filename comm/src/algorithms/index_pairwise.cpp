// Index (alltoall, and indexv) by pairwise exchange.
//
// Cost for n members, blocks of b bytes: C1 = n−1 steps, C2 = (n−1)·b bytes, C3 = n·(n−1)·b;
// the radix-n end of the CCL paper's radix trade-off (every block travels once, directly).
//
// In step k = 1 .. n−1 member i sends its block for i + k and receives the block of i − k, so
// each step is a permutation and no member is sent to twice at once:
//
//   n = 4:  step 1: 0→1 1→2 2→3 3→0    step 2: 0→2 1→3 2→0 3→1    step 3: 0→3 1→0 2→1 3→2
//
// In place (send and recv the same memory) the send buffer is first copied to scratch.
#include "common.hpp"

namespace ccl::algorithms {

namespace {

Schedule build(const Shape& s, const Params&) {
  ScheduleBuilder b("pairwise");
  return build_index_direct(b, s, true);
}

Cost cost(const Shape& s, const Params&) {
  return index_direct_cost(s);
}

}  // namespace

const Algorithm index_pairwise{"pairwise", CollKind::index, build, cost, no_params};

}  // namespace ccl::algorithms
