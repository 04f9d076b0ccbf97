// A group viewed as a torus d0 × … × d(k−1): group rank ↔ coordinates in row-major order (the
// last dimension varies fastest, as in Cartesian), neighbours ±1 per dimension with wrap-around,
// and sub-partitions as groups: a line (one dimension free: a ring), a slab (one dimension
// fixed), or any sub-torus (a chosen set of free dimensions).
//
//   4x4x2 torus, member (1,2,0) = rank 1·8 + 2·2 + 0 = 12:
//     neighbour(0, +1) = (2,2,0) = 20    neighbour(2, −1) = (1,2,1) = 13
//     line(1) = {8, 10, 12, 14}          slab(2) = the 16 members with z = 0
#pragma once

#include <span>
#include <string_view>
#include <vector>

#include "ccl/grids/cartesian.hpp"
#include "ccl/grids/split.hpp"
#include "ccl/group.hpp"

namespace ccl::grids {

// The torus shape for `size` members: parsed from `text` (the value of a flag such as
// --torus 4x4x2) when it is not empty, else Cartesian::balanced(size, ndims). Throws ccl::Error
// when the parsed shape does not hold exactly `size` members, saying both numbers.
Cartesian torus_shape(std::string_view text, int size, int ndims = 3);

// Adds the torus algorithms (concat: torus_qcdoc) to ccl's catalog; Torus does it itself. Tools
// that only build or price schedules call it directly.
void register_torus_algorithms();

class Torus {
 public:
  // No communication; shape.size() must be g.size(). Declares the layout on g (Group::set_torus)
  // and adds the torus algorithms to ccl's catalog, so that concat on g may choose them: every
  // member constructs its Torus before the group's next concat.
  Torus(const Group& g, Cartesian shape);

  const Group& group() const { return group_; }
  const Cartesian& shape() const { return shape_; }
  std::vector<int> coords() const { return shape_.coords(group_.rank()); }
  int neighbour(int d, int step) const { return shape_.neighbour(group_.rank(), d, step); }

  // My sub-torus as a group; every member calls it with the same flags (a partition: a barrier).
  Group sub(const std::vector<bool>& free) const;
  Group line(int d) const;  // the ring along dimension d through me
  Group slab(int d) const;  // the members sharing my coordinate in dimension d

  // Every member's sub-torus on the simulator: views[i] is member i's view of the torus group.
  static std::vector<Group> sub_all(sim::World& world, std::span<const Group> views,
                                    const Cartesian& shape, const std::vector<bool>& free);
  // Free flags of a line along d, or of a slab across d, in a shape of `ndims` dimensions.
  static std::vector<bool> line_flags(int ndims, int d);
  static std::vector<bool> slab_flags(int ndims, int d);

 private:
  Group group_;
  Cartesian shape_;
};

}  // namespace ccl::grids
