// Prefix (inclusive scan) by recursive doubling; safe for non-commutative operators.
//
// Cost for n members and m bytes: C1 = ceil(log2 n) steps, C2 = ceil(log2 n)·m,
// C3 ≈ n·ceil(log2 n)·m bytes moved; reduce work up to 2·ceil(log2 n)·m on one member.
//
// Each member keeps `partial`, the reduction of a contiguous block of ranks containing it, and
// its result. At distance 2^j it swaps partials with rank ^ 2^j (when that rank exists); a partner
// below folds into both on the left, a partner above only into `partial`, on the right:
//
//   n = 4:  j=0: 0◄►1 2◄►3   result(1)=x0·x1, result(3)=x2·x3
//           j=1: 0◄►2 1◄►3   result(2)=x0x1·x2, result(3)=x0x1·x2x3
#include "builders.hpp"

namespace ccl::algorithms {

Schedule prefix_recursive_doubling(const Shape& s) {
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
    b.send(partner, partial);
    b.recv(partner, incoming);
    if (partner < r) {
      b.reduce(incoming, result, true);
      b.reduce(incoming, partial, true);
    } else {
      b.reduce(incoming, partial, false);
    }
  }
  return b.finish();
}

}  // namespace ccl::algorithms
