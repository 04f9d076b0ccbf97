// The in-process simulator: all members of a group live in one process and run the same schedules
// the MPI transport runs, deterministically, with per-member counts of rounds, messages, bytes and
// reduce work. Each member holds its own Group; a test starts the nonblocking form of a
// collective for every member and then waits for the requests:
//
//   ccl::sim::World w(100);
//   auto g = w.world_groups();                       // g[r]: member r's view
//   std::vector<ccl::Request> req;
//   for (int r = 0; r < 100; ++r) req.push_back(ccl::iconcat(g[r], send[r], recv[r]));
//   ccl::wait_all(req);                              // throws if the members deadlock
#pragma once

#include <memory>
#include <span>
#include <string>
#include <vector>

#include "ccl/group.hpp"
#include "ccl/stats.hpp"

namespace ccl::sim {

class Network;

class World {
 public:
  explicit World(int size);
  ~World();
  World(const World&) = delete;
  World& operator=(const World&) = delete;

  int size() const;

  // Every member's view of the group of all members.
  std::vector<Group> world_groups();

  // Partition a group: parents[i] is the view of parent member i (i = parent rank), colors[i] and
  // keys[i] its arguments. Returns each parent member's new group, indexed like parents.
  std::vector<Group> partition(std::span<const Group> parents, std::span<const int> colors,
                               std::span<const int> keys);

  // An explicit group: the views of the listed members, in list order.
  std::vector<Group> group(std::span<const int> members, const std::string& label);

  const Statistics& statistics(int member) const;
  void reset_statistics();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace ccl::sim
