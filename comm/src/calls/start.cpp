// The collective front end: check the call, add develop-mode checks, fetch (or build) the
// schedule for the call's shape and start it on the group's transport.
#include <memory>
#include <optional>

#include "calls/call_check.hpp"
#include "calls/start.hpp"
#include "ccl/call.hpp"
#include "ccl/error.hpp"
#include "ccl/mode.hpp"
#include "ccl/selection.hpp"
#include "ccl/tick_clock.hpp"
#include "diagnostics/develop_check.hpp"
#include "diagnostics/watchdog.hpp"
#include "execution/engine.hpp"
#include "execution/schedule_run.hpp"

namespace ccl::detail {

namespace {

struct Scratch {
  std::unique_ptr<std::byte[]> bytes;
};

}  // namespace

void add_main_schedule(Operation& op, const Shape& shape, std::uint64_t instance) {
  GroupState& g = op.group();
  add_main_schedule(op, shape, g.schedules.get(shape, g.process->stats), instance);
}

void add_main_schedule(Operation& op, const Shape& shape,
                       const std::shared_ptr<const Schedule>& schedule, std::uint64_t instance) {
  GroupState& g = op.group();
  const Call& c = op.call();
  std::byte* scratch =
      schedule->scratch_bytes > 0 ? op.main_scratch(schedule->scratch_bytes) : nullptr;
  op.set_algorithm(schedule->algorithm);
  op.main_run().reset(*g.channel, g.channel->tag(instance, 0), schedule, c.send, c.recv, scratch,
                      c.kernel ? &c.kernel : nullptr, shape.elem, op.traffic());
  op.add_main();
}

void add_check_schedule(Operation& op, const Shape& shape, const std::byte* send, std::byte* recv,
                        std::uint64_t instance, int phase) {
  // The checks must work even when members disagree on overrides or models: fixed algorithms.
  static const Choice concat{find_algorithm(CollKind::concat, "bruck"), {}};
  static const Choice index{find_algorithm(CollKind::index, "pairwise"), {}};
  GroupState& g = op.group();
  std::shared_ptr<const Schedule> schedule = g.check_schedules.get(
      shape, g.process->stats, shape.kind == CollKind::index ? &index : &concat);
  auto scratch = std::make_shared<Scratch>();
  scratch->bytes.reset(new std::byte[schedule->scratch_bytes + 1]);
  auto run = std::make_unique<ScheduleRun>();
  run->reset(*g.channel, g.channel->tag(instance, phase), schedule, send, recv,
             scratch->bytes.get(), nullptr, shape.elem, op.traffic());
  op.keep(std::move(scratch));
  op.add(std::move(run));
}

namespace {

[[noreturn]] void throw_problem(const Call& call, const GroupState& g, const Problem& problem) {
  throw Error("ccl: " + std::string(name(call.kind)) + " on group '" + g.label + "' at rank " +
              std::to_string(g.rank) + ": " + describe(problem));
}

// A fixed-size collective of zero bytes moves nothing on any member, so in run mode it returns at
// once, as MPI allows (not in barrier mode, where it is a barrier; nor in develop mode, whose
// checks still run). Decided on its shape, on which members agree, once its call passed its
// checks.
bool returns_at_once(const Shape& s) {
  return !s.barrier && !is_vector_form(s.kind) && moves_nothing(s);
}

// One member's call after its own checks: the shape its schedule is built for, that schedule
// and whether the call returns at once; or the problem the checks found.
struct CheckedCall {
  std::optional<Problem> problem;
  Shape shape;
  const std::shared_ptr<const Schedule>* schedule = nullptr;  // null with a problem
  bool at_once = false;
};

// A shape that passed its checks, with its schedule.
CheckedCall scheduled(GroupState& g, const Shape& shape) {
  CheckedCall checked;
  checked.shape = shape;
  checked.schedule = &g.schedules.get(shape, g.process->stats);
  checked.at_once = returns_at_once(shape);
  return checked;
}

// The one pass every path makes over a call: its checks, its shape and its schedule. A problem
// throws, unless `let_problem_through` (develop mode, which reports it on every member).
CheckedCall check_and_schedule(const Group& group, const Call& call, bool let_problem_through) {
  GroupState& g = group.state();
  const int size = static_cast<int>(g.members.size());
  bool in_place = false;
  if (std::optional<Problem> problem = check_call(call, size, g.rank, in_place)) {
    if (!let_problem_through) throw_problem(call, g, *problem);
    CheckedCall refused;
    refused.problem = problem;
    return refused;
  }
  return scheduled(g, shape_of(call, size, g.rank, in_place, g.torus));
}

}  // namespace

Shape checked_shape(const Group& group, const Call& call) {
  return check_and_schedule(group, call, false).shape;
}

namespace {

// A blocking call in run mode with nothing else in flight runs its schedule straight through on
// the group's direct run: no operation, request or engine, which matters for small messages.
bool run_direct(const Group& group, Call& call) {
  GroupState& g = group.state();
  if (mode() == Mode::develop || !g.process->engine->can_block()) return false;
  DirectRun& d = g.direct;
  if (call.kind == CollKind::sync) g.order_sync(call, true);
  const CallMemo::Found memo = d.last.find(call);
  const std::shared_ptr<const Schedule>* found = memo.schedule;
  bool at_once = memo.at_once;
  if (found == nullptr) {
    const CheckedCall checked = check_and_schedule(group, call, false);
    found = checked.schedule;
    at_once = checked.at_once;
    d.last.remember(call, *found, at_once);  // (v-forms are not remembered)
  }
  g.note_call(call.kind, call.root);
  if (at_once) return true;
  const std::uint64_t started = timing_on ? ticks() : 0;
  const Schedule& schedule = **found;
  std::byte* scratch = schedule.scratch_bytes > 0 ? d.scratch.get(schedule.scratch_bytes) : nullptr;
  // The run counts straight into the process's totals. A copy on the stack, added to them after
  // the run, was read back 16 bytes at a time over two 8-byte counters just stored: that load
  // misses store forwarding and waits for every earlier store to reach the cache, the one into
  // the peer's ring among them (whose line must come back from the peer's core). A stream of
  // 8 B scatters on 2 ranks ran at 0.09-0.11 us a call with it, 0.075-0.08 without.
  TrafficStats& traffic = g.process->stats.traffic;
  const std::uint64_t bytes_before = traffic.bytes;
  const std::uint64_t instance = g.instances++;
  d.run.reset(*g.channel, g.channel->tag(instance, 0), schedule, call.send, call.recv, scratch,
              call.kernel ? &call.kernel : nullptr, call.elem, traffic);
  try {
    const Watch watch(g, call, instance);
    d.run.block();
  } catch (...) {
    d.run.abandon();
    throw;
  }
  const double seconds = timing_on ? tick_seconds(started, ticks()) : 0.0;
  record_call(g.process->stats, call.kind, traffic.bytes - bytes_before, seconds,
              schedule.algorithm, nullptr);
  if (watchdog_on()) g.process->recorder.add(g, call, instance, schedule.algorithm, coarse_ns());
  return true;
}

// Tags repeat every tag cycle of instances: before instance i starts, instance i - cycle must
// have completed on this member, or its messages could match the new one's. Members start a
// group's collectives in the same order, so the older instance is under way on every member.
void make_room_for_next_instance(GroupState& g) {
  const std::uint64_t cycle = g.channel->tag_cycle();
  while (!g.in_flight.empty() && g.instances - g.in_flight.front().first >= cycle) {
    Operation& oldest = *g.in_flight.front().second;
    oldest.retain();  // its error, if any, stays for its own request to rethrow
    try {
      g.process->engine->wait(oldest);
    } catch (...) {
    }
    oldest.release();
  }
}

// The next regular instance on the group, once the one a tag cycle before it is complete.
std::uint64_t next_instance(GroupState& g) {
  if (!g.in_flight.empty()) make_room_for_next_instance(g);
  return g.instances++;
}

// Set up the operation of a checked call (develop-mode checks, main schedule); a problem the
// checks found is only let through by develop mode, to report it on every member. `request`
// owns the operation from the start, so nothing leaks when setting up throws. Null when the call
// returns at once. `persistent`: the instance of the persistent call this is a round of, else the
// group's next.
Operation* set_up(const Group& group, Call call, const CheckedCall& checked, Request& request,
                  std::optional<std::uint64_t> persistent = std::nullopt) {
  GroupState& g = group.state();
  const bool develop = mode() == Mode::develop;
  if (!develop && checked.at_once) return nullptr;

  const std::uint64_t instance = persistent ? *persistent : next_instance(g);
  Operation* op = g.process->acquire();
  request = Request(op);
  const CollKind kind = call.kind;
  op->begin(kind, group.shared_state(), std::move(call), instance);
  try {
    if (develop) add_develop_checks(*op, checked.problem, instance);
    if (!checked.problem) add_main_schedule(*op, checked.shape, *checked.schedule, instance);
  } catch (...) {
    // Not started, so nothing will complete it: mark it failed, or the request would wait for
    // it forever when the exception unwinds it.
    op->fail(std::current_exception());
    throw;
  }
  return op;
}

// Check the call, then set it up (a round of the persistent call of that instance, if given).
Operation* prepare(const Group& group, Call call, Request& request,
                   std::optional<std::uint64_t> persistent = std::nullopt) {
  GroupState& g = group.state();
  // Rounds of persistent calls may start in any order on each member: only calls members start
  // in one order carry or note the member a sync releases first.
  if (call.kind == CollKind::sync) g.order_sync(call, !persistent.has_value());
  const CheckedCall checked = check_and_schedule(group, call, mode() == Mode::develop);
  if (!checked.problem && !persistent) g.note_call(call.kind, call.root);
  return set_up(group, std::move(call), checked, request, persistent);
}

// Hand a set-up operation to the engine, which posts its first round. Regular instances are
// tracked until done, for the tag cycle; persistent ones have tags of their own.
Request launch(Operation* started, Request request) {
  if (started == nullptr) return request;  // complete already
  Operation& op = *started;
  op.process().engine->add(op);
  if (!op.done() && !is_persistent(op.instance())) op.track_in_group();
  return request;
}

}  // namespace

Request start(const Group& group, Call call) {
  Request request;
  Operation* started = prepare(group, std::move(call), request);
  return launch(started, std::move(request));
}

Request start_bound(const Group& group, Call call, std::uint64_t binding) {
  Request request;
  Operation* started = prepare(group, std::move(call), request, persistent_instance(binding));
  return launch(started, std::move(request));
}

Request start_round(Operation& op, const Shape& shape, std::uint64_t instance) {
  Request request;
  if (returns_at_once(shape)) return request;
  request = Request(&op);
  op.again(instance);
  try {
    add_main_schedule(op, shape, instance);
  } catch (...) {
    op.fail(std::current_exception());
    throw;
  }
  return launch(&op, std::move(request));
}

Request start_checked(const Group& group, Call call, const Shape& shape, std::uint64_t instance) {
  Request request;
  Operation* started =
      set_up(group, std::move(call), scheduled(group.state(), shape), request, instance);
  return launch(started, std::move(request));
}

void run(const Group& group, Call&& call) {
  if (run_direct(group, call)) return;
  Request request;
  Operation* started = prepare(group, std::move(call), request);
  if (started == nullptr) return;
  Operation& op = *started;
  Engine& engine = *op.process().engine;
  if (engine.can_block()) {
    const Watch watch(op);
    op.block();  // alone: straight through, blocking transfers where they are cheaper
  } else {
    engine.add(op);
  }
  request.wait();
}

}  // namespace ccl::detail
