// One member process: an MPI rank, or one simulated member. Holds the group counter behind PGIDs,
// the engine that progresses its collectives, its statistics and its pool of operations.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <vector>

#include "ccl/stats.hpp"
#include "diagnostics/flight_recorder.hpp"
#include "execution/operation.hpp"

namespace ccl::detail {

class Engine;

struct Process {
  int world_rank = 0;
  std::uint64_t group_counter = 1;  // groups this process helped form; 0 is the world group
  std::map<std::vector<int>, std::uint64_t> explicit_forms;  // times each explicit list was formed
  Engine* engine = nullptr;
  Statistics stats;
  FlightRecorder recorder;  // the last collectives completed, for hang reports

  // A free operation from the pool, or a new one.
  Operation* acquire() {
    if (free_ops.empty()) {
      all_ops.push_back(std::make_unique<Operation>(*this));
      return all_ops.back().get();
    }
    Operation* op = free_ops.back();
    free_ops.pop_back();
    return op;
  }
  void recycle(Operation* op) { free_ops.push_back(op); }

 private:
  std::vector<std::unique_ptr<Operation>> all_ops;
  std::vector<Operation*> free_ops;
};

}  // namespace ccl::detail
