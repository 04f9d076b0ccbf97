// The collective front end: check the call, add develop-mode checks, fetch (or build) the
// schedule for the call's shape and start it on the group's transport.
#include <memory>

#include "call_check.hpp"
#include "ccl/call.hpp"
#include "ccl/error.hpp"
#include "ccl/mode.hpp"
#include "develop_check.hpp"
#include "engine.hpp"
#include "launch.hpp"

namespace ccl::detail {

namespace {
struct Scratch {
  std::unique_ptr<std::byte[]> bytes;
};
}  // namespace

void add_schedule_stage(Operation& op, GroupState& g, const Shape& shape, const std::byte* send,
                        std::byte* recv, const ReduceKernel* kernel, std::uint64_t instance,
                        int phase) {
  std::shared_ptr<const Schedule> schedule = g.schedules.get(shape, g.process->stats);
  RunContext ctx;
  ctx.binding.base[static_cast<int>(Buffer::send)] = const_cast<std::byte*>(send);
  ctx.binding.base[static_cast<int>(Buffer::recv)] = recv;
  if (schedule->scratch_bytes > 0) {
    auto scratch = std::make_shared<Scratch>();
    scratch->bytes.reset(new std::byte[schedule->scratch_bytes]);
    ctx.binding.base[static_cast<int>(Buffer::scratch)] = scratch->bytes.get();
    op.keep(scratch);
  }
  ctx.kernel = kernel;
  ctx.elem = shape.elem;
  ctx.instance = instance;
  ctx.phase = phase;
  ctx.traffic = &op.traffic();
  if (phase == 0) op.set_algorithm(schedule->algorithm);
  op.add(g.channel->run(std::move(schedule), ctx));
}

Request start(const Group& group, Call call) {
  GroupState& g = group.state();
  const int size = static_cast<int>(g.members.size());
  bool in_place = false;
  std::optional<Problem> problem = check_call(call, size, g.rank, in_place);
  const bool develop = mode() == Mode::develop;
  if (problem && !develop) {
    throw Error("ccl: " + std::string(name(call.kind)) + " on group '" + g.label + "' at rank " +
                std::to_string(g.rank) + ": " + describe(*problem));
  }

  auto op = std::make_shared<Operation>(*g.process, call.kind);
  auto kept = std::make_shared<Call>(std::move(call));  // the kernel lives as long as the op
  op->keep(kept);
  op->keep(group.shared_state());
  const std::uint64_t instance = g.instances++;
  if (develop) add_develop_checks(*op, g, *kept, problem, instance);
  if (!problem) {
    add_schedule_stage(*op, g, shape_of(*kept, size, g.rank, in_place), kept->send, kept->recv,
                       kept->kernel ? &kept->kernel : nullptr, instance, 0);
  }
  g.process->engine->add(op);
  return Request(std::move(op));
}

}  // namespace ccl::detail
