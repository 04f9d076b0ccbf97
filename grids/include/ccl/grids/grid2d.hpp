// FORM2DGRID (CCL, Common Group Structures): a group viewed as a rows × cols grid, row-major
// (group rank r sits at row r / cols, column r % cols), partitioned into its rows and its
// columns. Each member gets two new groups: its row (ranked by column) and its column (ranked by
// row), on which every ccl collective runs.
//
//   6 members as 2x3:   row 0: 0 1 2     column 0: 0 3
//                       row 1: 3 4 5     column 1: 1 4    column 2: 2 5
#pragma once

#include <span>
#include <vector>

#include "ccl/grids/cartesian.hpp"
#include "ccl/group.hpp"

namespace ccl::sim {
class World;
}

namespace ccl::grids {

class Grid2D {
 public:
  // Every member of g calls it (two partitions of g: barriers). rows × cols must be g.size().
  Grid2D(const Group& g, int rows, int cols);
  // The same for every member of a simulated group at once: views[i] is member i's view of it.
  static std::vector<Grid2D> form_all(sim::World& world, std::span<const Group> views, int rows,
                                      int cols);

  int rows() const { return shape_.dim(0); }
  int cols() const { return shape_.dim(1); }
  int row() const { return row_of(group_.rank()); }
  int col() const { return col_of(group_.rank()); }
  const Group& group() const { return group_; }
  const Group& row_group() const { return row_; }
  const Group& column_group() const { return column_; }

  // Address conversion between group ranks and grid positions.
  int rank_of(int row, int col) const;
  int row_of(int rank) const { return shape_.coords(rank)[0]; }
  int col_of(int rank) const { return shape_.coords(rank)[1]; }

 private:
  Grid2D(Group g, Cartesian shape, Group row, Group column);
  static Cartesian checked_shape(int size, int rows, int cols);
  Group group_;
  Cartesian shape_;
  Group row_, column_;
};

}  // namespace ccl::grids
