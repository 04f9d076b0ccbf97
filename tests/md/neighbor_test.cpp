// The cell-list neighbour list holds exactly the pairs (with their periodic images) that a
// brute-force search over all pairs and images finds, each once, for boxes of 1 to 4 cells per
// axis and atoms anywhere in the box.
#include <gtest/gtest.h>

#include <random>
#include <set>
#include <tuple>

#include "md/neighbor.hpp"

namespace {

using Entry =
    std::tuple<std::size_t, std::size_t, int, int, int>;  // (min, max atom, image of max rel. min)

std::set<Entry> listed(const md::NeighborList& list, const md::Positions& x, const md::Vec3& len) {
  std::set<Entry> out;
  for (std::size_t row = 0; row < list.rows(); ++row) {
    const std::size_t i = list.row_begin() + row;
    for (std::size_t k = list.offsets(row); k < list.offsets(row + 1); ++k) {
      const auto j = std::size_t(list.neighbors(k) / md::NeighborList::kImages);
      const auto image = std::size_t(list.neighbors(k) % md::NeighborList::kImages);
      int m[3];
      for (std::size_t d = 0; d < 3; ++d)
        m[d] = static_cast<int>(std::lround(list.shifts(image, d) / len[d]));
      // Record as (lower, higher, image of higher as seen from lower).
      const Entry e = i < j ? Entry{i, j, m[0], m[1], m[2]} : Entry{j, i, -m[0], -m[1], -m[2]};
      EXPECT_TRUE(out.insert(e).second) << "pair listed twice";
      (void)x;
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
    const std::set<Entry> got = listed(list, x, len), expected = brute_force(x, len, cutoff + skin);
    EXPECT_EQ(got.size(), expected.size())
        << "box " << len[0] << " x " << len[1] << " x " << len[2];
    EXPECT_TRUE(got == expected);
  }
}

}  // namespace
