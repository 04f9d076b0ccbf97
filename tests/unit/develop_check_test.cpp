// The develop-mode comparison of call descriptors and the local buffer checks.
#include <gtest/gtest.h>

#include "ccl/reduce_op.hpp"
#include "diagnostics/develop_check.hpp"

namespace {

using namespace ccl::detail;

GroupState group_of(int n) {
  GroupState g;
  g.members.resize(static_cast<std::size_t>(n));
  g.set_label("rows");
  g.pgid = ccl::Pgid{3, 7, 0};
  return g;
}

Call combine_call(std::size_t n) {
  Call c;
  c.kind = ccl::CollKind::combine;
  c.elem = 8;
  c.send_elems = c.recv_elems = n;
  c.kernel = ccl::make_kernel<double>(ccl::sum);
  return c;
}

TEST(FindDisagreement, AgreeingCallsPass) {
  const GroupState g = group_of(3);
  const Call c = combine_call(4);
  std::vector<Descriptor> all(3, describe_call(g, c, std::nullopt));
  EXPECT_FALSE(find_disagreement(all, g).has_value());
}

TEST(FindDisagreement, NamesTheFirstDisagreeingRankAndValue) {
  const GroupState g = group_of(4);
  std::vector<Descriptor> all(4, describe_call(g, combine_call(4), std::nullopt));
  all[2] = describe_call(g, combine_call(5), std::nullopt);
  Call maxed = combine_call(4);
  maxed.kernel = ccl::make_kernel<double>(ccl::max);
  all[3] = describe_call(g, maxed, std::nullopt);
  const auto msg = find_disagreement(all, g);
  ASSERT_TRUE(msg.has_value());
  EXPECT_EQ(*msg,
            "ccl develop check: combine on group 'rows' (pgid 3.7): rank 2 passed count 5, rank 0 "
            "passed count 4");
  all[2] = all[0];
  EXPECT_NE(find_disagreement(all, g)->find(
                "rank 3 passed reduce op 'max', rank 0 passed reduce op 'sum'"),
            std::string::npos);
}

TEST(FindDisagreement, ReportsLocalProblems) {
  const GroupState g = group_of(2);
  std::vector<Descriptor> all(2, describe_call(g, combine_call(4), std::nullopt));
  all[1] = describe_call(g, combine_call(4), Problem{ProblemCode::recv_length, 3, 4});
  EXPECT_NE(find_disagreement(all, g)->find("rank 1: recv buffer holds 3 elements, needs 4"),
            std::string::npos);
}

TEST(CheckCall, AliasingRules) {
  std::vector<double> buf(16);
  bool in_place = false;
  Call c = combine_call(4);
  c.send = reinterpret_cast<const std::byte*>(buf.data());
  c.recv = reinterpret_cast<std::byte*>(buf.data());
  EXPECT_FALSE(check_call(c, 2, 0, in_place).has_value());
  EXPECT_TRUE(in_place);
  c.recv = reinterpret_cast<std::byte*>(buf.data() + 2);
  EXPECT_EQ(check_call(c, 2, 0, in_place)->code, ProblemCode::aliasing);

  Call cat;
  cat.kind = ccl::CollKind::concat;
  cat.elem = 8;
  cat.send_elems = 4;
  cat.recv_elems = 16;
  cat.recv = reinterpret_cast<std::byte*>(buf.data());
  cat.send = reinterpret_cast<const std::byte*>(buf.data() + 8);  // rank 2's own block
  EXPECT_FALSE(check_call(cat, 4, 2, in_place).has_value());
  EXPECT_EQ(check_call(cat, 4, 1, in_place)->code, ProblemCode::aliasing);
}

TEST(CheckCall, LengthsAndRoots) {
  bool in_place = false;
  Call c;
  c.kind = ccl::CollKind::scatter;
  c.elem = 4;
  c.root = 1;
  c.recv_elems = 3;
  c.send_elems = 8;
  EXPECT_EQ(check_call(c, 3, 1, in_place)->code, ProblemCode::send_length);
  EXPECT_FALSE(check_call(c, 3, 0, in_place).has_value());  // only the root's send matters
  c.root = 3;
  EXPECT_EQ(check_call(c, 3, 0, in_place)->code, ProblemCode::bad_root);
  Call v;
  v.kind = ccl::CollKind::gatherv;
  v.counts = {1, 2};
  v.send_elems = 2;
  EXPECT_EQ(check_call(v, 3, 0, in_place)->code, ProblemCode::counts_length);
  v.counts = {1, 2, 3};
  EXPECT_EQ(check_call(v, 3, 0, in_place)->code, ProblemCode::own_count);
}

}  // namespace
