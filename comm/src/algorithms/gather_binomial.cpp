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
// The root receives straight into its recv buffer; only the one child range that wraps past rank
// n − 1 (when root ≠ 0) goes through scratch. A member receives from several children at once, so
// large blocks are pushed (Copier::sender): each child writes into its parent's buffer, in
// parallel, instead of the parent copying them all in turn (256 KiB on 2 ranks: 175 -> 80 us).
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
    b.send(mod(v - lowest_bit(v) + s.root, n), mine, Copier::sender);
    return b.finish();
  }

  if (v == 0) {
    // The root receives each child's blocks straight into place; only a range that wraps past
    // rank n − 1 (at most one child's) lands in scratch and is split afterwards.
    struct Wrapped {
      Slice joined;
      int first;
    };
    std::vector<Wrapped> wrapped;
    for (int mask = 1; mask < n; mask <<= 1) {
      const int len = std::min(mask, n - mask);
      const int first = mod(mask + s.root, n);
      const std::size_t bytes = rel[mask + len] - rel[mask];
      if (first + len <= n) {
        b.recv(first, Slice{Buffer::recv, abs.offset(first), bytes}, Copier::sender);
      } else {
        wrapped.push_back(Wrapped{b.scratch(bytes), first});
        b.recv(first, wrapped.back().joined, Copier::sender);
      }
    }
    b.copy_during(mine, Slice{Buffer::recv, abs.offset(s.root), mine.bytes});
    b.end_round();
    for (const Wrapped& w : wrapped) {
      const auto [head, tail] = wrapped_pieces(Buffer::recv, abs, w.first, w.joined.bytes);
      b.copy(w.joined.sub(0, head.bytes), head);
      b.copy(w.joined.sub(head.bytes, tail.bytes), tail);
    }
    return b.finish();
  }

  const std::size_t held_bytes = rel[v + subtree] - rel[v];
  const Slice held = b.scratch(held_bytes);
  for (int mask = 1; mask < subtree; mask <<= 1) {
    const int child = v + mask;
    if (child >= n) break;
    const int len = std::min(mask, n - child);
    b.recv(mod(child + s.root, n), held.sub(rel[child] - rel[v], rel[child + len] - rel[child]),
           Copier::sender);
  }
  b.copy_during(mine, held.sub(0, mine.bytes));
  b.end_round();
  b.send(mod(v - lowest_bit(v) + s.root, n), held, Copier::sender);
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
      const std::size_t in =
          rel[static_cast<std::size_t>(v + mask + len)] - rel[static_cast<std::size_t>(v + mask)];
      if (in > 0) t = receive(t, sent[static_cast<std::size_t>(v + mask)], in);
    }
    const std::size_t bytes =
        rel[static_cast<std::size_t>(v + subtree)] - rel[static_cast<std::size_t>(v)];
    if (v != 0 && bytes > 0) t = plus_message(t, bytes);
    sent[static_cast<std::size_t>(v)] = t;
    worst = longest(worst, t);
  }
  return worst;
}

}  // namespace

const Algorithm gather_binomial{"binomial", CollKind::gather, build, cost, no_params};

}  // namespace ccl::algorithms
