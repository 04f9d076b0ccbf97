// What a Group handle points to: members, rank, label, PGID, the count of collective instances
// started on it (the same on every member, since members start collectives in the same order),
// its transport channel and its cache of built schedules.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "ccl/algorithm.hpp"
#include "ccl/pgid.hpp"
#include "ccl/schedule.hpp"
#include "ccl/shape.hpp"
#include "ccl/stats.hpp"
#include "channel.hpp"
#include "process.hpp"

namespace ccl::detail {

class ScheduleCache {
 public:
  // The schedule of a shape, built on first use (counted in `stats`) and reused afterwards:
  // with the selected algorithm, or with `fixed` when given.
  std::shared_ptr<const Schedule> get(const Shape& shape, Statistics& stats,
                                      const Choice* fixed = nullptr);

 private:
  static constexpr std::size_t kCapacity = 256;
  std::unordered_map<Shape, std::shared_ptr<const Schedule>> map_;
  unsigned epoch_ = 0;
};

struct GroupState {
  Process* process = nullptr;
  std::vector<int> members;  // world ranks in group order
  int rank = 0;
  std::string label;
  Pgid pgid;
  std::uint64_t instances = 0;
  std::unique_ptr<Channel> channel;
  ScheduleCache schedules;
  ScheduleCache check_schedules;  // develop-mode exchanges: fixed algorithms, never overridden
};

}  // namespace ccl::detail
