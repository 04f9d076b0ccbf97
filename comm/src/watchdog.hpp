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
#include <optional>
#include <string>

#include "flight_recorder.hpp"

namespace ccl::detail {

struct GroupState;
struct Call;
class Operation;
class Stage;
class Watch;

inline constexpr int kHangExitCode = 124;  // as timeout(1)

// Seconds a rank may wait for one collective, 0 when the watchdog is off: CCL_TIMEOUT (seconds,
// 0 turns it off), or when unset 300 in develop mode and off in run mode.
double watchdog_seconds();
// Whether `text` is a valid CCL_TIMEOUT: a finite number of seconds, at least 0.
bool valid_timeout(const char* text);

// What a hang does once reported (the MPI runtime sets MPI_Abort); std::_Exit otherwise.
void set_hang_exit(void (*exit)(int code));

// The armed watch of this process, or null: the executor polls instead of blocking while set.
extern Watch* armed_watch;

// Arms the watchdog while this rank waits on one collective. Does nothing when the watchdog is
// off, or when an outer wait (on the same collective) is armed already.
class Watch {
 public:
  // A collective run straight through, without an operation (start.cpp's direct run).
  Watch(const GroupState& g, const Call& call, std::uint64_t instance);
  // An operation: the report then names its stage (develop-mode check or main schedule) too.
  explicit Watch(Operation& op);
  ~Watch();
  Watch(const Watch&) = delete;
  Watch& operator=(const Watch&) = delete;

  bool expired() const;
  // Print the hang report and stop the job. `stuck` is the stage that waits (where the
  // operation, if any, does not say better); `note` adds to where it waits.
  [[noreturn]] void report(Stage& stuck, const std::string& note = "") const;

 private:
  bool armed_ = false;
  const GroupState* group_ = nullptr;
  Operation* op_ = nullptr;
  std::optional<CollectiveRecord> what_;  // set when armed: a disarmed watch costs no record
  double seconds_ = 0;
  std::uint64_t deadline_ = 0;  // ticks
};

}  // namespace ccl::detail
