// Process groups (CCL section II). A Group is an ordered member list with a label and a PGID.
// Members are named by world rank; a member's position in the list is its group rank.
//
//   Group g = ccl::group(list, "even");            // every listed process calls it
//   Group row = ccl::partition(grid, row_id, col);  // every parent member calls it (a barrier)
//
// Collective traffic of a group runs on its own communicator, derived from a private duplicate
// of MPI_COMM_WORLD, with a tag per collective instance: user messages and the collectives of
// other groups never match it. On the simulator (ccl/sim.hpp) each member holds its own Group.
#pragma once

#include <memory>
#include <span>
#include <string>
#include <vector>

#include "ccl/pgid.hpp"

namespace ccl {

namespace detail {
struct GroupState;
}

class Group {
 public:
  Group() = default;
  explicit Group(std::shared_ptr<detail::GroupState> s) : state_(std::move(s)) {}

  bool valid() const { return state_ != nullptr; }
  int size() const;
  int rank() const;                         // my rank in the group
  std::span<const int> members() const;     // world ranks in group order
  int world_rank_of(int member) const;      // world rank of group rank `member`
  int rank_of_world(int world_rank) const;  // group rank of a world rank, or -1
  const std::string& label() const;
  const Pgid& pgid() const;
  // The group laid out as a torus d0 x ... x d(k-1), ranks in row-major order (last dimension
  // fastest): declared alike by every member (ccl::grids::Torus does it), after which concat may
  // choose a torus-aware algorithm. Empty when none; set_torus throws ccl::Error unless the
  // dimensions are at least 1 and multiply to size().
  std::span<const int> torus() const;
  void set_torus(std::vector<int> dims) const;

  detail::GroupState& state() const {
    if (!state_) [[unlikely]]
      empty_handle();
    return *state_;
  }
  const std::shared_ptr<detail::GroupState>& shared_state() const { return state_; }

 private:
  [[noreturn]] static void empty_handle();  // throws ccl::Error
  std::shared_ptr<detail::GroupState> state_;
};

// The group of all processes (MPI_COMM_WORLD order). MPI must be initialised (ccl::Environment).
Group world();

// A group from an explicit list of world ranks; called by every listed process with the same list.
Group group(std::span<const int> world_ranks, std::string label);

// Partition a group: members with the same color form one new group, ranked by key, ties broken
// by rank in the parent. Called by every member of the parent; implies a barrier on the parent.
// The label defaults to the color in decimal.
Group partition(const Group& parent, int color, int key, std::string label = {});

}  // namespace ccl
