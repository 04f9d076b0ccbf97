// The group structures on the simulator, at hundreds to thousands of members: 2D grids, sub-cubes
// of hypercubes, lines and slabs of tori hold the right members in the right order, and the
// collectives run on them.
#include <gtest/gtest.h>

#include <map>
#include <numeric>

#include "../common/collective_cases.hpp"
#include "../common/grid_checks.hpp"
#include "../common/sim_runner.hpp"
#include "ccl/grids/grid2d.hpp"
#include "ccl/grids/hypercube.hpp"
#include "ccl/grids/torus.hpp"
#include "ccl/selection.hpp"
#include "ccl/sim.hpp"

using ccl::grids::Cartesian;

namespace {

std::vector<int> identity(int n) {
  std::vector<int> v(static_cast<std::size_t>(n));
  std::iota(v.begin(), v.end(), 0);
  return v;
}

// Every member's view of its sub-group, sorted into one runner per group (keyed by PGID).
std::vector<SimRunner> runners(const std::vector<ccl::Group>& views) {
  std::map<ccl::Pgid, std::vector<ccl::Group>> by_pgid;
  for (const auto& g : views) by_pgid[g.pgid()].push_back(g);
  std::vector<SimRunner> out;
  for (auto& [pgid, gs] : by_pgid) {
    std::sort(gs.begin(), gs.end(),
              [](const auto& a, const auto& b) { return a.rank() < b.rank(); });
    out.push_back(SimRunner{gs});
  }
  return out;
}

}  // namespace

TEST(SimGrids, Grid2DRowsAndColumnsOfLargeGroups) {
  for (auto [rows, cols] : {std::pair{30, 40}, {25, 40}, {127, 1}, {1, 7}, {16, 16}}) {
    const int P = rows * cols;
    ccl::sim::World world(P);
    const auto w = world.world_groups();
    const auto grids = ccl::grids::Grid2D::form_all(world, w, rows, cols);
    const Cartesian shape({rows, cols});
    const auto all = identity(P);
    for (int r = 0; r < P; ++r) {
      const auto& g = grids[static_cast<std::size_t>(r)];
      ASSERT_EQ(g.row(), r / cols);
      ASSERT_EQ(g.col(), r % cols);
      ASSERT_EQ(g.rank_of(g.row(), g.col()), r);
      grid_checks::expect_sub_group(g.row_group(), r, all, shape, {false, true});
      grid_checks::expect_sub_group(g.column_group(), r, all, shape, {true, false});
    }
    std::vector<ccl::Group> row_views, column_views;
    for (const auto& g : grids) {
      row_views.push_back(g.row_group());
      column_views.push_back(g.column_group());
    }
    for (auto& run : runners(row_views)) cases::combine_matrix(run, 3);
    for (auto& run : runners(column_views)) cases::concat(run, 2);
  }
}

TEST(SimGrids, HypercubeSubcubesOf1024) {
  const int P = 1024;
  ccl::sim::World world(P);
  const auto w = world.world_groups();
  const ccl::grids::Hypercube cube(w[5]);
  EXPECT_EQ(cube.dims(), 10);
  for (int i = 0; i < 10; ++i) EXPECT_EQ(cube.neighbour(i), 5 ^ (1 << i));
  const auto all = identity(P);
  for (const std::vector<bool>& free :
       {std::vector<bool>{true, false, true, false, true, false, true, false, true, false},
        std::vector<bool>(10, false), std::vector<bool>(10, true),
        std::vector<bool>{false, false, false, false, false, false, false, true, true, true}}) {
    const auto subs = ccl::grids::Hypercube::subcube_all(world, w, free);
    for (int r = 0; r < P; ++r)
      grid_checks::expect_subcube(subs[static_cast<std::size_t>(r)], r, all, free);
    for (auto& run : runners(subs)) cases::combine_sum(run, 2);
  }
}

TEST(SimGrids, TorusLinesAndSlabs) {
  // (A simulated partition is a real concat of P entries: P^2 of them, so shapes stay below
  // 2000 members here; 2x2x2x6x6x6 stands for QCDOC's 2x2x2xLxMxN.)
  for (const char* text : {"8x8x8", "4x4x4", "6x6x6x6", "4x4x8", "2x2x2x6x6x6"}) {
    const Cartesian shape = Cartesian::parse(text);
    const int P = shape.size();
    ccl::sim::World world(P);
    const auto w = world.world_groups();
    const auto all = identity(P);
    for (int d = 0; d < shape.ndims(); ++d) {
      const auto line_flags = ccl::grids::Torus::line_flags(shape.ndims(), d);
      const auto lines = ccl::grids::Torus::sub_all(world, w, shape, line_flags);
      for (int r = 0; r < P; ++r) {
        const ccl::Group& line = lines[static_cast<std::size_t>(r)];
        grid_checks::expect_sub_group(line, r, all, shape, line_flags);
        // A line's group ranks are the coordinates along d: its ring neighbours are the torus's.
        const ccl::grids::Torus t(w[static_cast<std::size_t>(r)], shape);
        ASSERT_EQ(line.world_rank_of((line.rank() + 1) % line.size()), t.neighbour(d, +1)) << text;
      }
      for (auto& run : runners(lines)) cases::shift(run, 2, 1);
      const auto slab_flags = ccl::grids::Torus::slab_flags(shape.ndims(), d);
      const auto slabs = ccl::grids::Torus::sub_all(world, w, shape, slab_flags);
      for (int r = 0; r < P; ++r)
        grid_checks::expect_sub_group(slabs[static_cast<std::size_t>(r)], r, all, shape,
                                      slab_flags);
      for (auto& run : runners(slabs)) cases::concat(run, 1);
    }
  }
}

TEST(SimGrids, TorusAllgathersAreCorrectAndCostWhatTheyState) {
  // The QCDOC and the multi-link schemes on tori of every kind: odd and even rings, size-2
  // dimensions (both links reach one neighbour), unequal dimensions, a size-1 dimension, and
  // QCDOC's 2x2x2xLxMxN form.
  ccl::set_override(ccl::CollKind::concat, "");
  for (const char* text : {"5", "6", "4x4", "3x5", "2x4", "2x2x2", "4x4x4", "3x3x3", "1x4x3",
                           "2x2x2x4x4x4", "6x6x6"}) {
    const Cartesian shape = Cartesian::parse(text);
    const int P = shape.size();
    ccl::sim::World world(P);
    const auto w = world.world_groups();
    for (const auto& g : w) ccl::grids::Torus(g, shape);
    for (const char* name : {"torus_qcdoc", "torus_multilink"}) {
      ccl::set_override(ccl::CollKind::concat, name);
      for (std::size_t n : {std::size_t{1}, std::size_t{3}, std::size_t{8}}) {
        SimRunner run{w};
        cases::concat(run, n);
        ccl::Cost measured;
        for (int r = 0; r < P; ++r)
          measured = longest(measured, world.statistics(r).last_critical_path);
        ccl::Shape s;
        s.kind = ccl::CollKind::concat;
        s.size = P;
        s.elem = sizeof(std::int64_t);
        s.count = n;
        s.torus.assign(shape.dims().begin(), shape.dims().end());
        const ccl::Algorithm* a = ccl::find_algorithm(ccl::CollKind::concat, name);
        ASSERT_NE(a, nullptr);
        EXPECT_EQ(measured, a->cost(s, {}))
            << name << " " << text << ", " << n << " elements: measured " << measured.str();
        EXPECT_EQ(world.statistics(0).of(ccl::CollKind::concat).algorithm, name);
      }
      ccl::set_override(ccl::CollKind::concat, "");
    }
  }
}

TEST(SimGrids, ConcatOnATorusGroupChoosesTheMultilinkSchemeWhenLinksRunAtOnce) {
  // No override: selection alone. On a machine whose links run at once the multi-link scheme's
  // multi-port cost wins at 8 KiB per member; on a one-port machine it does not.
  const Cartesian shape = Cartesian::parse("4x4x4");
  ccl::sim::World world(shape.size());
  const auto w = world.world_groups();
  for (const auto& g : w) ccl::grids::Torus(g, shape);
  ccl::set_machine_model(ccl::MachineModel{6.6e-7, 2e-9, 1e-10, "torus machine", {}, true, {}});
  SimRunner run{w};
  cases::concat(run, 1024);
  EXPECT_EQ(world.statistics(0).of(ccl::CollKind::concat).algorithm, "torus_multilink");
  ccl::set_machine_model(ccl::MachineModel{6.6e-7, 2e-9, 1e-10, "one-port machine", {}, false, {}});
  cases::concat(run, 1024);
  EXPECT_NE(world.statistics(0).of(ccl::CollKind::concat).algorithm.substr(0, 5), "torus");
  ccl::set_machine_model(ccl::default_machine_model());
}
