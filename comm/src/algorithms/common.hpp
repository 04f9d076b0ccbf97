// Helpers shared by the algorithm files, and the catalog's entries.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "ccl/algorithm.hpp"
#include "ccl/schedule.hpp"
#include "ccl/shape.hpp"

namespace ccl::algorithms {

inline int lowest_bit(int v) {
  return v & -v;
}
inline int mod(int a, int n) {
  return ((a % n) + n) % n;
}
// Children of relative member v in a binomial tree over n members rooted at 0: v + 1, v + 2,
// v + 4, ... below v's lowest set bit; each covers the next higher block of ranks.
inline std::vector<int> binomial_children(int v, int n) {
  std::vector<int> c;
  for (int j = 1; j < n && !(v & j) && v + j < n; j <<= 1) c.push_back(v + j);
  return c;
}
inline int ceil_log2(int n) {
  int k = 0;
  while ((1 << k) < n) ++k;
  return k;
}
inline std::uint64_t u64(std::size_t v) {
  return static_cast<std::uint64_t>(v);
}

// Byte offsets of blocks in relative order (relative block j is member (j + root) mod n):
// entry j is the size of relative blocks [0, j); n + 1 entries.
inline std::vector<std::size_t> relative_offsets(const BlockLayout& abs, int root, int n) {
  std::vector<std::size_t> rel(static_cast<std::size_t>(n) + 1, 0);
  for (int j = 0; j < n; ++j) {
    rel[static_cast<std::size_t>(j) + 1] =
        rel[static_cast<std::size_t>(j)] + abs.bytes(mod(j + root, n));
  }
  return rel;
}

// Consecutive blocks from member `first` on, `bytes` in all, that run past the last member: in
// rank order they are two pieces of `buf`, [first, n) and then from block 0 on.
struct WrappedPieces {
  Slice head, tail;
};
inline WrappedPieces wrapped_pieces(Buffer buf, const BlockLayout& abs, int first,
                                    std::size_t bytes) {
  const std::size_t head = abs.total() - abs.offset(first);
  return {Slice{buf, abs.offset(first), head}, Slice{buf, 0, bytes - head}};
}

// The single setting of an algorithm without parameters.
inline std::vector<Params> no_params(const Shape&) {
  return {Params{}};
}

// A message leaving after `c`: one more start-up and its bytes.
inline Cost plus_message(Cost c, std::size_t bytes) {
  return c + Cost{1, u64(bytes), 0};
}

// The same, or nothing for an empty message (the builder drops those).
inline Cost maybe_message(const Cost& c, std::size_t bytes) {
  return bytes == 0 ? c : plus_message(c, bytes);
}

// Segment boundaries of a pipelined algorithm: whole elements, at most `segment` bytes each
// (0: the whole vector in one segment).
inline std::vector<std::size_t> segment_bounds(const Shape& s, std::size_t segment) {
  const std::size_t m = s.vector_bytes();
  const std::size_t seg = segment == 0 ? m : std::max(segment / s.elem, std::size_t{1}) * s.elem;
  std::vector<std::size_t> bounds{0};
  while (bounds.back() < m) bounds.push_back(std::min(m, bounds.back() + seg));
  return bounds;
}

// Segment sizes worth trying for a pipeline over m bytes.
inline std::vector<std::size_t> segment_sizes(std::size_t m) {
  std::vector<std::size_t> out;
  for (std::size_t seg : {std::size_t{8} << 10, std::size_t{32} << 10, std::size_t{128} << 10,
                          std::size_t{512} << 10}) {
    if (seg < m && m / seg <= 512) out.push_back(seg);
  }
  return out;
}

// A member's receive port takes messages one at a time, in posting order: a receive of `bytes`
// whose message left with `stamp`, on a port free since `port`, completes at the later of the
// message's arrival and the port taking it in.
inline Cost receive(const Cost& port, const Cost& stamp, std::size_t bytes) {
  return longest(stamp, plus_message(port, bytes));
}

// Index with every block sent directly (pairwise, linear): the k-th transfer goes to i + k and
// comes from i − k, each pair in a round of its own (`round_per_step`) or all in one round; the
// own block is copied last, so that the first transfer need not wait for it. In place (send and
// recv the same memory) outgoing blocks are read from a scratch copy of the send buffer, since
// incoming blocks would overwrite them.
inline Schedule build_index_direct(ScheduleBuilder& b, const Shape& s, bool round_per_step) {
  const int n = s.size, r = s.rank;
  const BlockLayout out(s);       // what this member sends to each member
  const BlockLayout in(s, true);  // what it receives from each member
  Slice src{Buffer::send, 0, out.total()};
  if (s.in_place) {
    const Slice copy = b.scratch(out.total());
    b.copy(src, copy);
    src = copy;
  }
  for (int k = 1; k < n; ++k) {
    const int to = mod(r + k, n), from = mod(r - k, n);
    b.send(to, src.sub(out.offset(to), out.bytes(to)), Copier::exchange);
    b.recv(from, Slice{Buffer::recv, in.offset(from), in.bytes(from)}, Copier::exchange);
    if (round_per_step && k + 1 < n) b.end_round();
  }
  // The own block, while the (last) round's transfers are in flight.
  b.copy_during(src.sub(out.offset(r), out.bytes(r)),
                Slice{Buffer::recv, in.offset(r), in.bytes(r)});
  return b.finish();
}

// Index with every block sent directly (pairwise, linear): C1 = n − 1, C2 = (n − 1)·b; blocks of
// the average size (exact for index; indexv is costed by its own row only).
inline Cost index_direct_cost(const Shape& s) {
  const int n = s.size;
  std::size_t total = 0;
  for (int i = 0; i < n; ++i) total += s.block_bytes(i);
  const std::uint64_t b = u64(total / static_cast<std::size_t>(n));
  if (b == 0 || n == 1) return {};
  return {u64(n - 1), u64(n - 1) * b, 0};
}

extern const Algorithm bcast_binomial;
extern const Algorithm bcast_linear;
extern const Algorithm bcast_scatter_concat;
extern const Algorithm bcast_chain;
extern const Algorithm bcast_intercom;
extern const Algorithm reduce_binomial;
extern const Algorithm reduce_intercom;
extern const Algorithm reduce_segmented_binomial;
extern const Algorithm combine_recursive_doubling;
extern const Algorithm combine_ring;
extern const Algorithm combine_ccl_hybrid;
extern const Algorithm combine_intercom;
extern const Algorithm scatter_binomial;
extern const Algorithm scatter_linear;
extern const Algorithm gather_binomial;
extern const Algorithm gather_linear;
extern const Algorithm concat_bruck;
extern const Algorithm concat_ring;
extern const Algorithm concat_recursive_doubling;
extern const Algorithm concat_linear;
extern const Algorithm index_pairwise;
extern const Algorithm index_bruck;
extern const Algorithm index_linear;
extern const Algorithm prefix_recursive_doubling;
extern const Algorithm prefix_fan_in_out;
extern const Algorithm prefix_chain;
extern const Algorithm shift_direct;
extern const Algorithm sync_dissemination;
extern const Algorithm sync_linear;

}  // namespace ccl::algorithms
