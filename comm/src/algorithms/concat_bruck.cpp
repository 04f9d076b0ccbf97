// Concat (allgather, and concatv) on the circulant graph with offsets 1, 2, 4, ... (Bruck, Ho and
// Kipnis; the CCL paper's optimal concatenation).
//
// Cost for n members, blocks of b bytes, k = ceil(log2 n): C1 = k steps, C2 = (n−1)·b bytes,
// C3 = n·(n−1)·b bytes; no reduce work. Optimal in all three for any n.
//
// Member i keeps blocks i, i+1, ... (mod n) contiguous. In step j it sends the 2^j blocks it has
// to i − 2^j and appends the 2^j blocks of i + 2^j; the last step sends only n − 2^(k−1) blocks.
// A final rotation puts blocks in rank order (member 0 needs none and works in place):
//
//   n = 5, member 0 holds:   [0] ─step0─► [0 1] ─step1─► [0 1 2 3] ─step2 (1 block)─► [0 1 2 3 4]
//
// Block sizes may differ per member (concatv); every member knows all counts.
#include "common.hpp"

namespace ccl::algorithms {

namespace {

Schedule build(const Shape& s, const Params&) {
  ScheduleBuilder b("bruck");
  const int n = s.size;
  const int r = s.rank;
  const BlockLayout abs(s);
  const std::size_t total = abs.total();
  const Slice work = r == 0 ? Slice{Buffer::recv, 0, total} : b.scratch(total);

  // The first step sends the own block straight from the send buffer and copies it into place
  // while that step's transfers are in flight.
  const Slice own{Buffer::send, 0, abs.bytes(r)};
  for (int dist = 1; dist < n; dist <<= 1) {
    const int len = std::min(dist, n - dist);
    b.send(mod(r - dist, n), dist == 1 ? own : work.sub(0, abs.cyclic_bytes(r, len)),
           Copier::exchange);
    b.recv(mod(r + dist, n),
           work.sub(abs.cyclic_bytes(r, dist), abs.cyclic_bytes(mod(r + dist, n), len)),
           Copier::exchange);
    if (dist == 1) b.copy_during(own, work.sub(0, own.bytes));
    b.end_round();
  }
  if (n == 1) b.copy(own, work.sub(0, own.bytes));
  if (r != 0) {
    const std::size_t tail = total - abs.offset(r);  // blocks r .. n−1
    b.copy(work.sub(0, tail), Slice{Buffer::recv, abs.offset(r), tail});
    b.copy(work.sub(tail, abs.offset(r)), Slice{Buffer::recv, 0, abs.offset(r)});
  }
  return b.finish();
}

Cost cost(const Shape& s, const Params&) {
  const int n = s.size;
  const BlockLayout abs(s);
  std::vector<Cost> t(static_cast<std::size_t>(n)), next(t.size());
  for (int dist = 1; dist < n; dist <<= 1) {
    const int len = std::min(dist, n - dist);
    for (int r = 0; r < n; ++r) {
      const std::size_t out = abs.cyclic_bytes(r, len);
      const int from = mod(r + dist, n);
      const std::size_t in = abs.cyclic_bytes(from, len);
      Cost c = maybe_message(t[static_cast<std::size_t>(r)], out);
      if (in > 0) {
        c = longest(c, receive(t[static_cast<std::size_t>(r)],
                               plus_message(t[static_cast<std::size_t>(from)], in), in));
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

const Algorithm concat_bruck{"bruck", CollKind::concat, build, cost, no_params};

}  // namespace ccl::algorithms
