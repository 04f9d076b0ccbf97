// Starting schedules on a group: shared by the collective front end and the develop-mode checks.
#pragma once

#include <memory>

#include "ccl/reduce_op.hpp"
#include "ccl/shape.hpp"
#include "group_state.hpp"
#include "operation.hpp"

namespace ccl::detail {

// Append to `op` a stage running the schedule of `shape` on buffers send/recv, with scratch owned
// by the operation. `phase` separates the messages of check stages from the main schedule.
void add_schedule_stage(Operation& op, GroupState& g, const Shape& shape, const std::byte* send,
                        std::byte* recv, const ReduceKernel* kernel, std::uint64_t instance,
                        int phase);

}  // namespace ccl::detail
