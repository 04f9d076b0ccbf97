// Pipelined chain broadcast: the vector is cut into segments that flow down the chain
// root → root+1 → ... ; in each step a member receives segment j and passes segment j − 1 on.
//
// Cost for n members, m bytes in S segments of ≤ seg bytes: C1 = n − 1 + S − 1,
// C2 = (n − 1 + S − 1)·seg (for equal segments), C3 = 0: for long vectors the time approaches
// m·β whatever n is. Parameter: seg (bytes per segment).
//
//   n = 4, S = 3:  step 1: 0─s0─►1   step 2: 0─s1─►1─s0─►2   step 3: 0─s2─►1─s1─►2─s0─►3
//                  step 4: 1─s2─►2─s1─►3                    step 5: 2─s2─►3
#include <algorithm>
#include <vector>

#include "team.hpp"

namespace ccl::algorithms {

namespace {

Schedule build(const Shape& s, const Params& p) {
  ScheduleBuilder b("chain");
  const int n = s.size, v = mod(s.rank - s.root, n);
  const std::vector<std::size_t> bounds = segment_bounds(s, p.segment);
  const int S = static_cast<int>(bounds.size()) - 1;
  auto seg = [&](int j) {
    return Slice{Buffer::recv, bounds[static_cast<std::size_t>(j)],
                 bounds[static_cast<std::size_t>(j) + 1] - bounds[static_cast<std::size_t>(j)]};
  };
  const int next = mod(v + 1 + s.root, n), prev = mod(v - 1 + s.root, n);
  if (n == 1) return b.finish();
  if (v == 0) {
    for (int j = 0; j < S; ++j) {
      b.send(next, seg(j));
      b.end_round();
    }
    return b.finish();
  }
  for (int j = 0; j <= S; ++j) {
    if (j < S) b.recv(prev, seg(j));
    if (j >= 1 && v < n - 1) b.send(next, seg(j - 1));
    b.end_round();
  }
  return b.finish();
}

Cost cost(const Shape& s, const Params& p) {
  return cost_chain(s.size, segment_bounds(s, p.segment), false);
}

std::vector<Params> candidates(const Shape& s) {
  std::vector<Params> out;
  if (s.size < 2) return out;
  for (std::size_t seg : segment_sizes(s.vector_bytes())) out.push_back(Params{0, seg, {}, ""});
  return out;
}

}  // namespace

const Algorithm bcast_chain{"chain", CollKind::bcast, build, cost, candidates};

}  // namespace ccl::algorithms
