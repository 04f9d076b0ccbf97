#include "engine.hpp"

#include <sched.h>

#include <algorithm>

#include "ccl/error.hpp"

namespace ccl::detail {

void Engine::add(std::shared_ptr<Operation> op) {
  // Start it at once: its first round is posted before the caller goes on computing.
  op->progress();
  if (!op->done()) active_.push_back(std::move(op));
}

Progress Engine::progress_all() {
  bool advanced = false;
  // Progressing one operation never adds another, so indices stay valid.
  for (auto& op : active_) {
    if (op->progress() != Progress::idle) advanced = true;
  }
  std::erase_if(active_, [](const auto& op) { return op->done(); });
  return advanced ? Progress::advanced : Progress::idle;
}

void Engine::fail_all_stalled() {
  auto err = std::make_exception_ptr(
      Error("ccl simulator: deadlock - no member can make progress (a member did not start the "
            "collective, or the members' calls do not match)"));
  for (auto& op : active_) op->fail(err);
  active_.clear();
}

bool Engine::test(Operation& op) {
  if (!op.done()) {
    if (progress_all() == Progress::idle && stall_is_deadlock_ && !op.done()) fail_all_stalled();
  }
  return op.done();
}

void Engine::wait(Operation& op) {
  int idle_sweeps = 0;
  while (!op.done()) {
    if (!stall_is_deadlock_ && active_.size() == 1 && active_.front().get() == &op) {
      // Alone: let the transport block instead of polling.
      op.block();
      active_.clear();
      break;
    }
    if (progress_all() == Progress::idle) {
      if (stall_is_deadlock_) {
        fail_all_stalled();
        break;
      }
      // Ranks may outnumber cores: give the CPU away now and then instead of spinning.
      if (++idle_sweeps % 64 == 0) sched_yield();
    } else {
      idle_sweeps = 0;
    }
  }
  op.rethrow_if_failed();
}

}  // namespace ccl::detail
