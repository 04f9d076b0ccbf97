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
#include "schedule_run.hpp"

namespace ccl::detail {

class ScheduleCache {
 public:
  // The schedule of a shape, built on first use (counted in `stats`) and reused afterwards:
  // with the selected algorithm, or with `fixed` when given.
  // The reference stays valid until the next get().
  const std::shared_ptr<const Schedule>& get(const Shape& shape, Statistics& stats,
                                             const Choice* fixed = nullptr);

 private:
  static constexpr std::size_t kCapacity = 256;
  using Map = std::unordered_map<Shape, std::shared_ptr<const Schedule>>;
  Map map_;
  Map::const_iterator last_ = map_.end();  // a loop repeats one shape: no hashing then
  unsigned epoch_ = 0;
};

// A blocking collective run straight through (nothing else in flight, run mode): the group's
// own executor and scratch, with no operation or request around them.
struct DirectRun {
  ScheduleRun run;
  ReusableScratch scratch;
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
  DirectRun direct;
};

}  // namespace ccl::detail
