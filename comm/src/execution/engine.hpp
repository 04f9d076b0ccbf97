// Progress engine: every outstanding collective of a process (or of a whole simulated world).
// Waiting on one request progresses all of them, so overlapping collectives on overlapping groups
// complete whatever order their requests are waited in. On the simulator a sweep in which nothing
// moves means the members can never finish: a deadlock, reported as an error instead of a hang.
#pragma once

#include <cstdint>
#include <vector>

#include "execution/operation.hpp"

namespace ccl::detail {

class Engine {
 public:
  explicit Engine(bool stall_is_deadlock) : stall_is_deadlock_(stall_is_deadlock) {}

  // Start op (post its first round); it stays active, referenced, until done.
  void add(Operation& op);
  bool test(Operation& op);
  void wait(Operation& op);
  std::size_t outstanding() const { return active_.size(); }
  // Advance every active operation once, never blocking (for callers waiting on something else).
  void poll() { progress_all(); }
  // May an operation run by blocking, without the engine? Only when nothing else is in flight
  // (and never on the simulator, whose members cannot block).
  bool can_block() const { return !stall_is_deadlock_ && active_.empty(); }

 private:
  Progress progress_all();
  void drop_done();
  void fail_all_stalled();
  void watch_polls(Operation& op);

  bool stall_is_deadlock_;
  std::vector<Operation*> active_;
  std::vector<Operation*> finished_;  // drop_done()'s, emptied before it returns
  // When polls (test) began to find nothing moving, and whether they have; see watch_polls().
  std::uint64_t idle_polls_since_ = 0;
  bool idle_polls_ = false;
};

}  // namespace ccl::detail
