// Overrides from the environment (CCL_ALGO_<COLL>), from a file (CCL_ALGO_FILE) and the machine
// model from CCL_MODEL; ctest runs this binary with those variables set.
#include <gtest/gtest.h>

#include "ccl/selection.hpp"

namespace {

ccl::Shape shape(ccl::CollKind k, int n, std::size_t count) {
  ccl::Shape s;
  s.kind = k;
  s.size = n;
  s.elem = 8;
  s.count = count;
  return s;
}

TEST(SelectionEnvironment, EnvironmentBeatsFileBeatsModel) {
  EXPECT_EQ(ccl::select(shape(ccl::CollKind::concat, 6, 100)).str(), "ring");
  EXPECT_EQ(ccl::selection_reason(shape(ccl::CollKind::concat, 6, 100)),
            "override CCL_ALGO_CONCAT");
  EXPECT_EQ(ccl::select(shape(ccl::CollKind::bcast, 6, 100000)).str(), "chain:seg=8192");
  EXPECT_NE(ccl::selection_reason(shape(ccl::CollKind::bcast, 6, 1)).find("algos.txt:2"),
            std::string::npos);
  EXPECT_EQ(ccl::select(shape(ccl::CollKind::combine, 6, 100)).str(), "ring");
  EXPECT_EQ(ccl::select(shape(ccl::CollKind::concatv, 6, 0)).str(), "ring");  // concat's override
}

TEST(SelectionEnvironment, ModelFromFile) {
  EXPECT_DOUBLE_EQ(ccl::machine_model().alpha, 2.5e-6);
  EXPECT_NE(ccl::machine_model().source.find("model.txt"), std::string::npos);
}

}  // namespace
