// Prefix (inclusive scan) by recursive doubling; safe for non-commutative operators.
//
// Cost for n members and m bytes: C1 = ceil(log2 n), C2 = ceil(log2 n)·m, C3 up to
// 2·ceil(log2 n)·m (a member with a lower partner folds twice); cost() follows every member.
//
// Each member keeps `partial`, the reduction of a contiguous block of ranks containing it, and
// its result. At distance 2^j it swaps partials with rank ^ 2^j (when that rank exists); a partner
// below folds into both on the left, a partner above only into `partial`, on the right:
//
//   n = 4:  j=0: 0◄►1 2◄►3   result(1)=x0·x1, result(3)=x2·x3
//           j=1: 0◄►2 1◄►3   result(2)=x0x1·x2, result(3)=x0x1·x2x3
#include "common.hpp"

namespace ccl::algorithms {

namespace {

Schedule build(const Shape& s, const Params&) {
  ScheduleBuilder b("recursive_doubling");
  const int n = s.size;
  const int r = s.rank;
  const std::size_t m = s.vector_bytes();
  const Slice result{Buffer::recv, 0, m};
  const Slice partial = b.scratch(m);
  const Slice incoming = b.scratch(m);
  b.copy(Slice{Buffer::send, 0, m}, partial);  // before result: send and recv may be one buffer
  b.copy(Slice{Buffer::send, 0, m}, result);
  for (int mask = 1; mask < n; mask <<= 1) {
    const int partner = r ^ mask;
    if (partner >= n) continue;
    b.send(partner, partial, Copier::exchange);
    b.recv(partner, incoming, Copier::exchange);
    if (partner < r) {
      b.reduce(incoming, result, true);
      b.reduce(incoming, partial, true);
    } else {
      b.reduce(incoming, partial, false);
    }
  }
  return b.finish();
}

Cost cost(const Shape& s, const Params&) {
  const int n = s.size;
  const std::size_t m = s.vector_bytes();
  if (m == 0) return {};
  std::vector<Cost> t(static_cast<std::size_t>(n)), next(t.size());
  for (int mask = 1; mask < n; mask <<= 1) {
    for (int r = 0; r < n; ++r) {
      const int partner = r ^ mask;
      Cost c = t[static_cast<std::size_t>(r)];
      if (partner < n) {
        c = longest(plus_message(c, m),
                    receive(c, plus_message(t[static_cast<std::size_t>(partner)], m), m));
        c.c3 += u64(partner < r ? 2 * m : m);  // folds into result and partial, or partial only
      }
      next[static_cast<std::size_t>(r)] = c;
    }
    t.swap(next);
  }
  Cost worst;
  for (const Cost& c : t) worst = longest(worst, c);
  return worst;
}

}  // namespace

const Algorithm prefix_recursive_doubling{"recursive_doubling", CollKind::prefix, build, cost,
                                          no_params};

}  // namespace ccl::algorithms
