// Shift: member r's vector goes to member (r + d) mod n, in one send-receive step.
//
// Cost for m bytes: C1 = 1 step, C2 = m, C3 = 0 (nothing when d ≡ 0 mod n: a local copy).
//
//   n = 4, d = 1:   0 ──► 1 ──► 2 ──► 3 ──► 0
//
// In place (send and recv the same memory) the vector is first copied to scratch.
#include "common.hpp"

namespace ccl::algorithms {

namespace {

Schedule build(const Shape& s, const Params&) {
  ScheduleBuilder b("direct");
  const int n = s.size;
  const int d = mod(s.distance, n);
  const std::size_t m = s.vector_bytes();
  Slice src{Buffer::send, 0, m};
  const Slice dst{Buffer::recv, 0, m};
  if (d == 0) {
    b.copy(src, dst);
    return b.finish();
  }
  if (s.in_place) {
    const Slice copy = b.scratch(m);
    b.copy(src, copy);
    src = copy;
  }
  b.send(mod(s.rank + d, n), src, Copier::exchange);
  b.recv(mod(s.rank - d, n), dst, Copier::exchange);
  return b.finish();
}

Cost cost(const Shape& s, const Params&) {
  const std::size_t m = s.vector_bytes();
  if (m == 0 || mod(s.distance, s.size) == 0) return {};
  return {1, u64(m), 0};
}

}  // namespace

const Algorithm shift_direct{"direct", CollKind::shift, build, cost, no_params};

}  // namespace ccl::algorithms
