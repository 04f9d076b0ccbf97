// Persistent collectives over MPI: calls bound once and started round after round see each
// round's data, complete in any wait order beside nonblocking and blocking calls, keep rank
// order for a non-commutative operator, and refuse a start while their last round is active.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>

#include "../common/mpi_runner.hpp"
#include "../common/reference.hpp"
#include "ccl/ccl.hpp"

namespace {

using I64 = std::int64_t;

// Refill a bound buffer in place (its address is what the persistent call holds).
void refill(std::vector<I64>& v, const std::vector<I64>& with) {
  ASSERT_EQ(v.size(), with.size());
  std::copy(with.begin(), with.end(), v.begin());
}

std::vector<I64> salted_sum(int upto, std::size_t n, int salt) {
  std::vector<I64> s = ref::sum(upto, n);
  for (I64& x : s) x += static_cast<I64>(upto) * salt * 31;
  return s;
}

TEST(MpiPersistent, RoundsSeeEachRoundsData) {
  const ccl::Group w = ccl::world();
  const int P = w.size(), me = w.rank(), root = P - 1;
  const std::size_t n = 37, big = 5000;  // big: past the shared-memory rings
  std::vector<I64> bc(big), red_in(n), red_out(me == root ? n : 0), all_in(n), all_out(n);
  std::vector<I64> pre_in(n), pre_out(n), sc_in(me == root ? 3 * static_cast<std::size_t>(P) : 0);
  std::vector<I64> sc_out(3), ga_in(4), ga_out(me == root ? 4 * static_cast<std::size_t>(P) : 0);
  std::vector<I64> cat_in(big / 8), cat_out(big / 8 * static_cast<std::size_t>(P));
  std::vector<I64> idx_in(2 * static_cast<std::size_t>(P)), idx_out(idx_in.size());
  std::vector<I64> sh_in(n), sh_out(n);
  const std::vector<std::size_t> counts = ref::uneven_counts(P);
  std::vector<I64> catv_in(counts[static_cast<std::size_t>(me)]);
  std::vector<I64> catv_out(std::accumulate(counts.begin(), counts.end(), std::size_t{0}));

  std::vector<ccl::Persistent> calls;
  calls.push_back(ccl::bcast_init(w, bc, 0));
  calls.push_back(ccl::reduce_init(w, red_in, red_out, ccl::sum, root));
  calls.push_back(ccl::combine_init(w, all_in, all_out, ccl::sum));
  calls.push_back(ccl::prefix_init(w, pre_in, pre_out, ccl::sum));
  calls.push_back(ccl::scatter_init(w, sc_in, sc_out, root));
  calls.push_back(ccl::gather_init(w, ga_in, ga_out, root));
  calls.push_back(ccl::concat_init(w, cat_in, cat_out));
  calls.push_back(ccl::index_init(w, idx_in, idx_out));
  calls.push_back(ccl::shift_init(w, sh_in, sh_out, 1));
  calls.push_back(ccl::concatv_init(w, catv_in, catv_out, counts));
  calls.push_back(ccl::sync_init(w));

  std::mt19937 rng(static_cast<unsigned>(me * 7919 + 3));
  for (int round = 0; round < 6; ++round) {
    refill(bc, me == 0 ? ref::data(0, big, round) : std::vector<I64>(big, -1));
    refill(red_in, ref::data(me, n, round));
    refill(all_in, ref::data(me, n, round));
    refill(pre_in, ref::data(me, n, round));
    if (me == root) refill(sc_in, ref::blocks(P, 3, round));
    refill(ga_in, ref::data(me, 4, round));
    refill(cat_in, ref::data(me, big / 8, round));
    std::vector<I64> idx = ref::index_send(me, P, 2);
    for (I64& x : idx) x += round;
    refill(idx_in, idx);
    refill(sh_in, ref::data(me, n, round));
    refill(catv_in, ref::data(me, catv_in.size(), round));

    ccl::start_all(calls);
    // A nonblocking and a blocking call on the same group between the start and the waits.
    std::vector<I64> extra_in = ref::data(me, 3, round), extra_out(3), blocking_out(3);
    ccl::Request extra = ccl::icombine(w, extra_in, extra_out, ccl::sum);
    ccl::combine(w, extra_in, blocking_out, ccl::sum);
    std::vector<std::size_t> order(calls.size());
    std::iota(order.begin(), order.end(), 0);
    std::shuffle(order.begin(), order.end(), rng);
    if (round % 2 == 1) {
      bool all = false;
      while (!all) {
        all = true;
        for (std::size_t i : order) all = calls[i].test() && all;
      }
    } else {
      for (std::size_t i : order) calls[i].wait();
    }
    extra.wait();
    for (const ccl::Persistent& c : calls) EXPECT_FALSE(c.active());

    SCOPED_TRACE("round " + std::to_string(round));
    EXPECT_EQ(bc, ref::data(0, big, round));
    if (me == root) {
      EXPECT_EQ(red_out, salted_sum(P, n, round));
    }
    EXPECT_EQ(all_out, salted_sum(P, n, round));
    EXPECT_EQ(pre_out, salted_sum(me + 1, n, round));
    EXPECT_EQ(sc_out, ref::data(me, 3, round));
    if (me == root) {
      EXPECT_EQ(ga_out, ref::blocks(P, 4, round));
    }
    EXPECT_EQ(cat_out, ref::blocks(P, big / 8, round));
    std::vector<I64> idx_expected = ref::index_expected(me, P, 2);
    for (I64& x : idx_expected) x += round;
    EXPECT_EQ(idx_out, idx_expected);
    EXPECT_EQ(sh_out, ref::data((me + P - 1) % P, n, round));
    std::vector<I64> catv_expected;
    for (int m = 0; m < P; ++m) {
      const std::vector<I64> d = ref::data(m, counts[static_cast<std::size_t>(m)], round);
      catv_expected.insert(catv_expected.end(), d.begin(), d.end());
    }
    EXPECT_EQ(catv_out, catv_expected);
    EXPECT_EQ(extra_out, salted_sum(P, 3, round));
    EXPECT_EQ(blocking_out, salted_sum(P, 3, round));
  }
}

TEST(MpiPersistent, NonCommutativeReductionsKeepRankOrder) {
  const ccl::Group w = ccl::world();
  const int me = w.rank();
  const std::size_t n = 600;  // several segments' worth for pipelined schedules
  std::vector<ref::Mat> in = ref::mats(me, n), all(n), pre(n), at_root(me == 0 ? n : 0);
  ccl::Persistent combine = ccl::combine_init(w, in, all, ref::MatMul{});
  ccl::Persistent prefix = ccl::prefix_init(w, in, pre, ref::MatMul{});
  ccl::Persistent reduce = ccl::reduce_init(w, in, at_root, ref::MatMul{}, 0);
  for (int round = 0; round < 3; ++round) {
    combine.start();
    prefix.start();
    reduce.start();
    reduce.wait();
    prefix.wait();
    combine.wait();
    EXPECT_EQ(all, ref::product(w.size(), n));
    EXPECT_EQ(pre, ref::product(me + 1, n));
    if (me == 0) {
      EXPECT_EQ(at_root, ref::product(w.size(), n));
    }
  }
}

TEST(MpiPersistent, StartWhileActiveIsRefusedAndBindingChecksTheCall) {
  const ccl::Group w = ccl::world();
  std::vector<I64> in = ref::data(w.rank(), 4), out(4), wrong(3);
  ccl::Persistent p = ccl::combine_init(w, in, out, ccl::sum);
  EXPECT_FALSE(p.active());
  EXPECT_TRUE(p.test());  // nothing started: complete at once
  p.start();
  EXPECT_TRUE(p.active());
  EXPECT_THROW(p.start(), ccl::Error);
  p.wait();
  EXPECT_EQ(out, ref::sum(w.size(), 4));
  p.start();  // a new round after the wait
  p.wait();
  EXPECT_EQ(out, ref::sum(w.size(), 4));
  // A receive buffer of the wrong length is refused when binding, on this member alone.
  EXPECT_THROW(ccl::combine_init(w, in, wrong, ccl::sum), ccl::Error);
  EXPECT_THROW(ccl::Persistent().start(), ccl::Error);
}

// MPI-4 matches persistent collectives by the order they were bound in, not started in: members
// start the same calls in different orders (a root runs rounds ahead of its leaves), with
// messages of every size class between the same pair, and a regular call in the middle.
TEST(MpiPersistent, StartedInAnyOrderMatchByBinding) {
  const ccl::Group w = ccl::world();
  const int P = w.size(), me = w.rank();
  const std::size_t n = 3, big = 12000;  // big: past the shared-memory rings
  std::vector<I64> bc(big), all_in(n), all_out(n), cat_in(big / 4);
  std::vector<I64> cat_out(big / 4 * static_cast<std::size_t>(P)), extra_in(n), extra_out(n);
  std::vector<ccl::Persistent> calls;
  calls.push_back(ccl::bcast_init(w, bc, 0));
  calls.push_back(ccl::combine_init(w, all_in, all_out, ccl::sum));
  calls.push_back(ccl::concat_init(w, cat_in, cat_out));
  calls.push_back(ccl::sync_init(w));
  std::vector<std::size_t> order(calls.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  const auto summed = [&](int salt) {
    std::vector<I64> s(n, 0);
    for (int m = 0; m < P; ++m) {
      const std::vector<I64> d = ref::data(m, n, salt);
      for (std::size_t i = 0; i < n; ++i) s[i] += d[i];
    }
    return s;
  };
  std::mt19937 rng(static_cast<unsigned>(me * 104729 + 11));
  for (int round = 0; round < 8; ++round) {
    refill(bc, me == 0 ? ref::data(0, big, round) : std::vector<I64>(big, -1));
    refill(all_in, ref::data(me, n, round));
    refill(cat_in, ref::data(me, big / 4, round));
    std::shuffle(order.begin(), order.end(), rng);
    for (std::size_t i : order) calls[i].start();
    refill(extra_in, ref::data(me, n, round + 100));
    ccl::combine(w, extra_in, extra_out, ccl::sum);
    std::shuffle(order.begin(), order.end(), rng);
    for (std::size_t i : order) calls[i].wait();
    EXPECT_EQ(bc, ref::data(0, big, round));
    EXPECT_EQ(all_out, summed(round));
    EXPECT_EQ(cat_out, ref::blocks(P, big / 4, round));
    EXPECT_EQ(extra_out, summed(round + 100));
  }
}

// In run mode, as for any call of zero bytes (MPI allows it).
TEST(MpiPersistent, ZeroBytesCompleteAtOnce) {
  const ccl::Group w = ccl::world();
  std::vector<double> none;
  ccl::Persistent p = ccl::combine_init(w, none, none, ccl::sum);
  for (int i = 0; i < 3; ++i) {
    p.start();
    EXPECT_TRUE(p.active());
    // Develop mode still checks the call across members, so only run mode completes at once.
    if (ccl::mode() == ccl::Mode::run) {
      EXPECT_TRUE(p.test());
    } else {
      p.wait();
    }
    EXPECT_FALSE(p.active());
  }
}

}  // namespace
