// Reduce along a binomial tree, segmented and pipelined: the vector is cut into S segments and
// every member works on one segment per round — it folds its children's parts of segment t − 1
// into its own and passes the result up while the children's parts of segment t arrive. Long
// vectors thus move through the tree at once instead of level by level, and a member's scratch
// is one segment per child: folding reads data still in cache.
//
// Cost for n = 2^k members, m bytes in S equal segments of s bytes: the root takes k messages of
// s bytes per segment, so C1 ≈ k·S + k − 1, C2 ≈ (k·S + k − 1)·s, C3 ≈ k·m; the exact counts for
// any n (with uneven segments, and leaves sending all their segments in one round) come from
// walking the rounds (cost() below).
//
// Member v's children are v + 1, v + 2, v + 4, ... (below v's lowest set bit), its parent
// v − lowbit(v); round t of an inner member:
//
//   fold children's segment t − 1 into its own (ascending rank) ─► send it to the parent
//   post receives of segment t from every child
//
//   n = 4, S = 2:  round 0: 1 ──s0──► 0, 3 ──s0,s1──► 2, 2 (receiving)
//                  round 1: 2 folds s0, 2 ──s0──► 0 (folds s0 of 1 too), 1 ──s1──► 0
//                  round 2: 2 ──s1──► 0 ... 0 folds s1
//
// Rank order is kept (each child covers the next higher ranks); with a non-commutative operator
// it is offered only for root 0, where the tree cannot be rotated without reordering.
#include <vector>

#include "common.hpp"

namespace ccl::algorithms {

namespace {

bool applies(const Shape& s) {
  return s.size > 1 && (s.commutative || s.root == 0);
}

Schedule build(const Shape& s, const Params& p) {
  ScheduleBuilder b("segmented_binomial");
  const int n = s.size, v = mod(s.rank - s.root, n);
  const std::vector<std::size_t> bounds = segment_bounds(s, p.segment);
  const int S = static_cast<int>(bounds.size()) - 1;
  auto segment = [&](Buffer buffer, int j) {
    const auto u = static_cast<std::size_t>(j);
    return Slice{buffer, bounds[u], bounds[u + 1] - bounds[u]};
  };
  const std::vector<int> kids = binomial_children(v, n);
  const int parent = mod(v - lowest_bit(v) + s.root, n);
  if (kids.empty()) {  // a leaf (n > 1): its own segments, all posted at once
    for (int j = 0; j < S; ++j) b.send(parent, segment(Buffer::send, j));
    return b.finish();
  }
  const std::size_t longest_segment = bounds.size() > 1 ? bounds[1] - bounds[0] : 0;
  // The root's first child's segments land in the result itself, which is then folded in place:
  // two streams of memory instead of three, the one written still in cache (not in place: the
  // root's own segment is there).
  const bool first_into_acc = v == 0 && !s.in_place;
  std::vector<Slice> slots;
  for (std::size_t i = first_into_acc ? 1 : 0; i < kids.size(); ++i) {
    slots.push_back(b.scratch(longest_segment));
  }
  const Slice partial_scratch = v == 0 ? Slice{} : b.scratch(longest_segment);
  auto slot_of = [&](std::size_t child, int t) {
    const Slice own = segment(Buffer::send, t);
    if (!first_into_acc) return slots[child].sub(0, own.bytes);
    return child == 0 ? segment(Buffer::recv, t) : slots[child - 1].sub(0, own.bytes);
  };
  for (int t = 0; t <= S; ++t) {
    if (t >= 1) {
      const std::size_t len = segment(Buffer::send, t - 1).bytes;
      const Slice acc = v == 0 ? segment(Buffer::recv, t - 1) : partial_scratch.sub(0, len);
      Slice partial =
          segment(Buffer::send, t - 1);  // the first fold reads the own segment in place
      for (std::size_t i = 0; i < kids.size(); ++i) {
        b.reduce(slot_of(i, t - 1), acc, false, partial);
        partial = acc;
      }
      if (v != 0) b.send(parent, acc);
    }
    if (t < S) {
      for (std::size_t i = 0; i < kids.size(); ++i) b.recv(mod(kids[i] + s.root, n), slot_of(i, t));
    }
    b.end_round();
  }
  return b.finish();
}

// Walks every member's rounds, children before parents (they have higher relative numbers).
Cost cost(const Shape& s, const Params& p) {
  const int n = s.size;
  if (s.vector_bytes() == 0 || n == 1) return {};
  const std::vector<std::size_t> bounds = segment_bounds(s, p.segment);
  const int S = static_cast<int>(bounds.size()) - 1;
  auto bytes = [&](int j) {
    return bounds[static_cast<std::size_t>(j) + 1] - bounds[static_cast<std::size_t>(j)];
  };
  // sent[v][j]: the stamp of segment j leaving member v.
  std::vector<std::vector<Cost>> sent(static_cast<std::size_t>(n),
                                      std::vector<Cost>(static_cast<std::size_t>(S)));
  Cost worst;
  for (int v = n - 1; v >= 0; --v) {
    std::vector<Cost>& mine = sent[static_cast<std::size_t>(v)];
    const std::vector<int> kids = binomial_children(v, n);
    Cost clock;
    if (kids.empty()) {
      for (int j = 0; j < S; ++j)
        mine[static_cast<std::size_t>(j)] = clock = plus_message(clock, bytes(j));
    }
    for (int t = 0; t <= S && !kids.empty(); ++t) {
      Cost local = clock;
      if (t >= 1) local.c3 += u64(kids.size() * bytes(t - 1));
      Cost after = local;
      if (t >= 1 && v != 0)
        mine[static_cast<std::size_t>(t - 1)] = after = plus_message(local, bytes(t - 1));
      Cost port = local;
      for (int child : kids) {
        if (t < S)
          port = receive(port, sent[static_cast<std::size_t>(child)][static_cast<std::size_t>(t)],
                         bytes(t));
      }
      clock = longest(after, port);
    }
    worst = longest(worst, clock);
  }
  return worst;
}

std::vector<Params> candidates(const Shape& s) {
  std::vector<Params> out;
  if (!applies(s)) return out;
  for (std::size_t seg : segment_sizes(s.vector_bytes())) out.push_back(Params{0, seg, {}, ""});
  return out;
}

}  // namespace

const Algorithm reduce_segmented_binomial{"segmented_binomial", CollKind::reduce, build, cost,
                                          candidates};

}  // namespace ccl::algorithms
