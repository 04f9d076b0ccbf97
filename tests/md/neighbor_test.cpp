// The cell-list neighbour list holds exactly the pairs (with their periodic images) that a
// brute-force search over all pairs and images finds, each once, for boxes of 1 to 4 cells per
// axis and atoms anywhere in the box; the full list (owner-computes) holds each such pair once in
// the row of each of its atoms.
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <set>
#include <tuple>

#include "md/neighbor.hpp"

namespace {

using Entry =
    std::tuple<std::size_t, std::size_t, int, int, int>;  // (min, max atom, image of max rel. min)

// Entry k of the list (in row `row`), as (lower, higher, image of higher as seen from lower).
Entry entry_at(const md::NeighborList& list, std::size_t row, std::size_t k, const md::Vec3& len) {
  const std::size_t i = list.row_begin() + row;
  const auto j = std::size_t(list.neighbors(k) / md::NeighborList::kImages);
  const auto image = std::size_t(list.neighbors(k) % md::NeighborList::kImages);
  int m[3];
  for (std::size_t d = 0; d < 3; ++d)
    m[d] = static_cast<int>(std::lround(list.shifts(image, d) / len[d]));
  return i < j ? Entry{i, j, m[0], m[1], m[2]} : Entry{j, i, -m[0], -m[1], -m[2]};
}

std::set<Entry> listed(const md::NeighborList& list, const md::Vec3& len) {
  std::set<Entry> out;
  for (std::size_t row = 0; row < list.rows(); ++row) {
    for (std::size_t k = list.offsets(row); k < list.offsets(row + 1); ++k) {
      EXPECT_TRUE(out.insert(entry_at(list, row, k, len)).second) << "pair listed twice";
    }
  }
  return out;
}

std::set<Entry> brute_force(const md::Positions& x, const md::Vec3& len, double cut) {
  std::set<Entry> out;
  const std::size_t n = x.extent(0);
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = i + 1; j < n; ++j) {
      for (int mx = -2; mx <= 2; ++mx) {
        for (int my = -2; my <= 2; ++my) {
          for (int mz = -2; mz <= 2; ++mz) {
            const double dx = x(i, 0) - x(j, 0) - mx * len[0], dy = x(i, 1) - x(j, 1) - my * len[1],
                         dz = x(i, 2) - x(j, 2) - mz * len[2];
            if (dx * dx + dy * dy + dz * dz < cut * cut) out.insert(Entry{i, j, mx, my, mz});
          }
        }
      }
    }
  }
  return out;
}

TEST(NeighborList, MatchesAllPairsForAnyNumberOfCellsPerAxis) {
  const double cutoff = 4.0, skin = 1.0;
  // 5 Å of list cut-off, cells at least 2.5 Å: from 2 cells (searched whole, every image) to 10
  // along the axes of these boxes; the last has the benchmark deck's proportions (L/rc = 4.5).
  for (const md::Vec3 len : {md::Vec3{5.5, 10, 10}, md::Vec3{11, 16, 21},
                             md::Vec3{20.5, 10.2, 15.3}, md::Vec3{18.05, 18.05, 18.05}}) {
    std::mt19937_64 random(7);
    std::uniform_real_distribution<double> u(0, 1);
    const std::size_t n = 300;
    md::Positions x("x", n);
    for (std::size_t i = 0; i < n; ++i) {
      for (std::size_t d = 0; d < 3; ++d)
        x(i, d) = -3.0 + u(random) * len[d];  // the box is [−3, L − 3)
    }
    md::NeighborList list(cutoff, skin);
    list.build(x, {-3, -3, -3}, len, 0, n);
    const std::set<Entry> got = listed(list, len), expected = brute_force(x, len, cutoff + skin);
    EXPECT_EQ(got.size(), expected.size())
        << "box " << len[0] << " x " << len[1] << " x " << len[2];
    EXPECT_TRUE(got == expected);
  }
}

// A full list of rows [first, last): a pair appears in its first atom's row and in its second's,
// once in each that is a row (as (lower, higher, image) here), and no other entry is listed.
TEST(NeighborList, FullListHoldsEveryPartnerOfEachRow) {
  const double cutoff = 4.0, skin = 1.0;
  for (const md::Vec3 len : {md::Vec3{5.5, 10, 10}, md::Vec3{18.05, 18.05, 18.05}}) {
    std::mt19937_64 random(11);
    std::uniform_real_distribution<double> u(0, 1);
    const std::size_t n = 300, first = 100, last = 220;
    md::Positions x("x", n);
    for (std::size_t i = 0; i < n; ++i) {
      for (std::size_t d = 0; d < 3; ++d) x(i, d) = u(random) * len[d];
    }
    md::NeighborList list(cutoff, skin, true);
    list.build(x, {0, 0, 0}, len, first, last);
    std::map<Entry, int> got;
    for (std::size_t row = 0; row < list.rows(); ++row) {
      for (std::size_t k = list.offsets(row); k < list.offsets(row + 1); ++k) {
        const Entry e = entry_at(list, row, k, len);
        ASSERT_NE(std::get<0>(e), std::get<1>(e)) << "an atom listed as its own partner";
        ++got[e];
      }
    }
    std::map<Entry, int> expected;
    auto in_rows = [&](std::size_t a) { return a >= first && a < last ? 1 : 0; };
    for (const Entry& e : brute_force(x, len, cutoff + skin)) {
      const int times = in_rows(std::get<0>(e)) + in_rows(std::get<1>(e));
      if (times > 0) expected[e] = times;
    }
    EXPECT_EQ(got.size(), expected.size()) << "box " << len[0];
    EXPECT_TRUE(got == expected) << "box " << len[0];
  }
}

}  // namespace
