// One member process: an MPI rank, or one simulated member. Holds the group counter behind PGIDs,
// the engine that progresses its collectives and its statistics.
#pragma once

#include <cstdint>
#include <map>
#include <vector>

#include "ccl/stats.hpp"

namespace ccl::detail {

class Engine;

struct Process {
  int world_rank = 0;
  std::uint64_t group_counter = 1;  // groups this process helped form; 0 is the world group
  std::map<std::vector<int>, std::uint64_t> explicit_forms;  // times each explicit list was formed
  Engine* engine = nullptr;
  Statistics stats;
};

}  // namespace ccl::detail
