// Broadcast of a long vector as scatter + collect (Van de Geijn): a binomial scatter of n pieces
// from the root, then a ring collect of the pieces. Everything happens in place in the
// members' buffers: no scratch, no copies.
//
// Cost for n members and m bytes (pieces of m/n): C1 = ceil(log2 n) + n − 1,
// C2 ≈ 2·(n−1)/n·m, C3 = 0; cost() follows every member through both stages.
//
//   n = 4:  scatter   0 ─[2,3]─► 2   0 ─[1]─► 1   2 ─[3]─► 3
//           collect   i ─[piece i − s]─► i + 1,  s = 0, 1, 2
#include "team.hpp"

namespace ccl::algorithms {

namespace {

Pieces pieces_of(const Shape& s) {
  return Pieces(s.vector_bytes(), s.size, s.elem);
}

Schedule build(const Shape& s, const Params&) {
  ScheduleBuilder b("scatter_concat");
  const Team t = Team::whole(s, s.root);
  const Slice data{Buffer::recv, 0, s.vector_bytes()};
  const Pieces p = pieces_of(s);
  emit_tree_scatter(b, t, data, p);
  emit_ring_collect(b, t, data, p);
  return b.finish();
}

Cost cost(const Shape& s, const Params&) {
  const Team t = Team::whole(s, s.root);
  const Pieces p = pieces_of(s);
  Timeline tl(static_cast<std::size_t>(s.size));
  cost_tree_scatter(tl, t, p);
  cost_ring_collect(tl, t, p);
  return worst(tl);
}

std::vector<Params> candidates(const Shape& s) {
  if (s.size < 2) return {};
  return {Params{}};
}

}  // namespace

const Algorithm bcast_scatter_concat{"scatter_concat", CollKind::bcast, build, cost, candidates};

}  // namespace ccl::algorithms
