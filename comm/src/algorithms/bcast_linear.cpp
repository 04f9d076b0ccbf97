// Broadcast straight from the root: it sends the whole vector to every other member, all sends
// posted at once, in relative order (root + 1, root + 2, ...).
//
// Large vectors are pulled (Copier::receiver): on one node each receiver reads the vector straight
// from the root's buffer, one copy instead of two through the rings, the receivers in parallel.
// Between two members the root has nothing else to do: a vector above kSplitAbove is split
// (Copier::split), the root writing half while its receiver reads the other half. Shorter ones
// are pulled whole: the split's second system call and handshake cost more than its half copy
// saves (IMB on 2 ranks of an Intel Xeon VM, per call: 8 and 16 KiB 1.39 and 1.46 us split, 1.04
// and 1.26 pulled; 32 KiB 2.2 either way; 64 KiB and 1 MiB 2.5 and 20 split, 3.3 and 55 pulled).
//
// Cost for n members and m bytes: C1 = n − 1, C2 = (n − 1)·m, C3 = 0 (one port: the root's
// sends leave one after another). In that model it wins only at n = 2; the calibrated profile of
// the machine says what the single copy is worth (2 ranks, 1 MiB: 49 us pushed against 56 for
// Open MPI's single-copy path).
//
//   n = 4, root 0:  0 ──► 1,  0 ──► 2,  0 ──► 3
#include "common.hpp"

namespace ccl::algorithms {

namespace {

constexpr std::size_t kSplitAbove = std::size_t{32} << 10;

Schedule build(const Shape& s, const Params&) {
  ScheduleBuilder b("linear");
  const Slice data{Buffer::recv, 0, s.vector_bytes()};
  const Copier copier = s.size == 2 && data.bytes > kSplitAbove ? Copier::split : Copier::receiver;
  if (s.rank != s.root) {
    b.recv(s.root, data, copier);
    return b.finish();
  }
  for (int v = 1; v < s.size; ++v) b.send(mod(s.root + v, s.size), data, copier);
  return b.finish();
}

Cost cost(const Shape& s, const Params&) {
  const std::uint64_t m = u64(s.vector_bytes()), n1 = u64(s.size - 1);
  if (m == 0) return {};
  return {n1, n1 * m, 0};
}

}  // namespace

const Algorithm bcast_linear{"linear", CollKind::bcast, build, cost, no_params};

}  // namespace ccl::algorithms
