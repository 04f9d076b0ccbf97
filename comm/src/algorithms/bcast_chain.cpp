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

// Segment boundaries (whole elements).
std::vector<std::size_t> segments(const Shape& s, const Params& p) {
  const std::size_t m = s.vector_bytes();
  const std::size_t seg = p.segment == 0 ? m : std::max(p.segment / s.elem, std::size_t{1}) * s.elem;
  std::vector<std::size_t> bounds{0};
  while (bounds.back() < m) bounds.push_back(std::min(m, bounds.back() + seg));
  return bounds;
}

Schedule build(const Shape& s, const Params& p) {
  ScheduleBuilder b("chain");
  const int n = s.size, v = mod(s.rank - s.root, n);
  const std::vector<std::size_t> bounds = segments(s, p);
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
  const int n = s.size;
  const std::vector<std::size_t> bounds = segments(s, p);
  const int S = static_cast<int>(bounds.size()) - 1;
  if (n == 1 || S == 0) return {};
  auto bytes = [&](int j) { return bounds[static_cast<std::size_t>(j) + 1] - bounds[static_cast<std::size_t>(j)]; };
  // clock[v][r + 1]: member v after its round r; sent[v][j]: stamp of segment j leaving v.
  std::vector<std::vector<Cost>> sent(static_cast<std::size_t>(n), std::vector<Cost>(static_cast<std::size_t>(S)));
  Cost w;
  Cost t;
  for (int j = 0; j < S; ++j) {
    t = plus_message(t, bytes(j));
    sent[0][static_cast<std::size_t>(j)] = t;
  }
  w = t;
  for (int v = 1; v < n; ++v) {
    Cost c;
    for (int j = 0; j <= S; ++j) {
      Cost after = c;
      if (j >= 1 && v < n - 1) {
        after = plus_message(c, bytes(j - 1));
        sent[static_cast<std::size_t>(v)][static_cast<std::size_t>(j - 1)] = after;
      }
      if (j < S) after = longest(after, receive(c, sent[static_cast<std::size_t>(v - 1)][static_cast<std::size_t>(j)], bytes(j)));
      c = after;
    }
    w = longest(w, c);
  }
  return w;
}

std::vector<Params> candidates(const Shape& s) {
  std::vector<Params> out;
  if (s.size < 2) return out;
  for (std::size_t seg : {std::size_t{8} << 10, std::size_t{32} << 10, std::size_t{128} << 10,
                          std::size_t{512} << 10}) {
    if (seg < s.vector_bytes() && s.vector_bytes() / seg <= 512) {
      Params p;
      p.segment = seg;
      out.push_back(p);
    }
  }
  return out;
}

}  // namespace

const Algorithm bcast_chain{"chain", CollKind::bcast, build, cost, candidates};

}  // namespace ccl::algorithms
