// Concat (and concatv) by the ring (bucket) algorithm: in step s member i passes block i − s to
// i + 1. In place in the recv buffer; every block crosses every link once.
//
// Cost for n members, blocks of b bytes: C1 = n − 1, C2 = (n − 1)·b, C3 = 0 — the most
// start-ups, but nearest-neighbour traffic and, with blocks of any size, a clean pipeline.
//
//   n = 4:  s = 0: 0─[0]─►1 1─[1]─►2 2─[2]─►3 3─[3]─►0    s = 1: i─[i−1]─►i+1    s = 2:
//   i─[i−2]─►i+1
#include "team.hpp"

namespace ccl::algorithms {

namespace {

Schedule build(const Shape& s, const Params&) {
  ScheduleBuilder b("ring");
  const BlockLayout blocks(s);
  const Pieces p(blocks, s.size);
  const Slice data{Buffer::recv, 0, blocks.total()};
  emit_ring_collect(b, Team::whole(s, 0), data, p, Slice{Buffer::send, 0, blocks.bytes(s.rank)});
  return b.finish();
}

Cost cost(const Shape& s, const Params&) {
  Timeline tl(static_cast<std::size_t>(s.size));
  cost_ring_collect(tl, Team::whole(s, 0), Pieces(BlockLayout(s), s.size));
  return worst(tl);
}

std::vector<Params> candidates(const Shape& s) {
  if (s.size < 2) return {};
  return {Params{}};
}

}  // namespace

const Algorithm concat_ring{"ring", CollKind::concat, build, cost, candidates};

}  // namespace ccl::algorithms
