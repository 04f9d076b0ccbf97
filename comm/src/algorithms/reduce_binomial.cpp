// Reduce along a binomial tree: the broadcast tree run backwards.
//
// Cost for n members and m bytes: C1 = ceil(log2 n) steps (one more when the operator is not
// commutative and root ≠ 0), C2 = ceil(log2 n)·m, C3 = (n−1)·m bytes moved and (n−1)·m bytes
// reduced in all, at most ceil(log2 n)·m on one member.
//
// Member v receives the partial results of its children v + 1, v + 2, v + 4, ... (all posted at
// once), folds them in that order — each child covers the next higher block of ranks — and sends
// the result to v − lowbit(v):
//
//   n = 6:   1 ──► 0     3 ──► 2     5 ──► 4        (leaves)
//            2 ──► 0                                  (after folding 3)
//            4 ──► 0                                  (after folding 5)
//
// Rank order is kept by folding in ascending rank: with a commutative operator the tree is
// rotated to the root; otherwise it is rooted at rank 0, which forwards the result to the root.
#include "builders.hpp"

namespace ccl::algorithms {

Schedule reduce_binomial(const Shape& s) {
  ScheduleBuilder b("binomial");
  const int n = s.size;
  const std::size_t m = s.vector_bytes();
  const bool rotate = s.commutative || s.root == 0;
  const int tree_root = rotate ? s.root : 0;
  const int v = mod(s.rank - tree_root, n);
  const bool result_here = s.rank == s.root;
  const Slice send{Buffer::send, 0, m};

  int children = 0;
  while ((1 << children) < n && !(v & (1 << children)) && v + (1 << children) < n) ++children;

  if (children == 0 && v != 0) {  // a leaf sends its own vector
    b.send(mod(v - lowest_bit(v) + tree_root, n), send);
  } else {
    const Slice acc = (v == 0 && result_here) ? Slice{Buffer::recv, 0, m} : b.scratch(m);
    const Slice incoming = b.scratch(m * static_cast<std::size_t>(children));
    b.copy(send, acc);
    for (int j = 0; j < children; ++j) {
      b.recv(mod(v + (1 << j) + tree_root, n), incoming.sub(static_cast<std::size_t>(j) * m, m));
    }
    for (int j = 0; j < children; ++j) {
      b.reduce(incoming.sub(static_cast<std::size_t>(j) * m, m), acc, false);
    }
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

}  // namespace ccl::algorithms
