// Every collective over MPI, on the world group and on partitioned sub-groups (rows and columns
// of a 2D split, odd/even ranks in reverse order, an explicit list), at lengths 0, 1, below and
// above the group size, and at 1 MiB per member.
#include <gtest/gtest.h>

#include <numeric>

#include "../common/collective_cases.hpp"
#include "../common/mpi_runner.hpp"

namespace {

std::vector<std::size_t> lengths(int p) {
  const auto n = static_cast<std::size_t>(p);
  return {0, 1, n > 1 ? n - 1 : 0, n + 3};
}

TEST(MpiCollectives, WorldGroup) {
  MpiRunner run{ccl::world()};
  cases::all(run, lengths(run.size()), {0, 1, 3});
}

TEST(MpiCollectives, RowsAndColumnsOfA2DSplit) {
  const ccl::Group w = ccl::world();
  const int c = grid_columns(w.size());
  const ccl::Group row = ccl::partition(w, w.rank() / c, w.rank(), "row");
  const ccl::Group col = ccl::partition(w, w.rank() % c, w.rank(), "col");
  EXPECT_EQ(row.rank(), w.rank() % c);
  EXPECT_EQ(col.rank(), w.rank() / c);
  MpiRunner rows{row}, cols{col};
  cases::all(rows, lengths(rows.size()), {0, 2});
  cases::all(cols, lengths(cols.size()), {0, 2});
}

TEST(MpiCollectives, OddEvenGroupsRankedByDescendingKey) {
  const ccl::Group w = ccl::world();
  const ccl::Group g = ccl::partition(w, w.rank() % 2, -w.rank());
  // Highest world rank first.
  std::vector<int> expected;
  for (int r = w.size() - 1; r >= 0; --r) {
    if (r % 2 == w.rank() % 2) expected.push_back(r);
  }
  EXPECT_EQ(std::vector<int>(g.members().begin(), g.members().end()), expected);
  MpiRunner run{g};
  cases::all(run, lengths(run.size()), {1, 2});
}

TEST(MpiCollectives, ExplicitGroupOfEveryThirdRank) {
  const ccl::Group w = ccl::world();
  std::vector<int> list;
  for (int r = w.size() - 1; r >= 0; --r) {
    if (r % 3 == w.rank() % 3) list.push_back(r);
  }
  const ccl::Group g = ccl::group(list, "third");
  EXPECT_EQ(g.size(), static_cast<int>(list.size()));
  EXPECT_EQ(g.world_rank_of(g.rank()), w.rank());
  MpiRunner run{g};
  cases::all(run, {0, 1, 5}, {0, 2});
}

TEST(MpiCollectives, OneMebibytePerMember) {
  MpiRunner run{ccl::world()};
  const std::size_t n = (1u << 20) / sizeof(std::int64_t);  // 1 MiB of int64
  const int P = run.size();
  cases::bcast(run, n, P - 1);
  cases::reduce_sum(run, n, P / 2);
  cases::reduce_matrix(run, n / 4, P - 1);  // 1 MiB of 32-byte matrices
  cases::combine_sum(run, n);
  cases::combine_matrix(run, n / 4);
  cases::combine_double_bits(run, n);
  cases::prefix_matrix(run, n / 4);
  cases::shift(run, n, 1);
  cases::scatter(run, n, P / 2);
  cases::gather(run, n, P - 1);
  cases::concat(run, n);
  cases::index(run, n / static_cast<std::size_t>(P) + 1);
  cases::in_place(run, n / static_cast<std::size_t>(P) + 1);
}

}  // namespace
