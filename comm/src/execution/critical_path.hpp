// This member's critical path through a schedule run on a clocked channel (C1 start-ups, C2
// bytes, C3 reduce work): reduce steps add their bytes to C3; the k-th send of a round leaves
// at the round's clock + (k, bytes sent so far in the round) — one send port, used in posting
// order; the round ends at the maximum of that and the completion of its receives: the receive
// port takes the round's messages one at a time in posting order, each completing at
// max(its stamp, previous completion + (1, bytes)). Only clocked channels (the simulator's)
// carry the stamps it needs; ScheduleRun keeps it on those alone.
#pragma once

#include <cstddef>
#include <span>

#include "ccl/cost.hpp"
#include "ccl/schedule.hpp"
#include "transport/clocked_channel.hpp"

namespace ccl::detail {

class CriticalPath {
 public:
  void reset() { clock_ = Cost{}; }
  // A round begins with its local steps, then its sends leave.
  void begin_round() { after_sends_ = clock_; }
  void reduced(std::size_t bytes) { after_sends_.c3 += bytes; }
  // The local steps ran: the receive port opens.
  void locals_done() { port_start_ = after_sends_; }
  // The stamp of the round's next send, of `bytes`.
  const Cost& send(std::size_t bytes) {
    after_sends_ += Cost{1, bytes, 0};
    return after_sends_;
  }
  // The round's steps are done; `hs` holds its receives' handles, in posting order.
  void end_round(std::span<const Step> round, const ClockedChannel& channel, const Handles& hs);
  const Cost& clock() const { return clock_; }

 private:
  Cost clock_;        // up to the current round
  Cost after_sends_;  // this member's own path once the round's sends are out
  Cost port_start_;   // the round's clock once its local steps ran
};

}  // namespace ccl::detail
