// Prefix by the CCL paper's fan-in / fan-out trees (the work-efficient up-sweep / down-sweep
// scan). Numbering members i = rank + 1: the fan-in folds, at distance d = 1, 2, 4, ..., the
// partial of i − d into i for every i divisible by 2d, leaving at i the reduction of the lowbit(i)
// members ending at i; the fan-out then, at d = ..., 4, 2, 1, sends the finished prefix of each i
// divisible by 2d to i + d, which folds it in on the left. Rank order holds throughout:
// incoming partials always cover lower ranks.
//
// Cost for n members and m bytes: C1 ≤ 2·floor(log2 n), C2 = C1·m, C3 ≤ 2·floor(log2 n)·m;
// one message per member per tree level, half the messages of recursive doubling.
//
//   n = 8 (i = 1..8):  fan-in  d=1: 1→2 3→4 5→6 7→8   d=2: 2→4 6→8   d=4: 4→8
//                      fan-out d=2: 4→6               d=1: 2→3 4→5 6→7
#include <vector>

#include "common.hpp"

namespace ccl::algorithms {

namespace {

// The largest power of two d with 2d ≤ n (the top fan-out level), or 0.
int top_level(int n) {
  int d = 0;
  while ((d == 0 ? 2 : 4 * d) <= n) d = d == 0 ? 1 : 2 * d;
  return d;
}

Schedule build(const Shape& s, const Params&) {
  ScheduleBuilder b("fan_in_out");
  const int n = s.size, i = s.rank + 1;
  const std::size_t m = s.vector_bytes();
  const Slice acc{Buffer::recv, 0, m};
  const Slice incoming = b.scratch(m);
  // The member's partial: its own vector, read in place until the first fold writes acc (no
  // copy of send into recv ahead of the transfers; a member that only sends copies at the end).
  Slice partial{Buffer::send, 0, m};
  auto fold = [&](int from) {
    b.recv(from, incoming);
    b.reduce(incoming, acc, true, partial);
    partial = acc;
  };
  for (int d = 1; d < n; d *= 2) {  // fan-in
    if (i % (2 * d) == 0) {
      fold(i - d - 1);
    } else if (i % (2 * d) == d && i + d <= n) {
      b.send(i + d - 1, partial);
    }
  }
  b.end_round();
  for (int d = top_level(n); d >= 1; d /= 2) {  // fan-out
    if (i % (2 * d) == 0 && i + d <= n) {
      b.send(i + d - 1, partial);
    } else if (i % (2 * d) == d && i > 2 * d) {
      fold(i - d - 1);
    }
  }
  if (!(partial == acc)) b.copy_during(partial, acc);
  return b.finish();
}

Cost cost(const Shape& s, const Params&) {
  const int n = s.size;
  const std::size_t m = s.vector_bytes();
  if (m == 0) return {};
  std::vector<Cost> t(static_cast<std::size_t>(n) + 1);  // by i = rank + 1
  // A message from i − d to i: i receives it and folds it in.
  auto pass = [&](int from, int to) {
    const Cost sent = plus_message(t[static_cast<std::size_t>(from)], m);
    t[static_cast<std::size_t>(from)] = sent;
    Cost& c = t[static_cast<std::size_t>(to)];
    c = receive(c, sent, m);
    c.c3 += u64(m);
  };
  for (int d = 1; d < n; d *= 2) {
    for (int i = 2 * d; i <= n; i += 2 * d) pass(i - d, i);
  }
  for (int d = top_level(n); d >= 1; d /= 2) {
    for (int i = 2 * d; i + d <= n; i += 2 * d) pass(i, i + d);
  }
  Cost w;
  for (const Cost& c : t) w = longest(w, c);
  return w;
}

}  // namespace

const Algorithm prefix_fan_in_out{"fan_in_out", CollKind::prefix, build, cost, no_params};

}  // namespace ccl::algorithms
