// The untyped form of a collective call, which the typed front end (collectives.hpp) fills in and
// detail::start() turns into a running operation.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "ccl/group.hpp"
#include "ccl/reduce_op.hpp"
#include "ccl/request.hpp"
#include "ccl/shape.hpp"

namespace ccl::detail {

struct Call {
  CollKind kind = CollKind::sync;
  int root = 0;
  int distance = 0;  // shift; sync: as Shape::distance
  std::size_t elem = 1;
  const std::byte* send = nullptr;
  std::size_t send_elems = 0;
  std::byte* recv = nullptr;
  std::size_t recv_elems = 0;
  std::vector<std::size_t> counts;       // v-forms (indexv: elements sent to each member)
  std::vector<std::size_t> recv_counts;  // indexv: elements received from each member
  ReduceKernel kernel;                   // reductions
};

// Validate, build or reuse the schedule, and start it. Collective over the group.
Request start(const Group& g, Call call);
// A round of a persistent call: the same, matched across members by `binding` (a number the
// caller gives each persistent call in the order members bind them on the group) instead of by
// the order of starts. A group's persistent calls take their numbers from one source:
// ccl::Persistent's (ccl::bind), or the caller's own (the drop-in's, on groups of its own).
Request start_bound(const Group& g, Call call, std::uint64_t binding);
// The same, run to completion: when nothing else is outstanding it runs straight through with
// blocking transfers, without registering with the progress engine.
void run(const Group& g, Call&& call);

}  // namespace ccl::detail
