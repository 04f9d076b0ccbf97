// Barrier semantics by partial synchronisation, as the CCL paper builds them: a sync-in tree
// converging on the root before a fan-out collective (bcast, scatter, scatterv: once the root
// has heard from everyone, nobody can receive data before all entered), a sync-out tree from
// the root after a fan-in collective (reduce, gather, gatherv; prefix from the highest rank,
// which finishes last: nobody leaves before the root has everyone's data, so before all
// entered). combine, concat, index, their vector forms and sync imply a barrier already; shift,
// and any call that moves no data (zero bytes; indexv excepted, whose counts only each member
// knows), get both trees: a barrier.
//
// Cost: C1 += ceil(log2 n) zero-byte start-ups per tree, C2 = C3 += 0.
//
//   sync-in to root 0, n = 6 (relative ranks)      sync-out from root 0
//     round 1: 5→4  3→2  1→0                          round 1: 0→4
//     round 2: 4→0  2→0                               round 2: 0→2  4→5
//   each member receives all its children in one       round 3: 0→1  2→3
//   round, then signals its parent                     (each member: its parent, then children)
#include "algorithms/barrier_semantics.hpp"

#include <bit>

#include "calls/call_check.hpp"

namespace ccl::detail {

namespace {

// Binomial tree over relative ranks v = (rank - root) mod n: v's parent clears v's lowest set
// bit; its children are v + 2^j for 2^j below that bit (every 2^j < n for the root).
int lowest_bit_or_size(int v, int n) {
  return v == 0 ? static_cast<int>(std::bit_ceil(unsigned(n))) : v & -v;
}
int world_of(int v, int root, int n) {
  return (v + root) % n;
}

void sync_in(ScheduleBuilder& b, int rank, int root, int n) {
  const int v = (rank - root + n) % n;
  const int low = lowest_bit_or_size(v, n);
  for (int bit = 1; bit < low && v + bit < n; bit <<= 1) b.recv_token(world_of(v + bit, root, n));
  b.end_round();
  if (v != 0) b.send_token(world_of(v - low, root, n));
  b.end_round();
}

void sync_out(ScheduleBuilder& b, int rank, int root, int n) {
  const int v = (rank - root + n) % n;
  const int low = lowest_bit_or_size(v, n);
  if (v != 0) b.recv_token(world_of(v - low, root, n));
  b.end_round();
  for (int bit = low >> 1; bit >= 1; bit >>= 1) {
    if (v + bit < n) b.send_token(world_of(v + bit, root, n));
  }
  b.end_round();
}

// The steps of `s`, round by round, into `b` (scratch offsets kept: b reserved s's scratch).
void replay(ScheduleBuilder& b, const Schedule& s) {
  for (std::size_t r = 0; r < s.rounds(); ++r) {
    const std::span<const Step> steps = s.round(r);
    const std::size_t during_from = steps.size() - s.plans[r].during;
    for (std::size_t i = 0; i < steps.size(); ++i) {
      const Step& st = steps[i];
      if (i >= during_from) {
        b.copy_during(st.src, st.dst);
        continue;
      }
      switch (st.kind) {
        case StepKind::send:
          if (st.extents > 0)
            b.send_gathered(st.peer, st.gathered, s.extents_of(st));
          else if (st.src.bytes == 0)
            b.send_token(st.peer);
          else
            b.send(st.peer, st.src, st.copier);
          break;
        case StepKind::recv:
          if (st.extents > 0)
            b.recv_scattered(st.peer, st.gathered, s.extents_of(st));
          else if (st.dst.bytes == 0)
            b.recv_token(st.peer);
          else
            b.recv(st.peer, st.dst, st.copier);
          break;
        case StepKind::copy:
          b.copy(st.src, st.dst);
          break;
        case StepKind::reduce:
          if (st.base.bytes > 0) {
            b.reduce(st.src, st.dst, st.incoming_left, st.base);
          } else {
            b.reduce(st.src, st.dst, st.incoming_left);
          }
          break;
      }
    }
    b.end_round();
  }
}

enum class Trees { none, in_before, out_after, both };

Trees trees_for(const Shape& shape) {
  if (shape.size <= 1) return Trees::none;
  if (moves_nothing(shape)) return Trees::both;
  switch (shape.kind) {
    case CollKind::bcast:
    case CollKind::scatter:
    case CollKind::scatterv:
      return Trees::in_before;
    case CollKind::reduce:
    case CollKind::gather:
    case CollKind::gatherv:
    case CollKind::prefix:
      return Trees::out_after;
    case CollKind::shift:
      return Trees::both;
    default:
      return Trees::none;
  }
}

}  // namespace

Schedule with_barrier(const Schedule& s, const Shape& shape) {
  const Trees trees = trees_for(shape);
  if (trees == Trees::none) return s;
  const int n = shape.size;
  const int root = shape.kind == CollKind::prefix ? n - 1 : is_rooted(shape.kind) ? shape.root : 0;
  ScheduleBuilder b(s.algorithm);
  if (s.scratch_bytes > 0) b.scratch(s.scratch_bytes);
  if (trees == Trees::in_before || trees == Trees::both) sync_in(b, shape.rank, root, n);
  replay(b, s);
  if (trees == Trees::out_after || trees == Trees::both) sync_out(b, shape.rank, root, n);
  return b.finish();
}

Cost barrier_cost(const Shape& shape) {
  const auto depth = static_cast<std::uint64_t>(std::bit_width(unsigned(shape.size - 1)));
  switch (trees_for(shape)) {
    case Trees::none:
      return {};
    case Trees::both:
      return {2 * depth, 0, 0};
    default:
      return {depth, 0, 0};
  }
}

}  // namespace ccl::detail
