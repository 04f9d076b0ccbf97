#include "execution/engine.hpp"

#include <sched.h>

#include <algorithm>
#include <string>

#include "ccl/error.hpp"
#include "ccl/tick_clock.hpp"
#include "diagnostics/watchdog.hpp"
#include "execution/schedule_run.hpp"

namespace ccl::detail {

void Engine::add(Operation& op) {
  // Start it at once: its first round is posted before the caller goes on computing.
  op.progress();
  if (!op.done()) {
    op.retain();
    active_.push_back(&op);
  }
}

void Engine::drop_done() {
  // Release after erasing: a release may recycle the operation. The list is kept between calls
  // so that completing a collective allocates nothing.
  std::erase_if(active_, [&](Operation* op) {
    if (!op->done()) return false;
    finished_.push_back(op);
    return true;
  });
  // Released from a list of its own, should a release (dropping a group) come back here.
  std::vector<Operation*> releasing = std::move(finished_);
  for (Operation* op : releasing) op->release();
  releasing.clear();
  finished_ = std::move(releasing);  // its capacity, for the next time
}

Progress Engine::progress_all() {
  bool advanced = false;
  bool any_done = false;
  // Progressing one operation never adds another, so indices stay valid.
  for (Operation* op : active_) {
    if (op->progress() != Progress::idle) advanced = true;
    any_done = any_done || op->done();
  }
  if (any_done) drop_done();
  return advanced ? Progress::advanced : Progress::idle;
}

void Engine::fail_all_stalled() {
  auto err = std::make_exception_ptr(
      Error("ccl simulator: deadlock - no member can make progress (a member did not start the "
            "collective, or the members' calls do not match)"));
  for (Operation* op : active_) op->fail(err);
  drop_done();
}

bool Engine::test(Operation& op) {
  if (op.done()) return true;
  if (progress_all() != Progress::idle) {
    idle_polls_ = false;
  } else if (!op.done()) {
    if (stall_is_deadlock_) {
      fail_all_stalled();
    } else if (watchdog_seconds() > 0) {
      watch_polls(op);
    }
  }
  return op.done();
}

// A program that only polls (MPI_Test in a loop, say) never waits in ccl, so no watch is armed:
// the watchdog counts instead how long the polls have found nothing moving, from the first such
// poll until one finds progress.
void Engine::watch_polls(Operation& op) {
  const std::uint64_t now = coarse_ns();
  if (!idle_polls_) {
    idle_polls_ = true;
    idle_polls_since_ = now;
    return;
  }
  if (static_cast<double>(now - idle_polls_since_) < 1e9 * watchdog_seconds()) return;
  const Watch watch(op);
  if (armed_watch != nullptr) {
    armed_watch->report(op.main_run(), " (found by polling; " + std::to_string(active_.size() - 1) +
                                           " other collectives of this rank in flight)");
  }
}

void Engine::wait(Operation& op) {
  if (op.done()) {
    op.rethrow_if_failed();
    return;
  }
  const Watch watch(op);
  int idle_sweeps = 0;
  while (!op.done()) {
    if (!stall_is_deadlock_ && active_.size() == 1 && active_.front() == &op) {
      // Alone: let the transport block instead of polling.
      op.block();
      drop_done();
      break;
    }
    if (progress_all() == Progress::idle) {
      if (stall_is_deadlock_) {
        fail_all_stalled();
        break;
      }
      if (armed_watch != nullptr && armed_watch->expired()) {
        armed_watch->report(op.main_run(), " (" + std::to_string(active_.size() - 1) +
                                               " other collectives of this rank in flight)");
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
