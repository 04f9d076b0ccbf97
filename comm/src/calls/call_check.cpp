#include "calls/call_check.hpp"

#include <numeric>

#include "ccl/algorithm.hpp"
#include "ccl/mode.hpp"

namespace ccl::detail {

namespace {

std::size_t total(const std::vector<std::size_t>& v) {
  return std::accumulate(v.begin(), v.end(), std::size_t{0});
}

bool overlap(const std::byte* a, std::size_t an, const std::byte* b, std::size_t bn) {
  return an > 0 && bn > 0 && a < b + bn && b < a + an;
}

Problem length(ProblemCode code, std::size_t got, std::size_t expected) {
  return Problem{code, static_cast<std::int64_t>(got), static_cast<std::int64_t>(expected)};
}

// Send and recv may be exactly one buffer (in place) or `send` may be the member's own block
// at `own_offset` elements inside recv (or recv inside send when small_is_recv); else disjoint.
std::optional<Problem> check_alias(const Call& c, bool same_allowed, std::optional<std::size_t> own,
                                   bool small_is_recv, bool& in_place) {
  const std::size_t sb = c.send_elems * c.elem, rb = c.recv_elems * c.elem;
  if (!overlap(c.send, sb, c.recv, rb)) return std::nullopt;
  if (same_allowed && c.send == c.recv && sb == rb) {
    in_place = true;
    return std::nullopt;
  }
  if (own) {
    const std::size_t off = *own * c.elem;
    if (!small_is_recv && c.send == c.recv + off) return std::nullopt;
    if (small_is_recv && c.recv == c.send + off) return std::nullopt;
  }
  return Problem{ProblemCode::aliasing, 0, 0};
}

}  // namespace

std::string describe(const Problem& p) {
  const std::string got = std::to_string(p.got), want = std::to_string(p.expected);
  switch (p.code) {
    case ProblemCode::none:
      return "no problem";
    case ProblemCode::bad_root:
      return "root " + got + " is not a member (group size " + want + ")";
    case ProblemCode::counts_length:
      return "counts list has " + got + " entries, needs " + want;
    case ProblemCode::recv_counts_length:
      return "recv counts list has " + got + " entries, needs " + want;
    case ProblemCode::send_length:
      return "send buffer holds " + got + " elements, needs " + want;
    case ProblemCode::recv_length:
      return "recv buffer holds " + got + " elements, needs " + want;
    case ProblemCode::own_count:
      return "send buffer holds " + got + " elements but its count says " + want;
    case ProblemCode::aliasing:
      return "send and recv buffers overlap in a way the collective does not allow";
    case ProblemCode::no_operator:
      return "no reduce operator";
    case ProblemCode::indivisible:
      return "buffer of " + got + " elements does not split into " + want + " equal blocks";
  }
  return "unknown problem";
}

std::optional<Problem> check_call(const Call& c, int size, int rank, bool& in_place) {
  const std::size_t n = static_cast<std::size_t>(size);
  const bool root_here = c.root == rank;
  in_place = false;
  if (is_rooted(c.kind) && (c.root < 0 || c.root >= size)) {
    return Problem{ProblemCode::bad_root, c.root, size};
  }
  if (is_reduction(c.kind) && !c.kernel) return Problem{ProblemCode::no_operator, 0, 0};
  if (is_vector_form(c.kind) && c.counts.size() != n) {
    return length(ProblemCode::counts_length, c.counts.size(), n);
  }
  if (c.kind == CollKind::indexv && c.recv_counts.size() != n) {
    return length(ProblemCode::recv_counts_length, c.recv_counts.size(), n);
  }
  const std::size_t own = static_cast<std::size_t>(rank);
  switch (c.kind) {
    case CollKind::bcast:
    case CollKind::sync:
      return std::nullopt;
    case CollKind::reduce:
      if (!root_here) return std::nullopt;
      if (c.recv_elems != c.send_elems)
        return length(ProblemCode::recv_length, c.recv_elems, c.send_elems);
      return check_alias(c, true, std::nullopt, false, in_place);
    case CollKind::combine:
    case CollKind::prefix:
    case CollKind::shift:
      if (c.recv_elems != c.send_elems)
        return length(ProblemCode::recv_length, c.recv_elems, c.send_elems);
      return check_alias(c, true, std::nullopt, false, in_place);
    case CollKind::scatter:
      if (!root_here) return std::nullopt;
      if (c.send_elems != n * c.recv_elems)
        return length(ProblemCode::send_length, c.send_elems, n * c.recv_elems);
      return check_alias(c, false, own * c.recv_elems, true, in_place);
    case CollKind::gather:
      if (!root_here) return std::nullopt;
      if (c.recv_elems != n * c.send_elems)
        return length(ProblemCode::recv_length, c.recv_elems, n * c.send_elems);
      return check_alias(c, false, own * c.send_elems, false, in_place);
    case CollKind::concat:
      if (c.recv_elems != n * c.send_elems)
        return length(ProblemCode::recv_length, c.recv_elems, n * c.send_elems);
      return check_alias(c, false, own * c.send_elems, false, in_place);
    case CollKind::index:
      if (c.recv_elems != c.send_elems)
        return length(ProblemCode::recv_length, c.recv_elems, c.send_elems);
      if (c.send_elems % n != 0) return length(ProblemCode::indivisible, c.send_elems, n);
      return check_alias(c, true, std::nullopt, false, in_place);
    case CollKind::concatv: {
      const std::size_t before =
          std::accumulate(c.counts.begin(), c.counts.begin() + rank, std::size_t{0});
      if (c.send_elems != c.counts[own])
        return length(ProblemCode::own_count, c.send_elems, c.counts[own]);
      if (c.recv_elems != total(c.counts))
        return length(ProblemCode::recv_length, c.recv_elems, total(c.counts));
      return check_alias(c, false, before, false, in_place);
    }
    case CollKind::gatherv: {
      if (c.send_elems != c.counts[own])
        return length(ProblemCode::own_count, c.send_elems, c.counts[own]);
      if (!root_here) return std::nullopt;
      if (c.recv_elems != total(c.counts))
        return length(ProblemCode::recv_length, c.recv_elems, total(c.counts));
      const std::size_t before =
          std::accumulate(c.counts.begin(), c.counts.begin() + rank, std::size_t{0});
      return check_alias(c, false, before, false, in_place);
    }
    case CollKind::scatterv: {
      if (c.recv_elems != c.counts[own])
        return length(ProblemCode::recv_length, c.recv_elems, c.counts[own]);
      if (!root_here) return std::nullopt;
      if (c.send_elems != total(c.counts))
        return length(ProblemCode::send_length, c.send_elems, total(c.counts));
      const std::size_t before =
          std::accumulate(c.counts.begin(), c.counts.begin() + rank, std::size_t{0});
      return check_alias(c, false, before, true, in_place);
    }
    case CollKind::indexv:
      if (c.send_elems != total(c.counts))
        return length(ProblemCode::send_length, c.send_elems, total(c.counts));
      if (c.recv_elems != total(c.recv_counts))
        return length(ProblemCode::recv_length, c.recv_elems, total(c.recv_counts));
      return check_alias(c, c.counts == c.recv_counts, std::nullopt, false, in_place);
  }
  return std::nullopt;
}

Shape shape_of(const Call& c, int size, int rank, bool in_place, std::span<const int> torus) {
  Shape s;
  if (base_kind(c.kind) == CollKind::concat) s.torus.assign(torus.begin(), torus.end());
  s.kind = c.kind;
  s.size = size;
  s.rank = rank;
  s.root = is_rooted(c.kind) || c.kind == CollKind::sync ? c.root : 0;  // sync: its hub
  s.elem = c.elem;
  s.in_place = in_place;
  s.barrier = barrier_mode();
  s.commutative = !is_reduction(c.kind) || c.kernel.commutative;
  switch (c.kind) {
    case CollKind::bcast:
    case CollKind::reduce:
    case CollKind::combine:
    case CollKind::prefix:
    case CollKind::gather:
    case CollKind::concat:
      s.count = c.send_elems;
      break;
    case CollKind::shift:
      s.count = c.send_elems;
      s.distance = c.distance;
      break;
    case CollKind::scatter:
      s.count = c.recv_elems;
      break;
    case CollKind::index:
      s.count = c.send_elems / static_cast<std::size_t>(size);
      break;
    case CollKind::concatv:
    case CollKind::gatherv:
    case CollKind::scatterv:
      s.counts = c.counts;
      break;
    case CollKind::indexv:
      s.counts = c.counts;
      s.recv_counts = c.recv_counts;
      break;
    case CollKind::sync:
      s.elem = 1;
      s.distance = c.distance;  // GroupState::order_sync
      break;
  }
  return s;
}

bool moves_nothing(const Shape& s) {
  if (s.kind == CollKind::sync || s.kind == CollKind::indexv) return false;
  if (!is_vector_form(s.kind)) return s.count * s.elem == 0;
  for (std::size_t c : s.counts) {
    if (c != 0) return false;
  }
  return true;
}

}  // namespace ccl::detail
