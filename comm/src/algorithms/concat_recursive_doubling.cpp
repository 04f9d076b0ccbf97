// Concat (and concatv) by recursive doubling, for a power-of-two number of members: at distance
// 1, 2, 4, ... a member swaps everything it holds (an aligned run of members' blocks) with its
// partner. In place in the recv buffer, no final rotation (the hypercube exchange of the CCL
// paper's "specialized algorithms").
//
// Cost for n = 2^k members, blocks of b bytes: C1 = k, C2 = (n − 1)·b, C3 = 0.
//
//   n = 4:  j = 0: {0}◄►{1} {2}◄►{3}      j = 1: {0,1}◄►{2,3}
#include "team.hpp"

namespace ccl::algorithms {

namespace {

Schedule build(const Shape& s, const Params&) {
  ScheduleBuilder b("recursive_doubling");
  const BlockLayout blocks(s);
  const int r = s.rank;
  auto run = [&](int first, int len) {
    return Slice{Buffer::recv, blocks.offset(first), blocks.cyclic_bytes(first, len)};
  };
  const Slice own{Buffer::send, 0, blocks.bytes(r)};
  if (s.size == 1) b.copy(own, run(r, 1));
  for (int dist = 1; dist < s.size; dist <<= 1) {
    const int partner = r ^ dist;
    const int mine = r & ~(dist - 1), theirs = partner & ~(dist - 1);
    // The first step sends the own block from where it is and copies it into place meanwhile.
    b.send(partner, dist == 1 ? own : run(mine, dist), Copier::exchange);
    b.recv(partner, run(theirs, dist), Copier::exchange);
    if (dist == 1) b.copy_during(own, run(r, 1));
    b.end_round();
  }
  return b.finish();
}

Cost cost(const Shape& s, const Params&) {
  const BlockLayout blocks(s);
  std::vector<Cost> t(static_cast<std::size_t>(s.size)), next(t.size());
  for (int dist = 1; dist < s.size; dist <<= 1) {
    for (int r = 0; r < s.size; ++r) {
      const int partner = r ^ dist;
      const std::size_t out = blocks.cyclic_bytes(r & ~(dist - 1), dist);
      const std::size_t in = blocks.cyclic_bytes(partner & ~(dist - 1), dist);
      const Cost& own = t[static_cast<std::size_t>(r)];
      Cost c = maybe_message(own, out);
      if (in > 0)
        c = longest(c, receive(own, plus_message(t[static_cast<std::size_t>(partner)], in), in));
      next[static_cast<std::size_t>(r)] = c;
    }
    t.swap(next);
  }
  return worst(t);
}

std::vector<Params> candidates(const Shape& s) {
  if (s.size < 2 || (s.size & (s.size - 1)) != 0) return {};
  return {Params{}};
}

}  // namespace

const Algorithm concat_recursive_doubling{"recursive_doubling", CollKind::concat, build, cost,
                                          candidates};

}  // namespace ccl::algorithms
