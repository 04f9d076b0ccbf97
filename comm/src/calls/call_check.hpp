// Checks of one member's own call (buffer lengths, root, counts lists, aliasing) and the
// translation of a call into the shape its schedule is built for.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "ccl/call.hpp"
#include "ccl/shape.hpp"

namespace ccl::detail {

enum class ProblemCode : std::uint32_t {
  none,
  bad_root,
  counts_length,
  recv_counts_length,
  send_length,
  recv_length,
  own_count,
  aliasing,
  no_operator,
  indivisible,
};

struct Problem {
  ProblemCode code = ProblemCode::none;
  std::int64_t got = 0;
  std::int64_t expected = 0;
};

// "recv buffer holds 3 elements, needs 12" and the like.
std::string describe(const Problem& p);

// The first problem with this member's call, if any; sets in_place when send and recv are
// legitimately the same memory.
std::optional<Problem> check_call(const Call& c, int size, int rank, bool& in_place);

Shape shape_of(const Call& c, int size, int rank, bool in_place, std::span<const int> torus = {});

// Whether a call of this shape moves no data on any member, decided from what members agree on
// (a member's own buffers may be empty where others' are not: a leaf's block in a gatherv, a
// reduce's non-root receive buffer). Never for sync, nor for indexv, whose counts are each
// member's own.
bool moves_nothing(const Shape& s);

}  // namespace ccl::detail
