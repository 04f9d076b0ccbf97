// Index (alltoall, and indexv) with every transfer in one round: each member posts its n − 1
// sends (to i + 1, i + 2, ...) and its n − 1 receives (from i − 1, i − 2, ...) at once, and
// copies its own block while they fly. No member waits for a step to end before the next
// transfer starts, which suits small blocks on one node, where messages are handed over in
// parallel.
//
// Cost for n members, blocks of b bytes (one send port, one receive port): the k-th send leaves
// at (k, k·b) and is member i + k's k-th receive, so both ports finish at
// C1 = n − 1, C2 = (n − 1)·b, C3 = 0 — pairwise's counts in one round instead of n − 1.
//
//   n = 4, member 0:  send → 1, 2, 3   receive ← 3, 2, 1   (all posted together)
//
// In place (send and recv the same memory) the send buffer is first copied to scratch.
#include "common.hpp"

namespace ccl::algorithms {

namespace {

Schedule build(const Shape& s, const Params&) {
  ScheduleBuilder b("linear");
  return build_index_direct(b, s, false);
}

Cost cost(const Shape& s, const Params&) {
  return index_direct_cost(s);
}

std::vector<Params> candidates(const Shape& s) {
  if (s.size < 3) return {};  // on two members it is pairwise exchange
  return {Params{}};
}

}  // namespace

const Algorithm index_linear{"linear", CollKind::index, build, cost, candidates};

}  // namespace ccl::algorithms
