// Scatter (and scatterv) along a binomial tree rooted at `root`.
//
// Cost for n members, blocks of b bytes: C1 = ceil(log2 n) (the root's sends, one after
// another), C2 = (n−1)·b (all of it leaves the root), C3 = 0; cost() walks the tree, so uneven
// blocks (scatterv) are costed exactly too.
//
// Relative ranks v = (rank − root) mod n; member v owns the blocks of its subtree
// [v, v + min(lowbit(v), n − v)) in relative order. It receives them from its parent in one
// message and passes each child's part on, largest subtree first:
//
//   n = 6:   step 0:  0 ──[4,5]──► 4
//            step 1:  0 ──[2,3]──► 2        4 ──[5]──► 5
//            step 2:  0 ──[1]────► 1        2 ──[3]──► 3
//
// The root sends from its own buffer; only the one child range that wraps past rank n − 1 (when
// root ≠ 0) is copied into scratch to be sent as one message. Large ranges are pulled
// (Copier::receiver): each sender has a copy of its own block to make, and a child reading its
// range straight from the sender's buffer leaves the sender only a handshake (IMB's scatter of
// 2 MiB on 2 ranks: 176 us streamed, 116 pulled).
// Block sizes may differ per member (scatterv): every member knows all counts.
#include <utility>
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
  auto rel_bytes = [&](int first, int len) { return rel[first + len] - rel[first]; };
  const Slice mine{Buffer::recv, 0, abs.bytes(s.rank)};

  const int subtree = v == 0 ? n : std::min(lowest_bit(v), n - v);
  if (v == 0) {
    // The root sends each child's blocks straight from its buffer; only a range that wraps past
    // rank n − 1 is first made contiguous in scratch (at most one child's).
    // Copies are local steps: all of them first, then the sends, largest subtree first.
    std::vector<std::pair<int, Slice>> sends;  // child's first member, what it gets
    for (int mask = 1 << ceil_log2(n); mask >>= 1;) {
      if (mask >= n) continue;
      const int len = std::min(mask, n - mask);
      const int first = mod(mask + s.root, n);
      const std::size_t bytes = rel_bytes(mask, len);
      if (first + len <= n) {
        sends.emplace_back(first, Slice{Buffer::send, abs.offset(first), bytes});
        continue;
      }
      const Slice joined = b.scratch(bytes);
      const auto [head, tail] = wrapped_pieces(Buffer::send, abs, first, bytes);
      b.copy(head, joined.sub(0, head.bytes));
      b.copy(tail, joined.sub(head.bytes, tail.bytes));
      sends.emplace_back(first, joined);
    }
    for (const auto& [to, part] : sends) b.send(to, part, Copier::receiver);
    b.copy_during(Slice{Buffer::send, abs.offset(s.root), abs.bytes(s.root)}, mine);
    return b.finish();
  }
  const int parent = mod(v - lowest_bit(v) + s.root, n);
  if (subtree == 1) {
    b.recv(parent, mine, Copier::receiver);
    return b.finish();
  }
  const Slice held = b.scratch(rel_bytes(v, subtree));  // relative blocks [v, v + subtree)
  b.recv(parent, held, Copier::receiver);
  b.end_round();

  int mask = 1;
  while (mask < subtree) mask <<= 1;
  for (mask >>= 1; mask > 0; mask >>= 1) {
    const int child = v + mask;
    if (child >= n) continue;
    const int len = std::min(mask, n - child);
    b.send(mod(child + s.root, n), held.sub(rel[child] - rel[v], rel_bytes(child, len)),
           Copier::receiver);
  }
  b.copy_during(held.sub(0, abs.bytes(s.rank)), mine);
  return b.finish();
}

Cost cost(const Shape& s, const Params&) {
  const int n = s.size;
  const std::vector<std::size_t> rel = relative_offsets(BlockLayout(s), s.root, n);
  // Relative members in increasing order: a parent is always handled before its children.
  std::vector<Cost> arrival(static_cast<std::size_t>(n));
  Cost worst;
  for (int v = 0; v < n; ++v) {
    const std::size_t held =
        rel[static_cast<std::size_t>(v + (v == 0 ? n : std::min(lowest_bit(v), n - v)))] -
        rel[static_cast<std::size_t>(v)];
    Cost t =
        v == 0 || held == 0 ? Cost{} : receive(Cost{}, arrival[static_cast<std::size_t>(v)], held);
    const int subtree = v == 0 ? n : std::min(lowest_bit(v), n - v);
    int mask = 1;
    while (mask < subtree) mask <<= 1;
    for (mask >>= 1; mask > 0; mask >>= 1) {
      const int child = v + mask;
      if (child >= n) continue;
      const int len = std::min(mask, n - child);
      const std::size_t bytes =
          rel[static_cast<std::size_t>(child + len)] - rel[static_cast<std::size_t>(child)];
      if (bytes == 0) continue;
      t = plus_message(t, bytes);
      arrival[static_cast<std::size_t>(child)] = t;
    }
    worst = longest(worst, t);
  }
  return worst;
}

}  // namespace

const Algorithm scatter_binomial{"binomial", CollKind::scatter, build, cost, no_params};

}  // namespace ccl::algorithms
