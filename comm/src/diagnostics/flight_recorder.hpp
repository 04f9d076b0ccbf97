// The flight recorder: the last collectives a process completed, kept in a ring buffer so that a
// hang report (watchdog.hpp) can say what this rank did before it got stuck. Recording copies a
// fixed-size record (no allocation) and reads the clock. It runs on every call while the watchdog
// is on (watchdog_on()), the reports being its only reader; off, it would cost a call of 8 B
// about a tenth of its time (80 instructions, 10 ns of them the clock).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "ccl/pgid.hpp"
#include "ccl/shape.hpp"

namespace ccl::detail {

struct GroupState;
struct Call;

inline constexpr std::size_t kRecordLabel = 24;  // bytes of a group's label a record keeps

// One collective as the reports name it: group, operation, instance, root or distance, counts.
struct CollectiveRecord {
  Pgid pgid;
  std::array<char, kRecordLabel> label{};  // the group's label, cut to fit, NUL-terminated
  CollKind kind = CollKind::sync;
  int root = 0;
  int distance = 0;
  std::uint64_t instance = 0;
  std::size_t elem = 0;
  std::size_t send_elems = 0;
  std::size_t recv_elems = 0;
  std::string_view algorithm;  // static storage (the algorithm's name), empty if not yet chosen
  std::uint64_t done_at = 0;   // when it completed: tick_clock.hpp's coarse_ns()

  // "reduce on group 'rows' (PGID 0.3), instance 41, root 0, send 100 x 8 B, recv 100 x 8 B"
  std::string describe() const;
};

// Fill `r` with the collective `call`, instance `instance` of group g (algorithm and time left).
void describe_call(CollectiveRecord& r, const GroupState& g, const Call& call,
                   std::uint64_t instance);

class FlightRecorder {
 public:
  static constexpr std::size_t kDepth = 32;

  // Record a completed collective, in place in the ring.
  void add(const GroupState& g, const Call& call, std::uint64_t instance,
           std::string_view algorithm, std::uint64_t done_at) {
    CollectiveRecord& r = ring_[next_++ % kDepth];
    describe_call(r, g, call, instance);
    r.algorithm = algorithm;
    r.done_at = done_at;
  }
  std::uint64_t completed() const { return next_; }
  // Oldest first; `f(sequence_number, record)`.
  template <class F>
  void for_each(F f) const {
    const std::uint64_t first = next_ > kDepth ? next_ - kDepth : 0;
    for (std::uint64_t i = first; i < next_; ++i) f(i, ring_[i % kDepth]);
  }

 private:
  std::array<CollectiveRecord, kDepth> ring_;
  std::uint64_t next_ = 0;
};

}  // namespace ccl::detail
