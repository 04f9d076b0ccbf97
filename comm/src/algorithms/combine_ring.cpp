// Combine of a long vector as ring reduce-scatter + ring collect (the bucket algorithms of
// InterCom; the bandwidth-optimal allreduce). In place in the recv buffer; commutative operators
// only, since pieces are folded in ring order.
//
// Cost for n members and m bytes (pieces of m/n): C1 = 2(n − 1), C2 ≈ 2·(n−1)/n·m,
// C3 ≈ (n−1)/n·m; cost() follows every member.
//
//   n = 4:  reduce-scatter  s = 0..2: i ─[partial of piece i−1−s]─► i+1   (i ends with piece i)
//           collect         s = 0..2: i ─[piece i−s]─► i+1
#include "team.hpp"

namespace ccl::algorithms {

namespace {

Schedule build(const Shape& s, const Params&) {
  ScheduleBuilder b("ring");
  const Team t = Team::whole(s, 0);
  const std::size_t m = s.vector_bytes();
  const Slice data{Buffer::recv, 0, m};
  const Pieces p(m, s.size, s.elem);
  emit_ring_reduce_scatter(b, t, data, p, b.scratch(p.largest()), Slice{Buffer::send, 0, m});
  emit_ring_collect(b, t, data, p);
  return b.finish();
}

Cost cost(const Shape& s, const Params&) {
  const Team t = Team::whole(s, 0);
  const Pieces p(s.vector_bytes(), s.size, s.elem);
  Timeline tl(static_cast<std::size_t>(s.size));
  cost_ring_reduce_scatter(tl, t, p);
  cost_ring_collect(tl, t, p);
  return worst(tl);
}

std::vector<Params> candidates(const Shape& s) {
  if (!s.commutative || s.size < 2) return {};
  return {Params{}};
}

}  // namespace

const Algorithm combine_ring{"ring", CollKind::combine, build, cost, candidates};

}  // namespace ccl::algorithms
