// Nonblocking collectives on the simulator: overlapping outstanding collectives on overlapping
// groups, started in a per-member order and waited in another, all complete and are correct;
// a member that never starts its part is reported as a deadlock instead of hanging.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>

#include "../common/reference.hpp"
#include "ccl/ccl.hpp"

namespace {

using I64 = std::int64_t;

TEST(SimNonblocking, OverlappingGroupsCompleteInAnyWaitOrder) {
  const int P = 30, C = 6;
  ccl::sim::World world(P);
  const auto w = world.world_groups();
  std::vector<int> rc(P), cc(P), key(P);
  for (int r = 0; r < P; ++r) {
    rc[static_cast<std::size_t>(r)] = r / C;
    cc[static_cast<std::size_t>(r)] = r % C;
    key[static_cast<std::size_t>(r)] = r;
  }
  const auto rows = world.partition(w, rc, key);
  const auto cols = world.partition(w, cc, key);

  std::vector<std::vector<I64>> a_in(P), a_out(P), b_in(P), b_out(P), c_in(P), c_out(P);
  std::vector<std::vector<ccl::Request>> req(P);
  for (int r = 0; r < P; ++r) {
    const auto u = static_cast<std::size_t>(r);
    a_in[u] = ref::data(rows[u].rank(), 9);
    a_out[u].assign(9, 0);
    b_in[u] = ref::data(cols[u].rank(), 2);
    b_out[u].assign(2 * static_cast<std::size_t>(cols[u].size()), 0);
    c_in[u] = ref::data(r, 4);
    c_out[u].assign(4, 0);
    // Every member starts the three collectives in program order.
    req[u].push_back(ccl::icombine(rows[u], a_in[u], a_out[u], ccl::sum));
    req[u].push_back(ccl::iconcat(cols[u], b_in[u], b_out[u]));
    req[u].push_back(ccl::iprefix(w[u], c_in[u], c_out[u], ccl::sum));
  }
  // Members wait in different orders.
  std::mt19937 rng(5);
  for (int r = P - 1; r >= 0; --r) {
    auto& rr = req[static_cast<std::size_t>(r)];
    std::vector<std::size_t> order{0, 1, 2};
    std::shuffle(order.begin(), order.end(), rng);
    for (std::size_t i : order) rr[i].wait();
  }
  for (int r = 0; r < P; ++r) {
    const auto u = static_cast<std::size_t>(r);
    EXPECT_EQ(a_out[u], ref::sum(rows[u].size(), 9));
    EXPECT_EQ(b_out[u], ref::blocks(cols[u].size(), 2));
    EXPECT_EQ(c_out[u], ref::sum(r + 1, 4));
  }
}

TEST(SimNonblocking, MissingMemberIsADeadlockError) {
  ccl::sim::World world(5);
  const auto w = world.world_groups();
  std::vector<std::vector<I64>> in(5, std::vector<I64>(2, 1)), out(5, std::vector<I64>(2));
  std::vector<ccl::Request> req;
  for (int r = 0; r < 4; ++r) {  // member 4 never calls
    req.push_back(ccl::icombine(w[static_cast<std::size_t>(r)], in[static_cast<std::size_t>(r)],
                                out[static_cast<std::size_t>(r)], ccl::sum));
  }
  try {
    req[0].wait();
    FAIL() << "expected a deadlock error";
  } catch (const ccl::Error& e) {
    EXPECT_NE(std::string(e.what()).find("deadlock"), std::string::npos) << e.what();
  }
  for (std::size_t r = 1; r < req.size(); ++r) EXPECT_THROW(req[r].wait(), ccl::Error);
}

TEST(SimNonblocking, RepeatedShapesReuseOneSchedule) {
  ccl::sim::World world(9);
  const auto w = world.world_groups();
  std::vector<std::vector<I64>> in(9), out(9);
  world.reset_statistics();
  for (int iter = 0; iter < 50; ++iter) {
    std::vector<ccl::Request> req;
    for (int r = 0; r < 9; ++r) {
      in[static_cast<std::size_t>(r)] = ref::data(r, 6, iter);
      out[static_cast<std::size_t>(r)].assign(6, 0);
      req.push_back(ccl::icombine(w[static_cast<std::size_t>(r)], in[static_cast<std::size_t>(r)],
                                  out[static_cast<std::size_t>(r)], ccl::sum));
    }
    ccl::wait_all(req);
    std::vector<I64> expect(6, 0);
    for (int m = 0; m < 9; ++m) {
      for (std::size_t i = 0; i < 6; ++i) expect[i] += ref::value(m, i, iter);
    }
    EXPECT_EQ(out[3], expect);
  }
  for (int r = 0; r < 9; ++r) {
    EXPECT_EQ(world.statistics(r).schedules_built, 1u) << "member " << r;
    EXPECT_EQ(world.statistics(r).of(ccl::CollKind::combine).calls, 50u);
  }
}

}  // namespace

namespace {

// Persistent calls on hundreds of members: bound once, started every round with new data,
// beside a nonblocking call on a sub-group, and waited in reverse member order.
TEST(SimPersistent, RoundsOnManyMembers) {
  const int P = 513;
  ccl::sim::World world(P);
  const auto w = world.world_groups();
  std::vector<int> half(P), key(P);
  for (int r = 0; r < P; ++r) {
    half[static_cast<std::size_t>(r)] = r % 2;
    key[static_cast<std::size_t>(r)] = -r;  // reversed rank order in the sub-groups
  }
  const auto parity = world.partition(w, half, key);
  const std::size_t n = 5;
  std::vector<std::vector<I64>> in(P, std::vector<I64>(n)), out(P, std::vector<I64>(n));
  std::vector<std::vector<I64>> pre(P, std::vector<I64>(n)), cat(P);
  std::vector<std::vector<I64>> sub_in(P), sub_out(P);
  std::vector<std::vector<ccl::Persistent>> calls(P);
  for (int r = 0; r < P; ++r) {
    const auto u = static_cast<std::size_t>(r);
    cat[u].assign(2 * static_cast<std::size_t>(P), 0);
    calls[u].push_back(ccl::combine_init(w[u], in[u], out[u], ccl::sum));
    calls[u].push_back(ccl::prefix_init(w[u], in[u], pre[u], ccl::sum));
    calls[u].push_back(ccl::concat_init(w[u], std::span<const I64>(in[u]).first(2), cat[u]));
  }
  for (int round = 0; round < 3; ++round) {
    std::vector<ccl::Request> sub(P);
    for (int r = 0; r < P; ++r) {
      const auto u = static_cast<std::size_t>(r);
      const std::vector<I64> d = ref::data(r, n, round);
      std::copy(d.begin(), d.end(), in[u].begin());
      ccl::start_all(calls[u]);
      sub_in[u] = ref::data(parity[u].rank(), 1);
      sub_out[u].assign(1, 0);
      sub[u] = ccl::icombine(parity[u], sub_in[u], sub_out[u], ccl::sum);
    }
    for (int r = P - 1; r >= 0; --r) {
      for (ccl::Persistent& c : calls[static_cast<std::size_t>(r)]) c.wait();
      sub[static_cast<std::size_t>(r)].wait();
    }
    for (int r = 0; r < P; ++r) {
      const auto u = static_cast<std::size_t>(r);
      std::vector<I64> all = ref::sum(P, n), upto = ref::sum(r + 1, n);
      for (I64& x : all) x += static_cast<I64>(P) * round * 31;
      for (I64& x : upto) x += static_cast<I64>(r + 1) * round * 31;
      ASSERT_EQ(out[u], all) << "member " << r << " round " << round;
      ASSERT_EQ(pre[u], upto) << "member " << r << " round " << round;
      ASSERT_EQ(cat[u], ref::blocks(P, 2, round)) << "member " << r << " round " << round;
      ASSERT_EQ(sub_out[u], ref::sum(parity[u].size(), 1));
    }
  }
}

}  // namespace
