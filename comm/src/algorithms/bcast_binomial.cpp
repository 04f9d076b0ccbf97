// Broadcast along a binomial tree (minimum spanning tree) rooted at `root`.
//
// Cost for n members and m bytes: C1 = ceil(log2 n) steps, C2 = ceil(log2 n)·m bytes on the
// critical path, C3 = (n−1)·m bytes in all, no reduce work.
//
// Relative ranks v = (rank − root) mod n. A member receives from v − lowbit(v), then sends to
// v + 2^j for the powers of two below lowbit(v), largest subtree first:
//
//   n = 6:   step 0:  0 ──► 4
//            step 1:  0 ──► 2        4 ──► 5
//            step 2:  0 ──► 1        2 ──► 3
#include "builders.hpp"

namespace ccl::algorithms {

Schedule bcast_binomial(const Shape& s) {
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

}  // namespace ccl::algorithms
