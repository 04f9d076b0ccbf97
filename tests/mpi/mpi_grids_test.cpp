// The group structures on MPI, at every size the suite runs (1..8 ranks): every 2D grid the size
// allows, the hypercube when it is a power of two, tori of the balanced shape and, on 8 ranks,
// 2x2x2, 2x4 and 8. Each sub-group holds the right members and runs a collective.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "../common/collective_cases.hpp"
#include "../common/grid_checks.hpp"
#include "../common/mpi_runner.hpp"
#include "ccl/grids/grid2d.hpp"
#include "ccl/grids/hypercube.hpp"
#include "ccl/grids/torus.hpp"
#include "ccl/selection.hpp"

using ccl::grids::Cartesian;

// First in this file, before any test declares a layout on the world. With CCL_TORUS set for
// the job (mpi_job_torus_np8: 2x2x2) the world is that torus and sub-groups that are sub-tori of
// it inherit theirs: partitions by a coordinate (slabs), and a grid's rows. Unset, no group has
// a layout, and a partition inherits none.
TEST(MpiGrids, JobTorusFromTheEnvironment) {
  const ccl::Group w = ccl::world();
  const char* job = std::getenv("CCL_TORUS");
  const int r = w.rank();
  if (job == nullptr) {
    EXPECT_TRUE(w.torus().empty());
    const ccl::Group half = ccl::partition(w, r % 2, r);
    EXPECT_TRUE(half.torus().empty()) << "a plain group's partition has no layout";
    return;
  }
  ASSERT_EQ(std::string(job), "2x2x2") << "mpi_job_torus_np8 sets this shape";
  ASSERT_EQ(w.size(), 8);
  EXPECT_EQ(std::vector<int>(w.torus().begin(), w.torus().end()), (std::vector<int>{2, 2, 2}));
  const ccl::Group same_z = ccl::partition(w, r % 2, r);  // x and y free
  EXPECT_EQ(std::vector<int>(same_z.torus().begin(), same_z.torus().end()),
            (std::vector<int>{2, 2}));
  const ccl::Group reversed = ccl::partition(w, r % 2, -r);  // the same members, out of order
  EXPECT_TRUE(reversed.torus().empty());
  const ccl::grids::Grid2D grid(w, 2, 4);  // rows: x fixed, (y, z) free
  EXPECT_EQ(std::vector<int>(grid.row_group().torus().begin(), grid.row_group().torus().end()),
            (std::vector<int>{2, 2}));
  // Collectives on the inherited layouts, model-chosen, with the torus algorithms known.
  ccl::grids::register_torus_algorithms();
  for (const ccl::Group& g : {w, same_z, grid.row_group()}) {
    MpiRunner run{g};
    for (std::size_t n : {std::size_t{1}, std::size_t{7}, std::size_t{5000}}) cases::concat(run, n);
  }
}

TEST(MpiGrids, EveryGrid2DOfTheWorld) {
  const ccl::Group w = ccl::world();
  const int P = w.size();
  for (int rows = 1; rows <= P; ++rows) {
    if (P % rows != 0) continue;
    const int cols = P / rows;
    const ccl::grids::Grid2D g(w, rows, cols);
    EXPECT_EQ(g.row(), w.rank() / cols);
    EXPECT_EQ(g.col(), w.rank() % cols);
    grid_checks::expect_sub_group(g.row_group(), w.rank(), w.members(), Cartesian({rows, cols}),
                                  {false, true});
    grid_checks::expect_sub_group(g.column_group(), w.rank(), w.members(), Cartesian({rows, cols}),
                                  {true, false});
    MpiRunner row{g.row_group()}, column{g.column_group()};
    cases::combine_matrix(row, 3);
    cases::bcast(column, 5, column.size() - 1);
  }
}

TEST(MpiGrids, Grid2DThatDoesNotFitTheWorldIsRefusedOnEveryRank) {
  const ccl::Group w = ccl::world();
  try {
    ccl::grids::Grid2D g(w, w.size() + 1, 1);
    FAIL() << "no error";
  } catch (const ccl::Error& e) {
    EXPECT_NE(std::string(e.what()).find("needs " + std::to_string(w.size() + 1) +
                                         " members; the group has " + std::to_string(w.size())),
              std::string::npos);
  }
}

TEST(MpiGrids, HypercubeSubcubes) {
  const ccl::Group w = ccl::world();
  if ((w.size() & (w.size() - 1)) != 0) {
    EXPECT_THROW(ccl::grids::Hypercube{w}, ccl::Error);
    return;
  }
  const ccl::grids::Hypercube cube(w);
  const int d = cube.dims();
  for (int mask = 0; mask < (1 << d); ++mask) {
    std::vector<bool> free(static_cast<std::size_t>(d));
    for (int i = 0; i < d; ++i) free[static_cast<std::size_t>(i)] = (mask >> i) & 1;
    const ccl::Group sub = cube.subcube(free);
    grid_checks::expect_subcube(sub, w.rank(), w.members(), free);
    MpiRunner run{sub};
    cases::prefix_matrix(run, 2);
  }
}

TEST(MpiGrids, TorusLinesSlabsAndNeighbours) {
  const ccl::Group w = ccl::world();
  std::vector<std::string> shapes{ccl::grids::torus_shape("", w.size(), 3).str()};
  if (w.size() == 8) shapes.insert(shapes.end(), {"2x2x2", "2x4", "8"});
  for (const std::string& text : shapes) {
    const ccl::grids::Torus t(w, ccl::grids::torus_shape(text, w.size()));
    const Cartesian& shape = t.shape();
    for (int d = 0; d < shape.ndims(); ++d) {
      const ccl::Group line = t.line(d), slab = t.slab(d);
      grid_checks::expect_sub_group(line, w.rank(), w.members(), shape,
                                    ccl::grids::Torus::line_flags(shape.ndims(), d));
      grid_checks::expect_sub_group(slab, w.rank(), w.members(), shape,
                                    ccl::grids::Torus::slab_flags(shape.ndims(), d));
      EXPECT_EQ(line.world_rank_of((line.rank() + 1) % line.size()),
                w.world_rank_of(t.neighbour(d, +1)));
      EXPECT_EQ(line.world_rank_of((line.rank() - 1 + line.size()) % line.size()),
                w.world_rank_of(t.neighbour(d, -1)));
      MpiRunner ring{line}, plane{slab};
      cases::shift(ring, 3, 1);
      cases::concat(plane, 2);
    }
  }
}

TEST(MpiGrids, TorusAllgathers) {
  // The QCDOC and multi-link schemes on the balanced tori of every size, and on 8 ranks 2x2x2
  // (three dimensions of size 2: both links of each reach one neighbour), 2x4 and a ring of 8.
  const ccl::Group w = ccl::world();
  std::vector<std::string> shapes{ccl::grids::torus_shape("", w.size(), 3).str(),
                                  ccl::grids::torus_shape("", w.size(), 2).str()};
  if (w.size() == 8) shapes.insert(shapes.end(), {"2x2x2", "2x4", "8"});
  for (const std::string& text : shapes) {
    const ccl::grids::Torus t(w, ccl::grids::torus_shape(text, w.size()));
    for (const char* name : {"torus_qcdoc", "torus_multilink"}) {
      ccl::set_override(ccl::CollKind::concat, name);
      MpiRunner run{w};
      for (std::size_t n : {std::size_t{1}, std::size_t{5}, std::size_t{3000}})
        cases::concat(run, n);
      ccl::set_override(ccl::CollKind::concat, "");
      EXPECT_EQ(ccl::statistics().of(ccl::CollKind::concat).algorithm, name) << text;
    }
  }
}
