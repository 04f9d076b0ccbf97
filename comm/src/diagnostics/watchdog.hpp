// The watchdog: a rank that has waited CCL_TIMEOUT seconds for one collective stops the job with
// a hang report instead of hanging silently. The report names the collective (group label and
// PGID, operation, instance, root, counts), where it is stuck (the round of its schedule and the
// peers whose transfers have not completed) and the last collectives this rank completed (the
// flight recorder), then the job is aborted with exit code kHangExitCode.
//
// Everything runs on the waiting thread: while a watch is armed, the executor polls its
// transfers instead of blocking in MPI, and checks the deadline between polls. No extra thread
// calls into MPI, and the report can ask the transport which transfers are still open.
//
// The clock starts when the rank starts waiting (a blocking collective, Request::wait), not when
// a nonblocking collective was started: computing between start and wait is not a hang.
#pragma once

#include <cstdint>
#include <string>

#include "ccl/mode.hpp"
#include "diagnostics/flight_recorder.hpp"

namespace ccl::detail {

struct GroupState;
struct Call;
class Operation;
class Stage;
class Watch;

inline constexpr int kHangExitCode = 124;  // as timeout(1)

// CCL_TIMEOUT in seconds, read when the library loads; negative when unset (or invalid: the
// runtime refuses those at start-up).
extern const double configured_timeout;
inline constexpr double kDevelopTimeout = 300;  // seconds: far beyond any collective not stuck

// Seconds a rank may wait for one collective, 0 when the watchdog is off: CCL_TIMEOUT (seconds,
// 0 turns it off), or when unset 300 in develop mode and off in run mode. Inline: every call asks.
inline double watchdog_seconds() {
  if (configured_timeout >= 0) return configured_timeout;
  return mode() == Mode::develop ? kDevelopTimeout : 0;
}
// Whether a hang can be reported: then calls are recorded (flight_recorder.hpp).
inline bool watchdog_on() {
  return watchdog_seconds() > 0;
}
// Whether `text` is a valid CCL_TIMEOUT: a finite number of seconds, at least 0.
bool valid_timeout(const char* text);

// What a hang does once reported (the MPI runtime sets MPI_Abort); std::_Exit otherwise.
void set_hang_exit(void (*exit)(int code));

// The armed watch of this process, or null: the executor polls instead of blocking while set.
extern Watch* armed_watch;

// Arms the watchdog while this rank waits on one collective. Does nothing when the watchdog is
// off, or when an outer wait (on the same collective) is armed already. At most one watch is
// armed in a process, so what it watches is kept in one place (watchdog.cpp) and the guard
// itself is a flag: a disarmed watch, on every call of a few bytes, costs a test.
class Watch {
 public:
  // A collective run straight through (start.cpp's direct run), or an operation's (`op`: the
  // report then names its stage, develop-mode check or main schedule, too).
  Watch(const GroupState& g, const Call& call, std::uint64_t instance, Operation* op = nullptr) {
    if (armed_watch == nullptr && watchdog_on()) arm(g, call, instance, op);
  }
  explicit Watch(Operation& op);
  ~Watch() {
    if (armed_) armed_watch = nullptr;
  }
  Watch(const Watch&) = delete;
  Watch& operator=(const Watch&) = delete;

  bool expired() const;
  // Print the hang report and stop the job. `stuck` is the stage that waits (where the
  // operation, if any, does not say better); `note` adds to where it waits.
  [[noreturn]] void report(Stage& stuck, const std::string& note = "") const;

 private:
  // Called only when the watchdog is on and no watch is armed.
  void arm(const GroupState& g, const Call& call, std::uint64_t instance, Operation* op);

  bool armed_ = false;
};

}  // namespace ccl::detail
