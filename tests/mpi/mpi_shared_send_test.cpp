// Shared sends (shared_send.cpp): one buffer sent to several members of a node in one round, as a
// linear bcast's root sends, is copied once into the sender's shared area and read there by
// every receiver. The channel takes that path for sizes of a slot and the receivers get the data;
// a receiver expecting another size reports it while the others complete; linear bcasts of
// awkward sizes from every root, and many in flight on two groups (slots all taken, references
// kept aside before their receives are posted), come out right. Also run with CCL_STREAM_NT=1,
// where slots are filled by non-temporal stores, and with CCL_SHM=0, where the same calls go
// through MPI.
#include <gtest/gtest.h>

#include <cstdint>
#include <span>
#include <string>
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
using ccl::detail::ShmFabric;
using ccl::detail::ShmOp;

ccl::detail::MpiChannel& channel_of(const ccl::Group& g) {
  return dynamic_cast<ccl::detail::MpiChannel&>(*g.state().channel);
}

std::vector<std::byte> pattern(std::size_t bytes, int salt) {
  std::vector<std::byte> v(bytes);
  for (std::size_t i = 0; i < bytes; ++i) {
    v[i] = static_cast<std::byte>((i * 13 + static_cast<std::size_t>(salt) * 29) & 0xff);
  }
  return v;
}

// Tags no collective here reaches.
std::uint64_t spare_tag(const ccl::detail::Channel& ch, int use) {
  return ch.tag(ch.tag_cycle() - 1 - static_cast<std::uint64_t>(use), 0);
}

TEST(SharedSends, OneCopyForEveryReceiverOnTheNode) {
  const ccl::Group w = ccl::world();
  const int P = w.size(), r = w.rank();
  ccl::detail::MpiChannel& ch = channel_of(w);
  if (ccl_test::shm_switched_off()) GTEST_SKIP() << "CCL_SHM=0";
  if (!ch.shares(ShmFabric::kShareFrom)) SKIP_UNSUPPORTED("no shared-memory fabric");
  EXPECT_FALSE(ch.shares(ShmFabric::kShareFrom - 1)) << "small messages go through the rings";
  EXPECT_FALSE(ch.shares(ShmFabric::kSlotBytes + 1)) << "a message above a slot";
  if (P < 3) GTEST_SKIP() << "needs two receivers";
  std::vector<int> receivers;
  for (int q = 1; q < P; ++q) receivers.push_back(q);
  int use = 0;
  for (const std::size_t bytes :
       {ShmFabric::kShareFrom, ShmFabric::kMaxBytes, ShmFabric::kMaxBytes + 1, std::size_t{30001},
        ShmFabric::kSlotBytes}) {
    const std::uint64_t tag = spare_tag(ch, use++);
    const std::vector<std::byte> data = pattern(bytes, use);
    ccl::detail::Handles hs;
    if (r == 0) {
      ch.send_shared(receivers.data(), receivers.size(), tag, data.data(), bytes, hs);
      if (bytes <= ShmFabric::kMaxBytes) {
        // One piece: in the slot at once, its references on the spot (the rings are empty).
        EXPECT_TRUE(hs.empty()) << bytes << " bytes: " << hs.size() << " handles";
      } else {
        EXPECT_EQ(hs.size(), receivers.size()) << "a handle per receiver";
      }
      for (void* h : hs.ops) {
        EXPECT_NE(h, nullptr) << bytes << " bytes went through MPI";
        if (h != nullptr) {
          EXPECT_GE(static_cast<ShmOp*>(h)->shared_slot, 0) << bytes << " bytes not shared";
        }
      }
      ch.wait_all(hs);
      ch.end_round(hs);
    } else {
      std::vector<std::byte> got(bytes);
      ch.recv(0, tag, got.data(), bytes, hs);
      ch.wait_all(hs);
      ch.end_round(hs);
      EXPECT_EQ(got, data) << bytes << " bytes at member " << r;
    }
    ccl::sync(w);  // every slot read before the next round looks at them (none falls back)
  }
}

// A message of one piece goes into a slot and its references out on the spot, with no handle
// to wait for: while slots are free. With every slot still unread, the next such send goes to
// each receiver through the rings (a handle each), and all arrive intact.
TEST(SharedSends, OnePieceSendsGoOnTheSpotWhileSlotsLast) {
  const ccl::Group w = ccl::world();
  const int P = w.size(), r = w.rank();
  ccl::detail::MpiChannel& ch = channel_of(w);
  if (P < 3 || ccl_test::shm_switched_off()) GTEST_SKIP() << "needs two receivers, and CCL_SHM on";
  if (!ch.shares(ShmFabric::kMaxBytes)) SKIP_UNSUPPORTED("no shared-memory fabric");
  const std::vector<int> receivers{1, 2};
  constexpr int kSends = ShmFabric::kSlots + 1;
  std::vector<std::vector<std::byte>> data;
  for (int i = 0; i < kSends; ++i) data.push_back(pattern(ShmFabric::kShareFrom + 100 * i, i));
  if (r == 0) {
    for (int i = 0; i < kSends; ++i) {
      ccl::detail::Handles hs;
      const std::vector<std::byte>& d = data[static_cast<std::size_t>(i)];
      ch.send_shared(receivers.data(), 2, spare_tag(ch, 20 + i), d.data(), d.size(), hs);
      EXPECT_EQ(hs.size(), i < ShmFabric::kSlots ? 0u : 2u) << "send " << i;
      ch.wait_all(hs);
      ch.end_round(hs);
    }
  }
  ccl::sync(w);  // nothing read before every send went out
  if (r == 1 || r == 2) {
    for (int i = 0; i < kSends; ++i) {
      const std::vector<std::byte>& d = data[static_cast<std::size_t>(i)];
      std::vector<std::byte> got(d.size());
      ccl::detail::Handles hs;
      ch.recv(0, spare_tag(ch, 20 + i), got.data(), got.size(), hs);
      ch.wait_all(hs);
      ch.end_round(hs);
      EXPECT_EQ(got, d) << "message " << i << " at member " << r;
    }
  }
  ccl::sync(w);
}

TEST(SharedSends, AReceiverExpectingAnotherSizeReportsItWhileTheOthersComplete) {
  const ccl::Group w = ccl::world();
  const int P = w.size(), r = w.rank();
  ccl::detail::MpiChannel& ch = channel_of(w);
  if (P < 3 || ccl_test::shm_switched_off()) GTEST_SKIP() << "needs two receivers, and CCL_SHM on";
  if (!ch.shares(10000)) SKIP_UNSUPPORTED("no shared-memory fabric");
  const std::uint64_t tag = spare_tag(ch, 10);
  const std::vector<std::byte> data = pattern(10000, 3);
  ccl::detail::Handles hs;
  if (r == 0) {
    const int receivers[] = {1, 2};
    ch.send_shared(receivers, 2, tag, data.data(), data.size(), hs);
    ch.wait_all(hs);
  } else if (r <= 2) {
    const std::size_t expected = r == 1 ? 12000 : 10000;
    std::vector<std::byte> got(expected);
    ch.recv(0, tag, got.data(), expected, hs);
    if (r == 1) {
      try {
        ch.wait_all(hs);
        ADD_FAILURE() << "a message of 10000 bytes was taken for a receive of 12000";
      } catch (const ccl::Error& e) {
        EXPECT_NE(std::string(e.what()).find("10000 bytes arrived for a receive of 12000"),
                  std::string::npos)
            << e.what();
      }
    } else {
      ch.wait_all(hs);
      EXPECT_EQ(got, data);
    }
  }
  ch.end_round(hs);
  std::vector<I64> sum(3);
  ccl::combine(w, ref::data(r, 3, 1), sum, ccl::sum);  // the group still works
  std::vector<I64> want(3, 0);
  for (int q = 0; q < P; ++q) {
    const std::vector<I64> d = ref::data(q, 3, 1);
    for (std::size_t i = 0; i < 3; ++i) want[i] += d[i];
  }
  EXPECT_EQ(sum, want);
}

TEST(SharedSends, LinearBcastsOfAwkwardSizesFromEveryRoot) {
  const ccl::Group w = ccl::world();
  const int P = w.size(), r = w.rank();
  ccl::set_override(ccl::CollKind::bcast, "linear");
  int salt = 0;
  for (const std::size_t bytes :
       {ShmFabric::kShareFrom - 1, ShmFabric::kShareFrom, ShmFabric::kShareFrom + 1,
        ShmFabric::kMaxBytes - 1, ShmFabric::kMaxBytes, ShmFabric::kMaxBytes + 1,
        std::size_t{20000}, ShmFabric::kSlotBytes - 1, ShmFabric::kSlotBytes,
        ShmFabric::kSlotBytes + 1}) {
    for (int root = 0; root < P; ++root) {
      for (int again = 0; again < 3; ++again) {  // a slot each, then round again
        ++salt;
        std::vector<std::byte> buf =
            r == root ? pattern(bytes, salt) : std::vector<std::byte>(bytes);
        ccl::bcast(w, std::span<std::byte>(buf), root);
        EXPECT_EQ(buf, pattern(bytes, salt)) << bytes << " bytes from root " << root;
      }
    }
  }
  ccl::set_override(ccl::CollKind::bcast, "");
}

TEST(SharedSends, ManyInFlightOnTwoGroupsTakeEverySlotAndWaitAside) {
  const ccl::Group w = ccl::world();
  const int r = w.rank();
  const ccl::Group half = ccl::partition(w, r % 2, r, "half");
  ccl::set_override(ccl::CollKind::bcast, "linear");
  constexpr int kCalls = 10;  // more than a rank's slots
  const std::size_t bytes = 24000, half_bytes = 9000;
  std::vector<std::vector<std::byte>> on_world(kCalls), on_half(kCalls);
  std::vector<ccl::Request> world_calls, half_calls;
  // Even ranks start the world's calls first, odd ones their half's: references from a root
  // arrive for calls a receiver has not started yet and wait aside.
  auto start_world = [&] {
    for (int i = 0; i < kCalls; ++i) {
      const int root = i % 2;
      on_world[i] = r == root ? pattern(bytes, i) : std::vector<std::byte>(bytes);
      world_calls.push_back(ccl::ibcast(w, std::span<std::byte>(on_world[i]), root));
    }
  };
  auto start_half = [&] {
    for (int i = 0; i < kCalls; ++i) {
      on_half[i] =
          half.rank() == 0 ? pattern(half_bytes, 100 + i) : std::vector<std::byte>(half_bytes);
      half_calls.push_back(ccl::ibcast(half, std::span<std::byte>(on_half[i]), 0));
    }
  };
  if (r % 2 == 0) {
    start_world();
    start_half();
  } else {
    start_half();
    start_world();
  }
  for (int i = kCalls - 1; i >= 0; --i) world_calls[static_cast<std::size_t>(i)].wait();
  for (ccl::Request& h : half_calls) h.wait();
  for (int i = 0; i < kCalls; ++i) {
    EXPECT_EQ(on_world[i], pattern(bytes, i)) << "world call " << i;
    EXPECT_EQ(on_half[i], pattern(half_bytes, 100 + i)) << "half call " << i;
  }
  ccl::set_override(ccl::CollKind::bcast, "");
}

}  // namespace
