// Reduce along a binomial tree: the broadcast tree run backwards.
//
// Cost for n members and m bytes: computed by walking the tree (cost() below): a member's
// result leaves at the latest of its children's arrivals, each followed by folding it in; for
// n = 2^k it is C1 = k, C2 = k·m, C3 = k·m. Not commutative and root ≠ 0: one more hop.
//
// Member v receives the partial results of its children v + 1, v + 2, v + 4, ... one per step,
// folding each in as the next arrives — each child covers the next higher block of ranks — and
// sends the result to v − lowbit(v):
//
//   n = 6:   1 ──► 0     3 ──► 2     5 ──► 4        (leaves)
//            2 ──► 0                                  (after folding 3)
//            4 ──► 0                                  (after folding 5)
//
// Rank order is kept by folding in ascending rank: with a commutative operator the tree is
// rotated to the root; otherwise it is rooted at rank 0, which forwards the result to the root.
#include <vector>

#include "common.hpp"

namespace ccl::algorithms {

namespace {

Schedule build(const Shape& s, const Params&) {
  ScheduleBuilder b("binomial");
  const int n = s.size;
  const std::size_t m = s.vector_bytes();
  const bool rotate = s.commutative || s.root == 0;
  const int tree_root = rotate ? s.root : 0;
  const int v = mod(s.rank - tree_root, n);
  const bool result_here = s.rank == s.root;
  const Slice send{Buffer::send, 0, m};
  const std::vector<int> kids = binomial_children(v, n);

  if (kids.empty() && v != 0) {  // a leaf sends its own vector
    b.send(mod(v - lowest_bit(v) + tree_root, n), send);
  } else {
    const Slice acc = (v == 0 && result_here) ? Slice{Buffer::recv, 0, m} : b.scratch(m);
    // The first child's vector lands in the accumulator itself and is folded there, unless the
    // accumulator is the member's own vector (in place): one scratch vector fewer to touch.
    const bool first_into_acc = !(s.in_place && acc.buffer == Buffer::recv);
    const bool needs_incoming = kids.size() > (first_into_acc ? 1u : 0u);
    const Slice incoming = needs_incoming ? b.scratch(m) : Slice{};
    Slice partial = send;  // the first fold reads the member's own vector in place
    for (int child : kids) {
      const Slice into = partial == send && first_into_acc ? acc : incoming;
      b.recv(mod(child + tree_root, n), into);
      b.reduce(into, acc, false, partial);  // next round, before the next child's receive
      partial = acc;
    }
    if (kids.empty()) b.copy(send, acc);  // a lone member
    if (v != 0) {
      b.send(mod(v - lowest_bit(v) + tree_root, n), acc);
    } else if (!result_here) {
      b.send(s.root, acc);  // rank 0 forwards the ordered result
    }
  }
  if (result_here && v != 0) {
    b.end_round();
    b.recv(0, Slice{Buffer::recv, 0, m});
  }
  return b.finish();
}

Cost cost(const Shape& s, const Params&) {
  const int n = s.size;
  const std::size_t m = s.vector_bytes();
  if (m == 0) return {};
  std::vector<Cost> sent(static_cast<std::size_t>(n));  // stamp of v's message to its parent
  Cost worst;
  for (int v = n - 1; v >= 0; --v) {
    Cost t;
    const std::vector<int> kids = binomial_children(v, n);
    for (std::size_t i = 0; i < kids.size(); ++i) {
      if (i > 0) t.c3 += u64(m);  // folding the previous child
      t = receive(t, sent[static_cast<std::size_t>(kids[i])], m);
    }
    if (!kids.empty()) t.c3 += u64(m);
    const bool forwards = v == 0 && !(s.commutative || s.root == 0) && n > 1;
    if (v != 0 || forwards) t = plus_message(t, m);
    sent[static_cast<std::size_t>(v)] = t;
    worst = longest(worst, t);
  }
  return worst;
}

}  // namespace

const Algorithm reduce_binomial{"binomial", CollKind::reduce, build, cost, no_params};

}  // namespace ccl::algorithms
