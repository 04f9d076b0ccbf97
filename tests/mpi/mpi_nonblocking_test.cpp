// Nonblocking collectives over MPI: several outstanding at once, on the same group and on
// overlapping groups, waited in different orders on different ranks, all complete and correct.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>

#include "../common/mpi_runner.hpp"
#include "../common/reference.hpp"
#include "ccl/ccl.hpp"
#include "ccl/selection.hpp"

namespace {

using I64 = std::int64_t;

TEST(MpiNonblocking, OverlappingGroupsWaitedInRankDependentOrder) {
  const ccl::Group w = ccl::world();
  const int c = grid_columns(w.size());
  const ccl::Group row = ccl::partition(w, w.rank() / c, w.rank(), "row");
  const ccl::Group col = ccl::partition(w, w.rank() % c, w.rank(), "col");
  const ccl::Group odd = ccl::partition(w, w.rank() % 2, -w.rank(), "parity");
  const int P = w.size();
  const std::size_t n = 1000;

  for (int trial = 0; trial < 4; ++trial) {
    std::vector<I64> bc = w.rank() == 0 ? ref::data(0, n) : std::vector<I64>(n, -1);
    std::vector<I64> row_in = ref::data(row.rank(), n), row_out(n);
    std::vector<I64> col_in = ref::data(col.rank(), 3),
                     col_out(3 * static_cast<std::size_t>(col.size()));
    std::vector<I64> w_idx_in = ref::index_send(w.rank(), P, 2), w_idx_out(w_idx_in.size());
    std::vector<I64> odd_in = ref::data(odd.rank(), 5), odd_out(5);
    std::vector<I64> w_sum_in = ref::data(w.rank(), 7), w_sum_out(7);

    std::vector<ccl::Request> req;
    req.push_back(ccl::ibcast(w, bc, 0));
    req.push_back(ccl::icombine(row, row_in, row_out, ccl::sum));
    req.push_back(ccl::iconcat(col, col_in, col_out));
    req.push_back(ccl::isync(w));
    req.push_back(ccl::iindex(w, w_idx_in, w_idx_out));
    req.push_back(ccl::iprefix(odd, odd_in, odd_out, ccl::sum));
    req.push_back(ccl::icombine(w, w_sum_in, w_sum_out, ccl::sum));

    std::vector<std::size_t> order(req.size());
    std::iota(order.begin(), order.end(), 0);
    std::mt19937 rng(static_cast<unsigned>(w.rank() * 7919 + trial));
    std::shuffle(order.begin(), order.end(), rng);
    if (trial % 2 == 1) {
      // Poll with test() instead of waiting.
      bool all_done = false;
      while (!all_done) {
        all_done = true;
        for (std::size_t i : order) all_done = req[i].test() && all_done;
      }
    } else {
      for (std::size_t i : order) req[i].wait();
    }

    EXPECT_EQ(bc, ref::data(0, n));
    EXPECT_EQ(row_out, ref::sum(row.size(), n));
    EXPECT_EQ(col_out, ref::blocks(col.size(), 3));
    EXPECT_EQ(w_idx_out, ref::index_expected(w.rank(), P, 2));
    EXPECT_EQ(odd_out, ref::sum(odd.rank() + 1, 5));
    EXPECT_EQ(w_sum_out, ref::sum(P, 7));
  }
}

TEST(MpiNonblocking, ManyOutstandingOnOneGroupWaitedInReverse) {
  const ccl::Group w = ccl::world();
  const int k = 12;
  std::vector<std::vector<I64>> in(k), out(k);
  std::vector<ccl::Request> req;
  for (int i = 0; i < k; ++i) {
    in[static_cast<std::size_t>(i)] = ref::data(w.rank(), static_cast<std::size_t>(i + 1));
    out[static_cast<std::size_t>(i)].assign(static_cast<std::size_t>(i + 1), 0);
    req.push_back(ccl::icombine(w, in[static_cast<std::size_t>(i)],
                                out[static_cast<std::size_t>(i)], ccl::sum));
  }
  for (int i = k - 1; i >= 0; --i) req[static_cast<std::size_t>(i)].wait();
  for (int i = 0; i < k; ++i) {
    EXPECT_EQ(out[static_cast<std::size_t>(i)],
              ref::sum(w.size(), static_cast<std::size_t>(i + 1)));
  }
}

TEST(MpiNonblocking, MoreSmallMessagesInFlightThanSharedMemoryRingsHoldMixedWithLargeOnes) {
  // The root runs far ahead: its small messages (8-24 bytes in the tiny-cell ring, 32-40 in the
  // small-cell one; about 3,300 and 2,200 of them, more than the 2048 and 256 cells of those) fill
  // each shared-memory ring and queue, the large ones go through MPI in between; members wait in
  // reverse, so everything arrives before it is asked for and is matched by (group, tag) in order.
  const ccl::Group w = ccl::world();
  const int k = 6400;
  std::vector<std::vector<I64>> buf(k);
  std::vector<ccl::Request> req;
  for (int i = 0; i < k; ++i) {
    const std::size_t n = i % 7 == 3 ? 1100 : static_cast<std::size_t>(i % 5 + 1);  // 8.8 KB: MPI
    auto& b = buf[static_cast<std::size_t>(i)];
    b = w.rank() == 0 ? ref::data(i, n) : std::vector<I64>(n, -1);
    req.push_back(ccl::ibcast(w, b, 0));
  }
  for (int i = k - 1; i >= 0; --i) req[static_cast<std::size_t>(i)].wait();
  for (int i = 0; i < k; ++i) {
    const auto& b = buf[static_cast<std::size_t>(i)];
    EXPECT_EQ(b, ref::data(i, b.size())) << "bcast " << i;
  }
}

TEST(MpiNonblocking, BlockingCallFindsAnotherGroupsMessageFirst) {
  // Rank 0 starts a broadcast on the world, then a blocking one on a second group; the others
  // run the blocking one first. Rank 1's ring from rank 0 then holds the world's message before
  // the one it waits for: a receive taken straight from the ring must keep it aside, and the
  // world's broadcast must find it there afterwards.
  const ccl::Group w = ccl::world();
  const ccl::Group other = ccl::partition(w, 0, w.rank(), "other");
  for (int trial = 0; trial < 20; ++trial) {
    std::vector<I64> first = w.rank() == 0 ? ref::data(trial, 3) : std::vector<I64>(3, -1);
    std::vector<I64> second = w.rank() == 0 ? ref::data(trial + 100, 2) : std::vector<I64>(2, -1);
    if (w.rank() == 0) {
      ccl::Request r = ccl::ibcast(w, first, 0);
      ccl::bcast(other, second, 0);
      r.wait();
    } else {
      ccl::bcast(other, second, 0);
      ccl::ibcast(w, first, 0).wait();
    }
    EXPECT_EQ(first, ref::data(trial, 3));
    EXPECT_EQ(second, ref::data(trial + 100, 2));
  }
}

TEST(MpiNonblocking, MessagesOfManySizesWrapTheSharedMemoryRingsBetweenThreeGroups) {
  // Messages of 8 to 248 bytes and of about 8 KiB go round each of the three rings (tiny, small
  // and large cells) several times; three groups take turns, so the group context changes from one
  // message to the next (it then travels beside the cell) or stays (then it does not).
  const ccl::Group w = ccl::world();
  const ccl::Group groups[] = {w, ccl::partition(w, 0, w.rank(), "copy"),
                               ccl::partition(w, w.rank() % 2, w.rank(), "half")};
  for (int i = 0; i < 1500; ++i) {
    const std::size_t n = static_cast<std::size_t>(i % 31 + 1) + (i % 37 == 0 ? 980 : 0);
    const ccl::Group& g = groups[(i / 3) % 3];
    std::vector<I64> b = g.rank() == 0 ? ref::data(i, n) : std::vector<I64>(n, -1);
    ccl::bcast(g, b, 0);
    ASSERT_EQ(b, ref::data(i, n)) << "bcast " << i << " of " << n << " elements";
  }
}

TEST(MpiNonblocking, AnOverrideThatDoesNotApplyThrowsFromTheNonblockingFormToo) {
  // It used to hang: the request already owned the operation that was never started, and waited
  // for it while the exception unwound.
  const ccl::Group w = ccl::world();
  if ((w.size() & (w.size() - 1)) == 0) return;  // recursive doubling applies to powers of two
  ccl::set_override(ccl::CollKind::concat, "recursive_doubling");
  std::vector<I64> in(2, w.rank()), out(2 * static_cast<std::size_t>(w.size()));
  EXPECT_THROW(ccl::iconcat(w, in, out), ccl::Error);
  EXPECT_THROW(ccl::concat(w, in, out), ccl::Error);
  ccl::set_override(ccl::CollKind::concat, "");
  ccl::concat(w, in, out);  // and the group still works
  for (int r = 0; r < w.size(); ++r) EXPECT_EQ(out[2 * static_cast<std::size_t>(r)], r);
}

TEST(MpiNonblocking, RequestDestroyedWhilePendingCompletes) {
  const ccl::Group w = ccl::world();
  std::vector<I64> in = ref::data(w.rank(), 4), out(4);
  { ccl::Request r = ccl::icombine(w, in, out, ccl::sum); }
  EXPECT_EQ(out, ref::sum(w.size(), 4));
}

TEST(MpiNonblocking, StatisticsCountCalls) {
  const ccl::Group w = ccl::world();
  ccl::reset_statistics();
  std::vector<I64> in = ref::data(w.rank(), 4), out(4);
  for (int i = 0; i < 3; ++i) ccl::combine(w, in, out, ccl::sum);
  const auto& s = ccl::statistics().of(ccl::CollKind::combine);
  EXPECT_EQ(s.calls, 3u);
  ccl::Shape shape;  // the calls' shape: the algorithm recorded is the one selection picks
  shape.kind = ccl::CollKind::combine;
  shape.size = w.size();
  shape.rank = w.rank();
  shape.elem = sizeof(I64);
  shape.count = 4;
  EXPECT_EQ(s.algorithm, ccl::select(shape).algorithm->name);
  if (w.size() > 1) {
    EXPECT_GT(s.bytes, 0u);
  }
}

}  // namespace
