// Partition derivation, explicit-group numbering, and the torus layout sub-groups inherit.
#include <gtest/gtest.h>

#include "ccl/error.hpp"
#include "groups/partition.hpp"

namespace {

using ccl::detail::PartitionEntry;

TEST(DerivePartition, RanksByKeyThenParentRank) {
  // Parent ranks 0..5 at world ranks 10..15.
  const std::vector<PartitionEntry> all{{1, 5, 100}, {0, 9, 200}, {1, 2, 300},
                                        {1, 5, 400}, {0, 1, 500}, {1, -3, 600}};
  const std::vector<int> world{10, 11, 12, 13, 14, 15};
  const auto g = ccl::detail::derive_partition(all, 3, world);
  EXPECT_EQ(g.members, (std::vector<int>{15, 12, 10, 13}));
  EXPECT_EQ(g.rank, 3);
  // The PGID pairs the new leader's world rank with the counter it contributed.
  EXPECT_EQ(g.pgid, (ccl::Pgid{15, 600, 0}));
  const auto h = ccl::detail::derive_partition(all, 1, world);
  EXPECT_EQ(h.members, (std::vector<int>{14, 11}));
  EXPECT_EQ(h.pgid, (ccl::Pgid{14, 500, 0}));
}

TEST(FormExplicit, NumbersRepeatedListsAndChecksThem) {
  ccl::detail::Process p;
  p.world_rank = 2;
  const std::vector<int> list{3, 2, 0};
  const auto a = ccl::detail::form_explicit(p, list, 4);
  const auto b = ccl::detail::form_explicit(p, list, 4);
  EXPECT_EQ(a.rank, 1);
  EXPECT_EQ(a.pgid.leader, 3);
  EXPECT_NE(a.pgid, b.pgid);
  EXPECT_NE(a.pgid.list_hash, 0u);
  EXPECT_THROW(ccl::detail::form_explicit(p, std::vector<int>{0, 1}, 4), ccl::Error);
  EXPECT_THROW(ccl::detail::form_explicit(p, std::vector<int>{2, 2}, 4), ccl::Error);
  EXPECT_THROW(ccl::detail::form_explicit(p, std::vector<int>{2, 4}, 4), ccl::Error);
}

// A 4x3x2 parent at world ranks 100.. (row-major: rank = 6x + 2y + z).
TEST(InheritedTorus, SubToriInRowMajorOrderAndNothingElse) {
  const std::vector<int> dims{4, 3, 2};
  std::vector<int> parent;
  for (int r = 0; r < 24; ++r) parent.push_back(100 + r);
  auto members = [&](auto&& pick) {
    std::vector<int> out;
    for (int x = 0; x < 4; ++x)
      for (int y = 0; y < 3; ++y)
        for (int z = 0; z < 2; ++z)
          if (pick(x, y, z)) out.push_back(100 + 6 * x + 2 * y + z);
    return out;
  };
  using ccl::detail::inherited_torus;
  EXPECT_EQ(inherited_torus(dims, parent, parent), dims) << "the whole parent";
  EXPECT_EQ(inherited_torus(dims, parent, members([](int, int, int z) { return z == 1; })),
            (std::vector<int>{4, 3}))
      << "a slab";
  EXPECT_EQ(
      inherited_torus(dims, parent, members([](int x, int, int z) { return x == 2 && z == 0; })),
      (std::vector<int>{3}))
      << "a line along y";
  EXPECT_EQ(
      inherited_torus(dims, parent, members([](int, int y, int z) { return y == 1 && z == 1; })),
      (std::vector<int>{4}))
      << "a line along x";
  EXPECT_TRUE(
      inherited_torus(dims, parent, members([](int x, int, int z) { return x < 2 && z == 0; }))
          .empty())
      << "half a dimension is not a torus: its ring has no wrap-around link";
  std::vector<int> reversed = members([](int x, int, int z) { return x == 2 && z == 0; });
  std::swap(reversed.front(), reversed.back());
  EXPECT_TRUE(inherited_torus(dims, parent, reversed).empty()) << "members out of row-major order";
  EXPECT_TRUE(inherited_torus(dims, parent, std::vector<int>{100, 101, 999}).empty())
      << "a member outside the parent";
  EXPECT_TRUE(inherited_torus(dims, parent, std::vector<int>{107}).empty()) << "one member";
  EXPECT_TRUE(inherited_torus({}, parent, parent).empty()) << "no layout, nothing to inherit";
}

TEST(ParseTorusDims, DimensionsOrNothing) {
  using ccl::detail::parse_torus_dims;
  EXPECT_EQ(parse_torus_dims("8x8x4"), (std::vector<int>{8, 8, 4}));
  EXPECT_EQ(parse_torus_dims("4x4x4x4x4x4"), (std::vector<int>(6, 4)));
  EXPECT_EQ(parse_torus_dims("16"), (std::vector<int>{16}));
  for (const char* bad : {"", "8x", "x8", "8x0x2", "8xx2", "8*8", "-2x4", "8x8x4 ", "1234567x2"}) {
    EXPECT_TRUE(parse_torus_dims(bad).empty()) << "'" << bad << "'";
  }
}

}  // namespace
