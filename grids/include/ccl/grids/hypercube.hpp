// A group of 2^d members viewed as a d-dimensional hypercube (CCL, Common Group Structures):
// dimension i is bit i of the group rank, so the neighbour across dimension i is rank XOR 2^i.
// Sub-cubes keep some dimensions free and fix the others: the members that agree on every fixed
// bit form one, ranked by their free bits (lowest free dimension lowest).
//
//   d = 3, free {0, 2}:  sub-cube of 0 → {0, 1, 4, 5},  of 2 → {2, 3, 6, 7}
#pragma once

#include <span>
#include <vector>

#include "ccl/grids/split.hpp"
#include "ccl/group.hpp"

namespace ccl::grids {

class Hypercube {
 public:
  // No communication; throws ccl::Error unless g.size() is a power of two.
  explicit Hypercube(const Group& g);

  int dims() const { return dims_; }
  const Group& group() const { return group_; }
  int neighbour(int i) const { return neighbour_of(group_.rank(), i); }
  int neighbour_of(int rank, int i) const;

  // My sub-cube as a group; free[i] says whether dimension i stays free. Every member calls it.
  Group subcube(const std::vector<bool>& free) const;
  // Every member's sub-cube on the simulator: views[i] is member i's view of the cube's group.
  static std::vector<Group> subcube_all(sim::World& world, std::span<const Group> views,
                                        const std::vector<bool>& free);
  // Where member `rank` of a cube of `dims` dimensions goes.
  static Split subcube_split(int dims, int rank, const std::vector<bool>& free);

 private:
  Group group_;
  int dims_ = 0;
};

}  // namespace ccl::grids
