// Gather (and gatherv) along a binomial tree rooted at `root`: scatter run backwards.
//
// Cost for n members, blocks of b bytes: messages from children arrive in parallel, so the
// critical path is the deepest chain: C1 = max popcount(v) over v < n (= ceil(log2 n) for
// n = 2^k), C2 = the bytes along that chain, C3 = 0; cost() walks the tree.
//
// Member v collects the blocks of its subtree [v, v + min(lowbit(v), n − v)) in relative order:
// its own block, then one message from each child v + 1, v + 2, v + 4, ... (posted together),
// and sends them to its parent in one message:
//
//   n = 6:   1 ──[1]──► 0     3 ──[3]──► 2     5 ──[5]──► 4
//            2 ──[2,3]──► 0                    4 ──[4,5]──► 0
//
// With root 0 the root receives straight into its recv buffer; otherwise it rotates the relative
// order into rank order at the end (one copy of n·b bytes).
#include <vector>

#include "common.hpp"

namespace ccl::algorithms {

namespace {

Schedule build(const Shape& s, const Params&) {
  ScheduleBuilder b("binomial");
  const int n = s.size;
  const int v = mod(s.rank - s.root, n);
  const BlockLayout abs(s);
  const std::vector<std::size_t> rel = relative_offsets(abs, s.root, n);
  const Slice mine{Buffer::send, 0, abs.bytes(s.rank)};

  const int subtree = v == 0 ? n : std::min(lowest_bit(v), n - v);
  if (subtree == 1 && v != 0) {
    b.send(mod(v - lowest_bit(v) + s.root, n), mine);
    return b.finish();
  }

  const std::size_t held_bytes = rel[v + subtree] - rel[v];
  const Slice held = (v == 0 && s.root == 0) ? Slice{Buffer::recv, 0, held_bytes}
                                             : b.scratch(held_bytes);
  b.copy(mine, held.sub(0, mine.bytes));
  for (int mask = 1; mask < subtree; mask <<= 1) {
    const int child = v + mask;
    if (child >= n) break;
    const int len = std::min(mask, n - child);
    b.recv(mod(child + s.root, n), held.sub(rel[child] - rel[v], rel[child + len] - rel[child]));
  }
  b.end_round();
  if (v != 0) {
    b.send(mod(v - lowest_bit(v) + s.root, n), held);
  } else if (s.root != 0) {
    // Relative [0, n − root) are ranks [root, n); relative [n − root, n) are ranks [0, root).
    const std::size_t tail = abs.total() - abs.offset(s.root);
    b.copy(held.sub(0, tail), Slice{Buffer::recv, abs.offset(s.root), tail});
    b.copy(held.sub(tail, abs.offset(s.root)), Slice{Buffer::recv, 0, abs.offset(s.root)});
  }
  return b.finish();
}

Cost cost(const Shape& s, const Params&) {
  const int n = s.size;
  const std::vector<std::size_t> rel = relative_offsets(BlockLayout(s), s.root, n);
  // Relative members in decreasing order: children are handled before their parent.
  std::vector<Cost> sent(static_cast<std::size_t>(n));
  Cost worst;
  for (int v = n - 1; v >= 0; --v) {
    const int subtree = v == 0 ? n : std::min(lowest_bit(v), n - v);
    Cost t;  // the receive port, taking the children's messages in turn
    for (int mask = 1; mask < subtree && v + mask < n; mask <<= 1) {
      const int len = std::min(mask, n - v - mask);
      const std::size_t in = rel[static_cast<std::size_t>(v + mask + len)] - rel[static_cast<std::size_t>(v + mask)];
      if (in > 0) t = receive(t, sent[static_cast<std::size_t>(v + mask)], in);
    }
    const std::size_t bytes = rel[static_cast<std::size_t>(v + subtree)] - rel[static_cast<std::size_t>(v)];
    if (v != 0 && bytes > 0) t = plus_message(t, bytes);
    sent[static_cast<std::size_t>(v)] = t;
    worst = longest(worst, t);
  }
  return worst;
}

}  // namespace

const Algorithm gather_binomial{"binomial", CollKind::gather, build, cost, no_params};

}  // namespace ccl::algorithms
