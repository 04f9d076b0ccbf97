// Direct transfers (direct_transfer.cpp): large messages between members of one node that one
// side copies straight between the two buffers: pushed by the sender, as a linear gather's
// members do, pulled by the receiver, as a linear scatter's and bcast's do, or split between the
// two, as a linear bcast between two members does. Gathers, scatters and bcasts of mixed block
// sizes (ring, direct) in flight with other collectives on two groups come out right; a sender
// whose size the receiver does not expect, and a copy that fails, are reported by the receiver with
// a clear message while the sender completes, either way, and the group still works. Also run with
// CCL_PUSH=0 (tests/CMakeLists.txt), where the same transfers go through MPI.
#include <gtest/gtest.h>

#include <unistd.h>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <numeric>
#include <string>
#include <thread>
#include <vector>

#include "../common/reference.hpp"
#include "../common/unsupported.hpp"
#include "ccl/ccl.hpp"
#include "ccl/selection.hpp"
#include "groups/group_state.hpp"
#include "transport/mpi_channel.hpp"
#include "transport/shm/shm_fabric.hpp"

namespace {

using I64 = std::int64_t;

bool push_switched_off() {
  const char* v = std::getenv("CCL_PUSH");
  return v != nullptr && std::string(v) == "0";
}

ccl::detail::MpiChannel& channel_of(const ccl::Group& g) {
  return dynamic_cast<ccl::detail::MpiChannel&>(*g.state().channel);
}

// Bytes past what the rings hold at once (8 cells of kMaxBytes): direct when the schedule says so.
constexpr std::size_t kLarge = 8 * ccl::detail::ShmFabric::kMaxBytes + 8;

bool direct(const ccl::Group& g, std::size_t bytes, ccl::Copier copier) {
  return channel_of(g).copies_direct((g.rank() + 1) % g.size(), bytes, copier);
}

TEST(DirectTransfers, TakenForLargeMessagesOnTheNodeUnlessSwitchedOff) {
  using ccl::Copier;
  const ccl::Group w = ccl::world();
  if (w.size() == 1) GTEST_SKIP() << "no peer";
  constexpr std::size_t kCell = ccl::detail::ShmFabric::kMaxBytes;
  for (const Copier c : {Copier::sender, Copier::receiver, Copier::exchange, Copier::split}) {
    EXPECT_FALSE(direct(w, kCell, c)) << "a ring's message does not go direct";
    EXPECT_FALSE(direct(w, 2 * kCell, c)) << "a short stream does not go direct";
  }
  EXPECT_FALSE(direct(w, kLarge, Copier::both)) << "a transfer both sides copy goes direct";
  // Past half the rings: an exchange's message goes direct, a one-way one still streams.
  constexpr std::size_t kHalfRing = 4 * kCell + 8;
  EXPECT_FALSE(direct(w, kHalfRing, Copier::sender)) << "a one-way stream that fits goes direct";
  EXPECT_FALSE(direct(w, kHalfRing, Copier::receiver)) << "a one-way stream that fits goes direct";
  if (push_switched_off()) {
    EXPECT_FALSE(direct(w, kLarge, Copier::sender)) << "CCL_PUSH=0 did not switch pushing off";
    EXPECT_FALSE(direct(w, kLarge, Copier::receiver)) << "CCL_PUSH=0 did not switch pulling off";
    EXPECT_FALSE(direct(w, kHalfRing, Copier::exchange)) << "CCL_PUSH=0 did not switch pushing off";
  } else if (!direct(w, kLarge, Copier::sender)) {
    SKIP_UNSUPPORTED(
        "this node's ranks cannot reach into one another's memory (cross-memory attach)");
  } else {
    EXPECT_TRUE(direct(w, kLarge, Copier::receiver)) << "pushed but not pulled";
    EXPECT_TRUE(direct(w, kLarge, Copier::split)) << "pushed but not split";
    // Only where every rank has a core (here all ranks share one node).
    const bool own_cores = w.size() <= sysconf(_SC_NPROCESSORS_ONLN);
    EXPECT_EQ(direct(w, kHalfRing, Copier::exchange), own_cores)
        << "an exchange past half the rings";
  }
}

// Elements of member q's block in round i: 8 KiB or less (the rings) or 80 KiB and more
// (direct), varying by round.
std::vector<std::size_t> mixed_counts(int members, int i) {
  std::vector<std::size_t> counts;
  for (int q = 0; q < members; ++q) {
    counts.push_back((i + q) % 3 == 0 ? 1000 + static_cast<std::size_t>(q)
                                      : 10000 + 37 * static_cast<std::size_t>(q + i));
  }
  return counts;
}

TEST(DirectTransfers, GathersOfMixedBlockSizesInFlightWithOtherCollectivesOnTwoGroups) {
  const ccl::Group w = ccl::world();
  const int P = w.size(), r = w.rank();
  const ccl::Group half = ccl::partition(w, r % 2, r, "half");
  ccl::set_override(ccl::CollKind::gather, "linear");
  for (int i = 0; i < 30; ++i) {
    const std::vector<std::size_t> counts = mixed_counts(P, i);
    const std::size_t total = std::accumulate(counts.begin(), counts.end(), std::size_t{0});
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
        ASSERT_TRUE(
            std::equal(want.begin(), want.end(), all.begin() + static_cast<std::ptrdiff_t>(at)))
            << "gatherv " << i << ": block of member " << q << " (" << c << " elements)";
        at += c;
      }
    }
    ASSERT_EQ(token, ref::data(i, 2)) << "bcast " << i;
    if (half.rank() == 0) {
      for (int q = 0; q < half.size(); ++q) {
        const std::vector<I64> want = ref::data(half.world_rank_of(q), n, i + 100);
        ASSERT_TRUE(std::equal(
            want.begin(), want.end(),
            in_half.begin() + static_cast<std::ptrdiff_t>(n * static_cast<std::size_t>(q))))
            << "gather on half " << r % 2 << ", round " << i << ": block of member " << q;
      }
    }
  }
  ccl::set_override(ccl::CollKind::gather, "");
}

TEST(DirectTransfers, PulledScattersAndBcastsOfMixedSizesInFlightWithOthersOnTwoGroups) {
  const ccl::Group w = ccl::world();
  const int P = w.size(), r = w.rank();
  const ccl::Group half = ccl::partition(w, r % 2, r, "half");
  ccl::set_override(ccl::CollKind::scatter, "linear");
  ccl::set_override(ccl::CollKind::bcast, "linear");
  for (int i = 0; i < 30; ++i) {
    const std::vector<std::size_t> counts = mixed_counts(P, i);
    const std::size_t total = std::accumulate(counts.begin(), counts.end(), std::size_t{0});
    const int root = (i * 3) % P;
    std::vector<I64> all = r == root ? ref::data(root, total, i) : std::vector<I64>{};
    std::vector<I64> mine(counts[static_cast<std::size_t>(r)], -1);
    ccl::Request sc = ccl::iscatterv(w, all, mine, counts, root);
    const std::size_t n =
        i % 2 == 0 ? 300 : 9000 + static_cast<std::size_t>(i) * 11;  // ring or pulled
    std::vector<I64> vec = half.rank() == 0 ? ref::data(r, n, i + 100) : std::vector<I64>(n, -1);
    ccl::Request b = ccl::ibcast(half, vec, 0);
    I64 sum = ccl::combine_value(w, I64{r}, ccl::sum);  // blocking, while both are in flight
    if (r % 2 == 1) {
      b.wait();
      sc.wait();
    } else {
      sc.wait();
      b.wait();
    }
    ASSERT_EQ(sum, I64{P} * (P - 1) / 2) << "combine " << i;
    std::size_t at = 0;
    for (int q = 0; q < r; ++q) at += counts[static_cast<std::size_t>(q)];
    const std::vector<I64> source = ref::data(root, total, i);
    ASSERT_TRUE(
        std::equal(mine.begin(), mine.end(), source.begin() + static_cast<std::ptrdiff_t>(at)))
        << "scatterv " << i << " from " << root << ": block of member " << r;
    ASSERT_EQ(vec, ref::data(half.world_rank_of(0), n, i + 100))
        << "bcast on half " << r % 2 << ", round " << i;
  }
  ccl::set_override(ccl::CollKind::scatter, "");
  ccl::set_override(ccl::CollKind::bcast, "");
}

TEST(DirectTransfers, SplitBcastsBetweenTwoMembersOfSizesThatDoNotHalveEvenly) {
  // Pairs of members (one left alone when their number is odd), each bcasting vectors whose
  // halves end inside a cache line, roots alternating, while a combine over all is in flight.
  const ccl::Group w = ccl::world();
  const int P = w.size(), r = w.rank();
  const ccl::Group pair = ccl::partition(w, r / 2, r, "pair");
  ccl::set_override(ccl::CollKind::bcast, "linear");
  for (int i = 0; i < 24; ++i) {
    const std::size_t n =
        9000 + static_cast<std::size_t>(i) * 1237 + static_cast<std::size_t>(i % 3);
    const int root = i % pair.size();
    std::vector<I64> vec = pair.rank() == root ? ref::data(r, n, i) : std::vector<I64>(n, -1);
    const std::vector<I64> mine(3, I64{r});
    std::vector<I64> sum(3, 0);
    ccl::Request c = ccl::icombine(w, mine, sum, ccl::sum);
    ccl::bcast(pair, vec, root);
    c.wait();
    ASSERT_EQ(vec, ref::data(pair.world_rank_of(root), n, i))
        << "bcast " << i << " of " << n << " elements";
    ASSERT_EQ(sum, std::vector<I64>(3, I64{P} * (P - 1) / 2)) << "combine " << i;
  }
  ccl::set_override(ccl::CollKind::bcast, "");
}

TEST(DirectTransfers, ASenderBlockedInAnotherCollectiveStillWritesItsBlock) {
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
    const std::size_t n = 9000;                                                // pushed
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

// Member 0 sends `sent` bytes to member 1 directly, copied by `copier`; member 1's receive names
// `expected` bytes at `into` (its own buffer when null), and member 0's data lies at `from` (its
// own when null). Returns member 1's error message, empty when none; member 0 must complete
// either way. Then the group must still work.
std::string direct_between_first_two(ccl::Copier copier, std::size_t sent, std::size_t expected,
                                     std::byte* into, const std::byte* from = nullptr) {
  const ccl::Group w = ccl::world();
  ccl::detail::MpiChannel& ch = channel_of(w);
  const std::uint64_t tag =
      ch.tag(ch.tag_cycle() - 1, 0);  // an instance no collective here reaches
  std::vector<std::byte> data(std::max(sent, expected), std::byte{7});
  ccl::detail::Handles hs;
  std::string error;
  if (w.rank() == 0) {
    ch.send_direct(1, tag, from != nullptr ? from : data.data(), sent, copier, hs);
    ch.wait_all(hs);
    ch.end_round(hs);
  } else if (w.rank() == 1) {
    try {
      ch.recv_direct(0, tag, into != nullptr ? into : data.data(), expected, copier, hs);
      ch.wait_all(hs);
    } catch (const ccl::Error& e) {
      error = e.what();
    }
    ch.end_round(hs);
  }
  EXPECT_EQ(ccl::combine_value(w, I64{1}, ccl::sum), w.size()) << "the group after the transfer";
  return error;
}

class EitherCopier : public ::testing::TestWithParam<ccl::Copier> {};

TEST_P(EitherCopier, ASizeTheReceiverDoesNotExpectIsReportedThere) {
  const ccl::Group w = ccl::world();
  if (w.size() == 1 || push_switched_off()) GTEST_SKIP() << "no peer, or CCL_PUSH=0";
  if (!direct(w, kLarge, GetParam())) SKIP_UNSUPPORTED("no direct transfers (cross-memory attach)");
  const std::string longer = direct_between_first_two(GetParam(), 160000, 120000, nullptr);
  const std::string shorter = direct_between_first_two(GetParam(), 120000, 160000, nullptr);
  if (w.rank() == 1) {
    EXPECT_NE(longer.find("a message of 160000 bytes arrived for a receive of 120000 bytes"),
              std::string::npos)
        << longer;
    EXPECT_NE(shorter.find("a message of 120000 bytes arrived for a receive of 160000 bytes"),
              std::string::npos)
        << shorter;
  }
}

TEST_P(EitherCopier, ACopyThatFailsIsReportedByTheReceiver) {
  const ccl::Group w = ccl::world();
  if (w.size() == 1 || push_switched_off()) GTEST_SKIP() << "no peer, or CCL_PUSH=0";
  if (!direct(w, kLarge, GetParam())) SKIP_UNSUPPORTED("no direct transfers (cross-memory attach)");
  // An address no process has mapped, on the side that does not copy: the copier's
  // process_vm_writev or process_vm_readv fails there (EFAULT).
  auto* nowhere = reinterpret_cast<std::byte*>(std::uintptr_t{4096});
  // Split: the receiver's read fails first, and it reports its own failure.
  const bool pulled = GetParam() != ccl::Copier::sender;
  const std::string error =
      pulled ? direct_between_first_two(GetParam(), kLarge, kLarge, nullptr, nowhere)
             : direct_between_first_two(GetParam(), kLarge, kLarge, nowhere);
  if (w.rank() == 1) {
    const std::string what =
        pulled ? "world rank 1 could not copy a message of " + std::to_string(kLarge) +
                     " bytes out of world rank 0's memory (process_vm_readv: Bad address)"
               : "world rank 0 could not copy a message of " + std::to_string(kLarge) +
                     " bytes into world rank 1's memory (process_vm_writev: Bad address)";
    EXPECT_NE(error.find(what), std::string::npos) << error;
  }
}

INSTANTIATE_TEST_SUITE_P(PushedPulledAndSplit, EitherCopier,
                         ::testing::Values(ccl::Copier::sender, ccl::Copier::receiver,
                                           ccl::Copier::split),
                         [](const auto& info) {
                           switch (info.param) {
                             case ccl::Copier::sender:
                               return std::string("pushed");
                             case ccl::Copier::receiver:
                               return std::string("pulled");
                             default:
                               return std::string("split");
                           }
                         });

}  // namespace
