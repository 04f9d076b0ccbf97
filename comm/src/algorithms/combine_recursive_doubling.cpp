// Combine (allreduce) by recursive doubling, with the fix-up for n not a power of two.
//
// Cost for n members, m bytes, p = 2^floor(log2 n), L = log2 p:
//   n = p:  C1 = L, C2 = L·m, C3 = L·m;
//   n > p:  C1 = L + 2, C2 = (L + 2)·m, C3 = (L + 1)·m (the fold before and the hand-back after).
//
// The first 2r members pair up: even 2i sends to 2i+1, which folds (x_2i op x_2i+1). The p
// survivors then exchange with the partner at distance 1, 2, 4, ... in survivor numbering, the
// lower partner's data always on the left, so both compute the same bits. At the end 2i+1 hands
// the result back to 2i:
//
//   n = 6 (r = 2):  0─►1  2─►3  |  {1,3,4,5}: 1◄►3 4◄►5 | 1◄►4 3◄►5 |  1─►0  3─►2
//
// Every member ends with bitwise-identical results, in rank order for any associative operator.
#include "common.hpp"

namespace ccl::algorithms {

namespace {

Schedule build(const Shape& s, const Params&) {
  ScheduleBuilder b("recursive_doubling");
  const int n = s.size;
  const int r = s.rank;
  const std::size_t m = s.vector_bytes();
  const Slice acc{Buffer::recv, 0, m};
  const Slice incoming = b.scratch(m);
  // This member's partial result: its own vector until the first fold writes acc (no copy).
  Slice partial{Buffer::send, 0, m};
  auto fold = [&](bool incoming_left) {
    b.reduce(incoming, acc, incoming_left, partial);
    partial = acc;
  };

  int p = 1;
  while (p * 2 <= n) p *= 2;
  const int rem = n - p;

  int survivor = -1;
  if (r < 2 * rem) {
    if (r % 2 == 0) {
      b.send(r + 1, partial);
    } else {
      b.recv(r - 1, incoming);
      fold(true);
      survivor = r / 2;
    }
  } else {
    survivor = r - rem;
  }

  if (survivor >= 0) {
    for (int mask = 1; mask < p; mask <<= 1) {
      const int partner = survivor ^ mask;
      const int peer = partner < rem ? partner * 2 + 1 : partner + rem;
      b.send(peer, partial, Copier::exchange);
      b.recv(peer, incoming, Copier::exchange);
      fold(partner < survivor);
    }
    if (!(partial == acc)) b.copy(partial, acc);  // a lone member
  }

  if (r < 2 * rem) {
    b.end_round();
    if (r % 2 == 1) {
      b.send(r - 1, acc);
    } else {
      b.recv(r + 1, acc);
    }
  }
  return b.finish();
}

Cost cost(const Shape& s, const Params&) {
  const std::uint64_t m = u64(s.vector_bytes());
  if (m == 0 || s.size == 1) return {};
  const std::uint64_t levels =
      u64(ceil_log2(s.size + 1) - 1);  // log2 of the largest power of 2 <= n
  if ((1 << levels) == s.size) return {levels, levels * m, levels * m};
  return {levels + 2, (levels + 2) * m, (levels + 1) * m};
}

}  // namespace

const Algorithm combine_recursive_doubling{"recursive_doubling", CollKind::combine, build, cost,
                                           no_params};

}  // namespace ccl::algorithms
