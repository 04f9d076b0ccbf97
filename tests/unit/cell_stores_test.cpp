// The choice of stores for one-cell messages (cell_stores.cpp): after runs of each way it goes
// the way whose prices, the sender's plus the receiver's, are cheaper, and changes only when the
// other way is clearly cheaper; it tries the other way in runs, about one send in 32; without the
// receiver's prices it follows its own.
#include <gtest/gtest.h>

#include <cstdint>

#include "transport/shm/store_prices.hpp"

namespace {

using ccl::detail::CellStoreChoice;
using ccl::detail::StorePrices;

constexpr std::uint32_t kRun = 10;

// Sends n messages, pricing each one's own copy as given; returns how many went non-temporal.
int send(CellStoreChoice& c, int n, double own_cached, double own_streaming, double their_cached,
         double their_streaming) {
  int streamed = 0;
  for (int i = 0; i < n; ++i) {
    const bool nt = c.next(their_cached, their_streaming, kRun);
    (nt ? c.sent_streaming : c.sent_cached).add(nt ? own_streaming : own_cached);
    streamed += nt;
  }
  return streamed;
}

TEST(StorePrices, BestIsTheLeastOfTheLastWindow) {
  StorePrices p;
  EXPECT_EQ(p.best(), 0);
  p.add(5.0);
  p.add(1.0);
  for (std::uint32_t i = 1; i < StorePrices::kWindow; ++i) p.add(7.0 + i);  // the 5 dropped out
  EXPECT_EQ(p.best(), 1.0);
  p.add(6.0);  // the 1 drops out
  EXPECT_EQ(p.best(), 6.0);
}

TEST(CellStoreChoice, FirstRunsTakeTurns) {
  CellStoreChoice c;
  for (std::uint32_t k = 0; k < 4 * kRun; ++k) {
    EXPECT_EQ(c.next(0, 0, kRun), (k / kRun) % 2 == 1) << "send " << k;
  }
}

TEST(CellStoreChoice, GoesTheCheaperWayOfBothSides) {
  // Cached is cheaper to send and much cheaper to take: cached, but for the exploring runs.
  CellStoreChoice c;
  send(c, 4 * kRun, 1.0, 1.2, 1.0, 3.0);
  const int n = 32 * static_cast<int>(kRun) * 4;
  EXPECT_EQ(send(c, n, 1.0, 1.2, 1.0, 3.0), n / 32);
  // The receiver's side decides even when our own copy says the opposite.
  CellStoreChoice d;
  send(d, 4 * kRun, 2.0, 1.0, 1.0, 4.0);
  EXPECT_EQ(send(d, n, 2.0, 1.0, 1.0, 4.0), n / 32);
  // Non-temporal is cheaper: non-temporal but for the exploring runs.
  CellStoreChoice e;
  send(e, 4 * kRun, 3.0, 1.0, 2.0, 1.0);
  EXPECT_EQ(send(e, n, 3.0, 1.0, 2.0, 1.0), n - n / 32);
}

TEST(CellStoreChoice, ChangesOnlyWhenClearlyCheaper) {
  CellStoreChoice c;
  send(c, 4 * kRun, 1.0, 3.0, 0, 0);  // no receiver prices: its own decide, cached
  EXPECT_FALSE(c.next(0, 0, kRun));
  EXPECT_FALSE(c.streaming);
  // Non-temporal a little cheaper (above 0.8 of cached): stays.
  for (int i = 0; i < 4; ++i) c.sent_cached.add(1.0), c.sent_streaming.add(0.9);
  send(c, 100, 1.0, 0.9, 0, 0);
  EXPECT_FALSE(c.streaming);
  // Clearly cheaper: changes.
  for (int i = 0; i < 4; ++i) c.sent_streaming.add(0.5);
  EXPECT_TRUE(c.next(0, 0, kRun));
  EXPECT_TRUE(c.streaming);
}

TEST(CellStoreChoice, ExploresInRuns) {
  CellStoreChoice c;
  send(c, 4 * kRun, 1.0, 3.0, 1.0, 3.0);
  // Over one period of 32 runs the non-temporal sends come together, kRun of them.
  int first = -1, count = 0;
  for (int i = 0; i < 32 * static_cast<int>(kRun); ++i) {
    if (c.next(1.0, 3.0, kRun)) {
      if (first < 0) first = i;
      EXPECT_EQ(i, first + count) << "not one run";
      ++count;
    }
  }
  EXPECT_EQ(count, static_cast<int>(kRun));
}

}  // namespace
