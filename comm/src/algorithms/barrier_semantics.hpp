// Barrier mode (ccl/mode.hpp): the schedule of a shape's algorithm with the partial
// synchronisation of the CCL paper around it, so that no member leaves the call before every
// member has entered it.
#pragma once

#include "ccl/cost.hpp"
#include "ccl/schedule.hpp"
#include "ccl/shape.hpp"

namespace ccl::detail {

// `s` (built for `shape`) as barrier mode runs it; `s` itself when the collective implies a
// barrier already.
Schedule with_barrier(const Schedule& s, const Shape& shape);
// The start-ups barrier mode adds on the critical path: ceil(log2 n) per tree (no bytes).
Cost barrier_cost(const Shape& shape);

}  // namespace ccl::detail
