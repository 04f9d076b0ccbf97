// Per-process counters: what the executor moved (rounds, messages, bytes, reduce work) and, per
// collective, calls, bytes sent, time spent and the algorithm last used.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

#include "ccl/cost.hpp"
#include "ccl/shape.hpp"

namespace ccl {

struct TrafficStats {
  std::uint64_t rounds = 0;        // rounds that posted at least one transfer
  std::uint64_t messages = 0;      // messages sent
  std::uint64_t bytes = 0;         // bytes sent
  std::uint64_t reduce_bytes = 0;  // bytes of incoming operand reduced
  TrafficStats& operator+=(const TrafficStats& o) {
    rounds += o.rounds;
    messages += o.messages;
    bytes += o.bytes;
    reduce_bytes += o.reduce_bytes;
    return *this;
  }
};

struct CollectiveStats {
  std::uint64_t calls = 0;
  std::uint64_t bytes = 0;     // bytes this process sent for the collective
  double seconds = 0;          // from start to completion, summed over calls (0 unless timing())
  std::string_view algorithm;  // last algorithm used (static storage)
};

struct Statistics {
  TrafficStats traffic;
  std::uint64_t schedules_built = 0;  // schedules built; repeated shapes reuse theirs
  Cost last_critical_path;  // simulator only: C1, C2, C3 this member saw in its last collective
  std::array<CollectiveStats, kCollKinds> collectives{};
  const CollectiveStats& of(CollKind k) const { return collectives[static_cast<int>(k)]; }
  CollectiveStats& of(CollKind k) { return collectives[static_cast<int>(k)]; }
};

}  // namespace ccl
