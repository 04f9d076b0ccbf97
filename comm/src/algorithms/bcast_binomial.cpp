// Broadcast along a binomial tree (minimum spanning tree) rooted at `root`.
//
// Cost for n members and m bytes, k = ceil(log2 n): C1 = k, C2 = k·m, C3 = 0.
// (The root sends k messages one after another; every other path is no longer.)
//
// Relative ranks v = (rank − root) mod n. A member receives from v − lowbit(v), then sends to
// v + 2^j for the powers of two below lowbit(v), largest subtree first:
//
//   n = 6:   step 1:  0 ──► 4
//            step 2:  0 ──► 2        4 ──► 5
//            step 3:  0 ──► 1        2 ──► 3
#include "common.hpp"

namespace ccl::algorithms {

namespace {

Schedule build(const Shape& s, const Params&) {
  ScheduleBuilder b("binomial");
  const int n = s.size;
  const int v = mod(s.rank - s.root, n);
  const Slice data{Buffer::recv, 0, s.vector_bytes()};
  int mask = 1;
  while (mask < n) {
    if (v & mask) {
      b.recv(mod(v - mask + s.root, n), data);
      b.end_round();
      break;
    }
    mask <<= 1;
  }
  for (mask >>= 1; mask > 0; mask >>= 1) {
    if (v + mask < n) b.send(mod(v + mask + s.root, n), data);
  }
  return b.finish();
}

Cost cost(const Shape& s, const Params&) {
  const std::uint64_t m = u64(s.vector_bytes()), k = u64(ceil_log2(s.size));
  if (m == 0) return {};
  return {k, k * m, 0};
}

}  // namespace

const Algorithm bcast_binomial{"binomial", CollKind::bcast, build, cost, no_params};

}  // namespace ccl::algorithms
