// Starting the schedule of a shape on a group as a stage of an operation: shared by the
// collective front end (main schedule), persistent calls and the develop-mode checks (their
// exchanges).
#pragma once

#include <cstdint>
#include <memory>

#include "ccl/call.hpp"
#include "ccl/reduce_op.hpp"
#include "ccl/shape.hpp"
#include "execution/operation.hpp"
#include "groups/group_state.hpp"

namespace ccl::detail {

// The main schedule of the operation's call, on its inline run and reusable scratch.
void add_main_schedule(Operation& op, const Shape& shape, std::uint64_t instance);
// The same with the shape's schedule already fetched.
void add_main_schedule(Operation& op, const Shape& shape,
                       const std::shared_ptr<const Schedule>& schedule, std::uint64_t instance);

// The shape of a call that passes its checks; throws ccl::Error naming the problem otherwise.
Shape checked_shape(const Group& group, const Call& call);
// Start a round of a persistent call, whose shape checked_shape() gave when it was bound and
// whose instance (kPersistentInstance) every round has: what start() does after its checks.
// Develop mode still adds its checks across members.
Request start_checked(const Group& group, Call call, const Shape& shape, std::uint64_t instance);
// The same in run mode on the persistent call's own operation, which holds the call and group.
Request start_round(Operation& op, const Shape& shape, std::uint64_t instance);

// A check exchange (phase 1..3) on buffers send/recv, with its own run and scratch.
void add_check_schedule(Operation& op, const Shape& shape, const std::byte* send, std::byte* recv,
                        std::uint64_t instance, int phase);

}  // namespace ccl::detail
