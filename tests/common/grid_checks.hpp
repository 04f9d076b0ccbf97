// Checks of the group structures (grids/), written once for the simulator and MPI tests: the
// group a member got for a sub-shape holds exactly the members it should, in the right order.
#pragma once

#include <gtest/gtest.h>

#include <span>
#include <vector>

#include "ccl/grids/cartesian.hpp"
#include "ccl/group.hpp"

namespace grid_checks {

// Member r of a parent group (parent_members: world ranks by parent rank) laid out as `shape` got
// `view` for the sub-shape with free dimensions `free`: it must hold the members that agree with
// r on every fixed coordinate, ranked row-major over the free ones, and r at its sub-rank.
inline void expect_sub_group(const ccl::Group& view, int r, std::span<const int> parent_members,
                             const ccl::grids::Cartesian& shape, const std::vector<bool>& free) {
  const std::vector<int> mine = shape.coords(r);
  std::vector<int> expected;
  // Enumerate the sub-shape row-major and place each of its members back in the whole shape.
  const ccl::grids::Cartesian sub = shape.sub_shape(free);
  for (int s = 0; s < sub.size(); ++s) {
    const std::vector<int> sc = sub.coords(s);
    std::vector<int> c = mine;
    std::size_t next = 0;
    for (std::size_t d = 0; d < c.size(); ++d) {
      if (free[d]) c[d] = sc[next++];
    }
    expected.push_back(parent_members[static_cast<std::size_t>(shape.rank(c))]);
  }
  const std::vector<int> got(view.members().begin(), view.members().end());
  ASSERT_EQ(got, expected) << "member " << r << " of " << shape.str();
  ASSERT_EQ(view.rank(), shape.sub_rank(r, free)) << "member " << r << " of " << shape.str();
}

// The same for a hypercube's sub-cube: the members agreeing with r on every fixed bit, by rank.
inline void expect_subcube(const ccl::Group& view, int r, std::span<const int> parent_members,
                           const std::vector<bool>& free) {
  int fixed = 0;
  for (std::size_t i = 0; i < free.size(); ++i) {
    if (!free[i]) fixed |= 1 << i;
  }
  std::vector<int> expected;
  for (int q = 0; q < static_cast<int>(parent_members.size()); ++q) {
    if ((q & fixed) == (r & fixed)) expected.push_back(parent_members[static_cast<std::size_t>(q)]);
  }
  const std::vector<int> got(view.members().begin(), view.members().end());
  ASSERT_EQ(got, expected) << "member " << r;
  ASSERT_EQ(view.world_rank_of(view.rank()), parent_members[static_cast<std::size_t>(r)]);
}

}  // namespace grid_checks
