// How a group divides into sub-groups: each member's color (which sub-group it joins) and key
// (its rank there). The group structures compute splits from their geometry; form() turns them
// into real ccl groups, on MPI (each process for itself) or on the simulator (every member at
// once).
#pragma once

#include <functional>
#include <span>
#include <string>
#include <vector>

#include "ccl/grids/cartesian.hpp"
#include "ccl/group.hpp"

namespace ccl::sim {
class World;
}

namespace ccl::grids {

struct Split {
  int color = 0;
  int key = 0;
};

// Member `rank` of a group laid out as `shape` joins the sub-shape it shares with every member
// that agrees with it on the fixed dimensions (free[d] false), ranked row-major over the free ones.
Split sub_split(const Cartesian& shape, int rank, const std::vector<bool>& free);

// Every member of `parent` calls it with its own split (ccl::partition: a barrier on parent).
Group form(const Group& parent, const Split& mine, std::string label);

// Simulator: views[i] is member i's view of the parent group, split_of(i) member i's split.
// Returns every member's new group, indexed like views.
std::vector<Group> form(sim::World& world, std::span<const Group> views,
                        const std::function<Split(int)>& split_of);

}  // namespace ccl::grids
