// Cartesian shapes: the documented row-major order, wrap-around, neighbours, balanced shapes,
// parsing with clear errors, and sub-shapes that partition the whole.
#include <gtest/gtest.h>

#include <set>
#include <utility>

#include "ccl/error.hpp"
#include "ccl/grids/cartesian.hpp"
#include "ccl/grids/torus.hpp"

using ccl::grids::Cartesian;

namespace {

const std::vector<std::vector<int>> kShapes{{1},       {7},       {2, 3},
                                            {3, 1, 5}, {4, 4, 2}, {2, 2, 2, 4, 3, 5}};

std::string error_of(auto&& f) {
  try {
    f();
  } catch (const ccl::Error& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

TEST(GridsCartesian, RowMajorOrderLastDimensionFastest) {
  const Cartesian s({2, 3});
  EXPECT_EQ(s.coords(3), (std::vector<int>{1, 0}));
  EXPECT_EQ(s.coords(5), (std::vector<int>{1, 2}));
  const Cartesian t({4, 4, 2});
  EXPECT_EQ(t.rank(std::vector<int>{1, 2, 0}), 12);
  EXPECT_EQ(t.str(), "4x4x2");
}

TEST(GridsCartesian, CoordinatesAndRanksRoundTripAndWrap) {
  for (const auto& dims : kShapes) {
    const Cartesian s(dims);
    for (int r = 0; r < s.size(); ++r) {
      std::vector<int> c = s.coords(r);
      ASSERT_EQ(s.rank(c), r);
      for (std::size_t d = 0; d < c.size(); ++d) {
        c[d] += 3 * dims[d];  // whole laps around the torus change nothing
        ASSERT_EQ(s.rank(c), r);
        c[d] -= 4 * dims[d];
        ASSERT_EQ(s.rank(c), r);
        c[d] += dims[d];
      }
    }
  }
  EXPECT_EQ(Cartesian({2, 3}).rank(std::vector<int>{-1, 0}), 3);
}

TEST(GridsCartesian, NeighboursDifferByOneStepInOneDimension) {
  for (const auto& dims : kShapes) {
    const Cartesian s(dims);
    for (int r = 0; r < s.size(); ++r) {
      for (int d = 0; d < s.ndims(); ++d) {
        const int up = s.neighbour(r, d, +1);
        ASSERT_EQ(s.neighbour(up, d, -1), r);
        const auto a = s.coords(r), b = s.coords(up);
        for (int e = 0; e < s.ndims(); ++e) {
          const int n = s.dim(e);
          const int expected =
              e == d ? (a[static_cast<std::size_t>(e)] + 1) % n : a[static_cast<std::size_t>(e)];
          ASSERT_EQ(b[static_cast<std::size_t>(e)], expected);
        }
      }
    }
  }
}

TEST(GridsCartesian, BalancedShapesAreAsEvenAsMpiDimsCreate) {
  EXPECT_EQ(Cartesian::balanced(12, 2).str(), "4x3");
  EXPECT_EQ(Cartesian::balanced(8, 3).str(), "2x2x2");
  EXPECT_EQ(Cartesian::balanced(7, 2).str(), "7x1");
  EXPECT_EQ(Cartesian::balanced(1, 3).str(), "1x1x1");
  EXPECT_EQ(Cartesian::balanced(64, 3).str(), "4x4x4");
  EXPECT_EQ(Cartesian::balanced(30, 3).str(), "5x3x2");
  for (int p = 1; p <= 300; ++p) {
    for (int k = 1; k <= 4; ++k) ASSERT_EQ(Cartesian::balanced(p, k).size(), p);
  }
}

TEST(GridsCartesian, ParseAcceptsShapesAndNamesBadText) {
  EXPECT_EQ(Cartesian::parse("4x4x2"), Cartesian({4, 4, 2}));
  EXPECT_EQ(Cartesian::parse("2X2*2x10x10x10").size(), 8000);
  EXPECT_EQ(Cartesian::parse("8"), Cartesian({8}));
  for (const char* bad : {"", "4x", "x4", "4x0", "4xa", "4x-1", "4 x4", "4xx4"}) {
    std::string expected = "'";  // (built step by step: GCC 12 warns wrongly on "'" + string)
    expected += bad;
    expected += "' is not a shape";
    EXPECT_NE(error_of([&] { Cartesian::parse(bad); }).find(expected), std::string::npos) << bad;
  }
  EXPECT_NE(error_of([] { Cartesian({3, 0}); }).find("at least 1"), std::string::npos);
}

TEST(GridsCartesian, TorusShapeFromAFlagOrFromTheGroupSize) {
  EXPECT_EQ(ccl::grids::torus_shape("", 32, 3).str(), "4x4x2");
  EXPECT_EQ(ccl::grids::torus_shape("2x4x4", 32, 3).str(), "2x4x4");
  EXPECT_EQ(error_of([] { ccl::grids::torus_shape("4x4x2", 30); }),
            "ccl::grids: torus 4x4x2 has 32 members; the group has 30");
}

TEST(GridsCartesian, SubShapesPartitionTheWhole) {
  for (const auto& dims : kShapes) {
    const Cartesian s(dims);
    const int k = s.ndims();
    for (int mask = 0; mask < (1 << k); ++mask) {
      std::vector<bool> free(static_cast<std::size_t>(k));
      for (int d = 0; d < k; ++d) free[static_cast<std::size_t>(d)] = (mask >> d) & 1;
      const Cartesian sub = s.sub_shape(free);
      std::set<std::pair<int, int>> seen;
      for (int r = 0; r < s.size(); ++r) {
        const int index = s.sub_index(r, free), rank = s.sub_rank(r, free);
        ASSERT_GE(rank, 0);
        ASSERT_LT(rank, sub.size());
        ASSERT_LT(index, s.size() / sub.size());
        ASSERT_TRUE(seen.insert({index, rank}).second) << "two members at one place";
      }
      ASSERT_EQ(static_cast<int>(seen.size()), s.size());
    }
  }
}
