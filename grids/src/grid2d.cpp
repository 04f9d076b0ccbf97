#include "ccl/grids/grid2d.hpp"

#include "ccl/error.hpp"
#include "ccl/grids/split.hpp"

namespace ccl::grids {

namespace {

const std::vector<bool> kRow{false, true};     // a row: the row fixed, the column free
const std::vector<bool> kColumn{true, false};  // a column: the column fixed

}  // namespace

Cartesian Grid2D::checked_shape(int size, int rows, int cols) {
  if (rows < 1 || cols < 1 || static_cast<long long>(rows) * cols != size) {
    throw Error("ccl::grids::Grid2D: a " + std::to_string(rows) + " x " + std::to_string(cols) +
                " grid needs " + std::to_string(static_cast<long long>(rows) * cols) +
                " members; the group has " + std::to_string(size));
  }
  return Cartesian({rows, cols});
}

Grid2D::Grid2D(Group g, Cartesian shape, Group row, Group column)
    : group_(std::move(g)),
      shape_(std::move(shape)),
      row_(std::move(row)),
      column_(std::move(column)) {}

Grid2D::Grid2D(const Group& g, int rows, int cols)
    : group_(g), shape_(checked_shape(g.size(), rows, cols)) {
  const int me = g.rank();
  row_ = form(g, sub_split(shape_, me, kRow), g.label() + " row " + std::to_string(row_of(me)));
  column_ =
      form(g, sub_split(shape_, me, kColumn), g.label() + " column " + std::to_string(col_of(me)));
}

std::vector<Grid2D> Grid2D::form_all(sim::World& world, std::span<const Group> views, int rows,
                                     int cols) {
  const Cartesian shape = checked_shape(static_cast<int>(views.size()), rows, cols);
  const std::vector<Group> row =
      form(world, views, [&](int r) { return sub_split(shape, r, kRow); });
  const std::vector<Group> column =
      form(world, views, [&](int r) { return sub_split(shape, r, kColumn); });
  std::vector<Grid2D> grids;
  for (std::size_t i = 0; i < views.size(); ++i)
    grids.push_back(Grid2D(views[i], shape, row[i], column[i]));
  return grids;
}

int Grid2D::rank_of(int row, int col) const {
  if (row < 0 || row >= rows() || col < 0 || col >= cols()) {
    throw Error("ccl::grids::Grid2D: no position (" + std::to_string(row) + ", " +
                std::to_string(col) + ") in a " + shape_.str() + " grid");
  }
  const int c[] = {row, col};
  return shape_.rank(c);
}

}  // namespace ccl::grids
