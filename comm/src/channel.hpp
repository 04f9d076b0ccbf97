// The transport under a group: turns a schedule bound to buffers into a running stage. One
// implementation per transport (MPI communicator, simulator network); the schedule executor is
// shared (schedule_run.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "ccl/reduce_op.hpp"
#include "ccl/schedule.hpp"
#include "ccl/stats.hpp"
#include "operation.hpp"

namespace ccl::detail {

// Real memory behind a schedule's buffers.
struct Binding {
  std::byte* base[3] = {nullptr, nullptr, nullptr};  // indexed by ccl::Buffer
  std::byte* at(const Slice& s) const { return base[static_cast<int>(s.buffer)] + s.offset; }
};

// What one schedule run needs besides the schedule.
struct RunContext {
  Binding binding;
  const ReduceKernel* kernel = nullptr;
  std::size_t elem = 1;
  std::uint64_t instance = 0;  // collective instance number on the group
  int phase = 0;               // 0 main schedule, 1..3 develop-mode checks: part of the tag
  TrafficStats* traffic = nullptr;
};

class Channel {
 public:
  virtual ~Channel() = default;
  virtual std::unique_ptr<Stage> run(std::shared_ptr<const Schedule> schedule,
                                     const RunContext& ctx) = 0;
};

inline constexpr int kPhases = 4;

}  // namespace ccl::detail
