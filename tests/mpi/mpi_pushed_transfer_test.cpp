// Pushed transfers (push_transfer.cpp): large messages between members of one node that the
// sender writes straight into the receiver's buffer, as a linear gather's members do. Gathers
// of mixed block sizes (ring, pushed) in flight with other collectives on two groups come out
// right; a sender whose size the receiver does not expect, and a write that fails, are reported
// by the receiver with a clear message while the sender completes, and the group still works.
// Also run with CCL_PUSH=0 (tests/CMakeLists.txt), where the same transfers go through MPI.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

#include "../common/reference.hpp"
#include "ccl/ccl.hpp"
#include "ccl/selection.hpp"
#include "group_state.hpp"
#include "shm_fabric.hpp"

namespace {

using I64 = std::int64_t;

bool push_switched_off() {
  const char* v = std::getenv("CCL_PUSH");
  return v != nullptr && std::string(v) == "0";
}

ccl::detail::Channel& channel_of(const ccl::Group& g) { return *g.state().channel; }

// Bytes past what the rings hold at once (8 cells of kMaxBytes): pushed when the schedule says so.
constexpr std::size_t kLarge = 8 * ccl::detail::ShmFabric::kMaxBytes + 8;

TEST(PushedTransfers, TakenForLargeMessagesOnTheNodeUnlessSwitchedOff) {
  const ccl::Group w = ccl::world();
  if (w.size() == 1) GTEST_SKIP() << "no peer";
  const ccl::detail::Channel& ch = channel_of(w);
  const int peer = (w.rank() + 1) % w.size();
  constexpr std::size_t kCell = ccl::detail::ShmFabric::kMaxBytes;
  for (const bool exchange : {false, true}) {
    EXPECT_FALSE(ch.pushes(peer, kCell, exchange)) << "a ring's message is not pushed";
    EXPECT_FALSE(ch.pushes(peer, 2 * kCell, exchange)) << "a short stream is not pushed";
  }
  // Past half the rings: an exchange's message is pushed, a one-way one still streams.
  constexpr std::size_t kHalfRing = 4 * kCell + 8;
  EXPECT_FALSE(ch.pushes(peer, kHalfRing, false)) << "a one-way stream that fits is not pushed";
  if (push_switched_off()) {
    EXPECT_FALSE(ch.pushes(peer, kLarge, false)) << "CCL_PUSH=0 did not switch pushing off";
    EXPECT_FALSE(ch.pushes(peer, kHalfRing, true)) << "CCL_PUSH=0 did not switch pushing off";
  } else if (!ch.pushes(peer, kLarge, false)) {
    GTEST_SKIP() << "this node's ranks cannot write into one another's memory (cross-memory attach)";
  } else {
    // Only where every rank has a core (here all ranks share one node).
    const bool own_cores = w.size() <= sysconf(_SC_NPROCESSORS_ONLN);
    EXPECT_EQ(ch.pushes(peer, kHalfRing, true), own_cores) << "an exchange past half the rings";
  }
}

TEST(PushedTransfers, GathersOfMixedBlockSizesInFlightWithOtherCollectivesOnTwoGroups) {
  const ccl::Group w = ccl::world();
  const int P = w.size(), r = w.rank();
  const ccl::Group half = ccl::partition(w, r % 2, r, "half");
  ccl::set_override(ccl::CollKind::gather, "linear");
  for (int i = 0; i < 30; ++i) {
    // Member q's block: 8 KiB or less (the rings) or 80 KiB and more (pushed), varying by round.
    std::vector<std::size_t> counts(static_cast<std::size_t>(P));
    std::size_t total = 0;
    for (int q = 0; q < P; ++q) {
      counts[static_cast<std::size_t>(q)] = (i + q) % 3 == 0 ? 1000 + static_cast<std::size_t>(q)
                                                             : 10000 + 37 * static_cast<std::size_t>(q + i);
      total += counts[static_cast<std::size_t>(q)];
    }
    const int root = i % P;
    const std::vector<I64> mine = ref::data(r, counts[static_cast<std::size_t>(r)], i);
    std::vector<I64> all(r == root ? total : 0, -1);
    ccl::Request g = ccl::igatherv(w, mine, all, counts, root);
    std::vector<I64> token = r == root ? ref::data(i, 2) : std::vector<I64>(2, -1);
    ccl::Request b = ccl::ibcast(w, token, root);
    const std::size_t n = 9000 + static_cast<std::size_t>(i) * 11;  // 72 KiB and more: pushed
    const std::vector<I64> block = ref::data(r, n, i + 100);
    std::vector<I64> in_half(half.rank() == 0 ? n * static_cast<std::size_t>(half.size()) : 0, -1);
    ccl::Request h = ccl::igather(half, block, in_half, 0);
    if (r % 2 == 1) {
      h.wait();
      b.wait();
      g.wait();
    } else {
      g.wait();
      b.wait();
      h.wait();
    }
    if (r == root) {
      std::size_t at = 0;
      for (int q = 0; q < P; ++q) {
        const std::size_t c = counts[static_cast<std::size_t>(q)];
        const std::vector<I64> want = ref::data(q, c, i);
        ASSERT_TRUE(std::equal(want.begin(), want.end(), all.begin() + static_cast<std::ptrdiff_t>(at)))
            << "gatherv " << i << ": block of member " << q << " (" << c << " elements)";
        at += c;
      }
    }
    ASSERT_EQ(token, ref::data(i, 2)) << "bcast " << i;
    if (half.rank() == 0) {
      for (int q = 0; q < half.size(); ++q) {
        const std::vector<I64> want = ref::data(half.world_rank_of(q), n, i + 100);
        ASSERT_TRUE(std::equal(want.begin(), want.end(),
                               in_half.begin() + static_cast<std::ptrdiff_t>(n * static_cast<std::size_t>(q))))
            << "gather on half " << r % 2 << ", round " << i << ": block of member " << q;
      }
    }
  }
  ccl::set_override(ccl::CollKind::gather, "");
}

TEST(PushedTransfers, ASenderBlockedInAnotherCollectiveStillWritesItsBlock) {
  // Rank 0 starts a gather to rank 2, then blocks in a bcast from rank 1; rank 1 first takes a
  // bcast from rank 2, which rank 2 sends only once the gather is complete. Unless rank 0 writes
  // its block while it waits for rank 1 (as MPI's progress lets a receiver pull it), this hangs.
  // It does not because a blocking call with others in flight progresses them all (engine.cpp).
  const ccl::Group w = ccl::world();
  const int r = w.rank();
  if (w.size() < 3) GTEST_SKIP() << "needs 3 ranks";
  const ccl::Group g01 = ccl::partition(w, r < 2 ? 0 : 1, r, "g01");
  const ccl::Group g12 = ccl::partition(w, r == 1 || r == 2 ? 0 : 1, r, "g12");
  ccl::set_override(ccl::CollKind::gather, "linear");
  for (const std::size_t token_size : {std::size_t{2}, std::size_t{40000}}) {  // ring, then larger
    const std::size_t n = 9000;  // pushed
    const std::vector<I64> block = ref::data(r, n, 7);
    std::vector<I64> all(r == 2 ? n * static_cast<std::size_t>(w.size()) : 0, -1);
    std::vector<I64> token01 = r == 1 ? ref::data(1, token_size) : std::vector<I64>(token_size, -1);
    std::vector<I64> token12 = r == 2 ? ref::data(2, token_size) : std::vector<I64>(token_size, -1);
    // Rank 2 starts late, so that rank 0 is already blocked when the address comes.
    if (r == 2) std::this_thread::sleep_for(std::chrono::milliseconds(50));
    ccl::Request g = ccl::igather(w, block, all, 2);
    if (r == 0) ccl::bcast(g01, token01, 1);
    if (r == 1) {
      ccl::bcast(g12, token12, 1);
      ccl::bcast(g01, token01, 1);
    }
    g.wait();
    if (r == 2) ccl::bcast(g12, token12, 1);
    if (r < 2) {
      EXPECT_EQ(token01, ref::data(1, token_size));
    }
    if (r == 1 || r == 2) {
      EXPECT_EQ(token12, ref::data(2, token_size));
    }
    if (r == 2) {
      EXPECT_EQ(all, ref::blocks(w.size(), n, 7)) << "tokens of " << token_size;
    }
  }
  ccl::set_override(ccl::CollKind::gather, "");
}

// Member 0 pushes `sent` bytes to member 1, whose receive names `expected` bytes at `into`
// (its own buffer when null). Returns member 1's error message, empty when none; member 0 must
// complete either way. Then the group must still work.
std::string push_between_first_two(std::size_t sent, std::size_t expected, std::byte* into) {
  const ccl::Group w = ccl::world();
  ccl::detail::Channel& ch = channel_of(w);
  const std::uint64_t tag = ch.tag(ch.tag_cycle() - 1, 0);  // an instance no collective here reaches
  std::vector<std::byte> data(std::max(sent, expected), std::byte{7});
  ccl::detail::Handles hs;
  std::string error;
  if (w.rank() == 0) {
    ch.send_pushed(1, tag, data.data(), sent, false, {}, hs);
    ch.wait_all(hs);
    ch.end_round(hs);
  } else if (w.rank() == 1) {
    try {
      ch.recv_pushed(0, tag, into != nullptr ? into : data.data(), expected, false, hs);
      ch.wait_all(hs);
    } catch (const ccl::Error& e) {
      error = e.what();
    }
    ch.end_round(hs);
  }
  EXPECT_EQ(ccl::combine_value(w, I64{1}, ccl::sum), w.size()) << "the group after the transfer";
  return error;
}

TEST(PushedTransfers, ASizeTheReceiverDoesNotExpectIsReportedThere) {
  const ccl::Group w = ccl::world();
  if (w.size() == 1 || !channel_of(w).pushes((w.rank() + 1) % w.size(), kLarge, false)) GTEST_SKIP() << "no pushing";
  const std::string longer = push_between_first_two(160000, 120000, nullptr);
  const std::string shorter = push_between_first_two(120000, 160000, nullptr);
  if (w.rank() == 1) {
    EXPECT_NE(longer.find("a message of 160000 bytes arrived for a receive of 120000 bytes"), std::string::npos) << longer;
    EXPECT_NE(shorter.find("a message of 120000 bytes arrived for a receive of 160000 bytes"), std::string::npos) << shorter;
  }
}

TEST(PushedTransfers, AWriteThatFailsIsReportedByTheReceiver) {
  const ccl::Group w = ccl::world();
  if (w.size() == 1 || !channel_of(w).pushes((w.rank() + 1) % w.size(), kLarge, false)) GTEST_SKIP() << "no pushing";
  // An address no process has mapped: the sender's process_vm_writev fails (EFAULT).
  auto* nowhere = reinterpret_cast<std::byte*>(std::uintptr_t{4096});
  const std::string error = push_between_first_two(kLarge, kLarge, nowhere);
  if (w.rank() == 1) {
    EXPECT_NE(error.find("world rank 0 could not write a message of " + std::to_string(kLarge) + " bytes"),
              std::string::npos)
        << error;
    EXPECT_NE(error.find("process_vm_writev: Bad address"), std::string::npos) << error;
  }
}

}  // namespace
