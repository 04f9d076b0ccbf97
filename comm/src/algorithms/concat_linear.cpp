// Concat (and concatv) with every transfer in one round: each member posts its own block to the
// n − 1 others (to i + 1, i + 2, ...) and n − 1 receives straight into place (from i − 1,
// i − 2, ...), and copies its own block while they fly. Nothing waits for a step of the ring to
// end: with more ranks than cores the ring runs at the pace of its worst-placed neighbours (4 ranks
// on 2 cores: 0.8x to 1.3x Open MPI's time from one job to the next), while here each member pulls
// its blocks whenever it runs, over MPI's single-copy path.
//
// Cost for n members, blocks of b bytes (one send port, one receive port): the k-th send leaves
// at (k, k·b) and is member i + k's k-th receive, so both ports finish at
// C1 = n − 1, C2 = (n − 1)·b, C3 = 0 — the ring's counts in one round instead of n − 1.
//
//   n = 4, member 0:  block 0 → 1, 2, 3   blocks ← 3, 2, 1   (all posted together)
#include <algorithm>

#include "team.hpp"

namespace ccl::algorithms {

namespace {

Schedule build(const Shape& s, const Params&) {
  ScheduleBuilder b("linear");
  const BlockLayout blocks(s);
  const int n = s.size, r = s.rank;
  const Slice own{Buffer::send, 0, blocks.bytes(r)};
  for (int k = 1; k < n; ++k) {
    const int from = mod(r - k, n);
    b.send(mod(r + k, n), own, Copier::exchange);
    b.recv(from, Slice{Buffer::recv, blocks.offset(from), blocks.bytes(from)}, Copier::exchange);
  }
  b.copy_during(own, Slice{Buffer::recv, blocks.offset(r), blocks.bytes(r)});
  return b.finish();
}

// Member i's sends of b_i leave one after the other; its receive port takes member i − k's k-th
// send, which left at (k, k·b_{i−k}), as its k-th message (empty blocks send nothing).
// Quadratic in n; with blocks of one size every member's is the same, and above kExactUpTo
// members the one member priced with the largest block everywhere is an upper bound.
Cost cost(const Shape& s, const Params&) {
  const BlockLayout blocks(s);
  const int n = s.size;
  std::size_t largest = 0;
  bool uniform = true;
  for (int r = 0; r < n; ++r) {
    largest = std::max(largest, blocks.bytes(r));
    uniform = uniform && blocks.bytes(r) == blocks.bytes(0);
  }
  const bool one = uniform || n > kExactUpTo;
  auto block = [&](int r) { return one ? largest : blocks.bytes(r); };
  std::vector<Cost> t(static_cast<std::size_t>(n));
  for (int r = 0; r < (one ? 1 : n); ++r) {
    Cost sent, port;
    for (int k = 1; k < n; ++k) {
      sent = maybe_message(sent, block(r));
      const std::size_t in = block(mod(r - k, n));
      if (in == 0) continue;
      port = receive(port, Cost{u64(k), u64(k) * u64(in), 0}, in);
    }
    t[static_cast<std::size_t>(r)] = longest(sent, port);
  }
  return worst(t);
}

std::vector<Params> candidates(const Shape& s) {
  if (s.size < 3) return {};  // on two members it is the ring
  return {Params{}};
}

}  // namespace

const Algorithm concat_linear{"linear", CollKind::concat, build, cost, candidates};

}  // namespace ccl::algorithms
