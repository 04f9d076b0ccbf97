// Partition derivation and explicit-group numbering.
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

}  // namespace
