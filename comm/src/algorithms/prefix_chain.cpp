// Prefix as a pipelined chain: member i receives the prefix of members 0 .. i−1 from i − 1,
// folds it in on the left and passes the result to i + 1, segment by segment, so that for long
// vectors all members work at once. Rank order holds for any associative operator.
// Param: seg (bytes per segment; absent: the whole vector in one piece).
//
// Cost for n members, m bytes in S segments of ≤ seg bytes: C1 = n − 1 + S − 1,
// C2 = (n − 1 + S − 1)·seg, C3 ≈ (n − 1 + S − 2)·seg (for equal segments): about m·(β + γ) for
// long vectors, however many members. Calls in a row overlap (data flows one way): selection
// weighs the chain by a member's own work per call, S start-ups, m bytes sent, m folded.
//
//   n = 3, S = 2:  step 1: 0─s0─►1   step 2: 0─s1─►1─s0─►2   step 3: 1─s1─►2   (each fold first)
#include <algorithm>
#include <vector>

#include "team.hpp"

namespace ccl::algorithms {

namespace {

Schedule build(const Shape& s, const Params& p) {
  ScheduleBuilder b("chain");
  const int n = s.size, r = s.rank;
  const std::size_t m = s.vector_bytes();
  const std::vector<std::size_t> bounds = segment_bounds(s, p.segment);
  const int S = static_cast<int>(bounds.size()) - 1;
  auto seg = [&](Buffer buf, int j) {
    return Slice{buf, bounds[static_cast<std::size_t>(j)],
                 bounds[static_cast<std::size_t>(j) + 1] - bounds[static_cast<std::size_t>(j)]};
  };
  const Slice incoming = b.scratch(m);
  if (r == 0) {
    for (int j = 0; j < S && n > 1; ++j) {
      b.send(1, seg(Buffer::send, j));
      b.end_round();
    }
    b.copy(Slice{Buffer::send, 0, m}, Slice{Buffer::recv, 0, m});
    return b.finish();
  }
  for (int j = 0; j <= S; ++j) {
    if (j >= 1) {
      const Slice done = seg(Buffer::recv, j - 1);
      b.reduce(incoming.sub(done.offset, done.bytes), done, true, seg(Buffer::send, j - 1));
      if (r < n - 1) b.send(r + 1, done);
    }
    if (j < S) {
      const Slice next = seg(Buffer::recv, j);
      b.recv(r - 1, incoming.sub(next.offset, next.bytes));
    }
    b.end_round();
  }
  return b.finish();
}

Cost cost(const Shape& s, const Params& p) {
  return cost_chain(s.size, segment_bounds(s, p.segment), true);
}

// Back to back, a middle member's own work per call: send every segment, fold every segment
// (its receives overlap on the other port).
Cost stream(const Shape& s, const Params& p) {
  const std::size_t m = s.vector_bytes();
  if (s.size < 2 || m == 0) return {};
  const std::uint64_t segments = segment_bounds(s, p.segment).size() - 1;
  return {segments, u64(m), u64(m)};
}

std::vector<Params> candidates(const Shape& s) {
  std::vector<Params> out;
  if (s.size < 2) return out;
  out.push_back(Params{});
  for (std::size_t seg : segment_sizes(s.vector_bytes())) out.push_back(Params{0, seg, {}, ""});
  return out;
}

}  // namespace

const Algorithm prefix_chain{"chain", CollKind::prefix, build, cost, candidates, stream};

}  // namespace ccl::algorithms
