// The size from which plain transfers go direct (direct_probe.cpp): the start-up probe's finding,
// or CCL_DIRECT_ABOVE. Run with CCL_DIRECT_ABOVE=16384 and 8191 (tests/CMakeLists.txt), as on a
// host where one copy beats two from there (8191: from a whole cell, whose sends must not take
// the one-cell shortcut into the ring while the receiver waits for a handshake): messages between
// that size and kOneCopyUpTo go direct, pulled by the receiver, smaller and larger ones stream;
// pipelines get no segment of up to it (between two members none of up to kOneCopyUpTo); and
// collectives of every kind whose schedules mix such transfers with an exchange's (pushed)
// between the same two members in one round, several in flight on two groups, come out right
// (until the handshakes of pulled transfers were marked apart, a combine of 32776 bytes on
// 2 ranks failed here with "a message of 32776 bytes arrived for a receive of 32768 bytes").
// Where ranks share cores (3 ranks here) the setting changes nothing. Without it (mpi_np2 and
// the others) the probe decides.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "../common/reference.hpp"
#include "ccl/ccl.hpp"
#include "ccl/selection.hpp"
#include "groups/group_state.hpp"
#include "transport/mpi_channel.hpp"
#include "transport/shm/shm_fabric.hpp"

namespace {

using I64 = std::int64_t;
using ccl::detail::ShmFabric;

std::size_t setting() {
  const char* v = std::getenv("CCL_DIRECT_ABOVE");
  return v == nullptr ? 0 : std::strtoull(v, nullptr, 10);
}

const ccl::detail::MpiChannel& channel_of(const ccl::Group& g) {
  return dynamic_cast<const ccl::detail::MpiChannel&>(*g.state().channel);
}

TEST(DirectAbove, PlainTransfersFromTheSettingUpToOneCopyUpToGoDirect) {
  const ccl::Group w = ccl::world();
  const std::size_t above = setting();
  if (w.size() == 1 || above == 0) GTEST_SKIP() << "no peer, or CCL_DIRECT_ABOVE not set";
  const auto& ch = channel_of(w);
  const int peer = (w.rank() + 1) % w.size();
  constexpr std::size_t kRing = 8 * ShmFabric::kMaxBytes;
  if (ccl::core_sharing() != ccl::CoreSharing::none) {
    // A receiver may be asleep, and its turn to answer a handshake would cost a time slice.
    for (const std::size_t bytes : {above + 1, kRing, ccl::kOneCopyUpTo}) {
      EXPECT_FALSE(ch.plain_direct(peer, bytes)) << bytes << " bytes, where ranks share cores";
    }
    return;
  }
  EXPECT_FALSE(ch.plain_direct(peer, above)) << "at the setting itself";
  EXPECT_TRUE(ch.plain_direct(peer, above + 1)) << "just above the setting";
  EXPECT_TRUE(ch.plain_direct(peer, kRing)) << "what the ring holds";
  EXPECT_TRUE(ch.plain_direct(peer, kRing + 1)) << "past the ring";
  EXPECT_TRUE(ch.plain_direct(peer, ccl::kOneCopyUpTo));
  EXPECT_FALSE(ch.plain_direct(peer, ccl::kOneCopyUpTo + 1)) << "longer: streamed";
  EXPECT_FALSE(ch.folds(peer, above + 8, 8)) << "a direct receive lands whole, then is reduced";
  EXPECT_TRUE(ch.folds(peer, ccl::kOneCopyUpTo + 8, 8)) << "a stream folds piece by piece";
  EXPECT_TRUE(ch.copies_direct(peer, above + 1, ccl::Copier::receiver));
  EXPECT_FALSE(ch.copies_direct(peer, above + 1, ccl::Copier::exchange))
      << "an exchange keeps its own limit, half the ring";
}

TEST(DirectAbove, PipelinesGetNoSegmentThatWouldStream) {
  if (setting() == 0) GTEST_SKIP() << "CCL_DIRECT_ABOVE not set";
  const ccl::Algorithm* chain = nullptr;
  for (const ccl::Algorithm* a : ccl::catalog()) {
    if (a->kind == ccl::CollKind::bcast && a->name == "chain") chain = a;
  }
  ASSERT_NE(chain, nullptr);
  ccl::Shape s;
  s.kind = ccl::CollKind::bcast;
  s.size = 3;
  s.count = 1 << 24;
  ccl::Params p;
  p.segment = setting();
  EXPECT_FALSE(ccl::considered(*chain, p, s)) << "a segment of the setting's size";
  p.segment = 4 * setting();
  EXPECT_TRUE(ccl::considered(*chain, p, s)) << "a longer segment, 3 members";
  // Where ranks share cores nothing goes direct (no finding to agree on): nothing more to see.
  if (ccl::core_sharing() != ccl::CoreSharing::none) return;
  s.size = 2;
  EXPECT_FALSE(ccl::considered(*chain, p, s)) << "between two members, one copy per segment";
  p.segment = ccl::kOneCopyUpTo;
  EXPECT_FALSE(ccl::considered(*chain, p, s)) << "the longest one copy";
  p.segment = 2 * ccl::kOneCopyUpTo;
  EXPECT_TRUE(ccl::considered(*chain, p, s)) << "segments that stream";
}

// Every collective at sizes around the setting and the ring, several in flight on two groups
// with a blocking combine among them, and a non-commutative reduce (rank order kept).
TEST(DirectAbove, CollectivesAroundTheSizesInFlightOnTwoGroupsComeOutRight) {
  const ccl::Group w = ccl::world();
  const int P = w.size(), r = w.rank();
  const ccl::Group half = ccl::partition(w, r % 2, r, "half");
  const std::size_t above = std::max<std::size_t>(setting(), ShmFabric::kMaxBytes);
  int salt = 0;
  for (const std::size_t bytes :
       {above - 8, above, above + 8, 2 * above, 8 * ShmFabric::kMaxBytes,
        8 * ShmFabric::kMaxBytes + 8, 32 * ShmFabric::kMaxBytes + 8, ccl::kOneCopyUpTo + 8}) {
    ++salt;
    const std::size_t n = bytes / 8;
    const int root = salt % P;
    std::vector<I64> b = r == root ? ref::data(root, n, salt) : std::vector<I64>(n);
    ccl::Request rb = ccl::ibcast(w, b, root);
    const std::vector<I64> mine = ref::data(r, n, salt), mine_longer = ref::data(r, n + 1, salt);
    std::vector<I64> shifted(n);
    ccl::Request rs = ccl::ishift(w, mine, shifted, 1);
    std::vector<I64> all(n * static_cast<std::size_t>(P));
    ccl::Request rc = ccl::iconcat(w, mine, all);
    std::vector<I64> half_sum(n + 1);
    ccl::Request rh = ccl::icombine(half, mine_longer, half_sum, ccl::sum);
    std::vector<I64> sum(n + 1);
    ccl::combine(w, mine_longer, sum, ccl::sum);
    const std::size_t m = bytes / sizeof(ref::Mat);
    std::vector<ref::Mat> ordered(r == root ? m : 0);
    ccl::reduce(w, ref::mats(r, m), ordered, ref::MatMul{}, root);
    rh.wait();
    rc.wait();
    rs.wait();
    rb.wait();
    const std::string where = std::to_string(bytes) + " bytes";
    EXPECT_EQ(b, ref::data(root, n, salt)) << "bcast, " << where;
    EXPECT_EQ(shifted, ref::data((r - 1 + P) % P, n, salt)) << "shift, " << where;
    for (int q = 0; q < P; ++q) {
      const std::vector<I64> want = ref::data(q, n, salt);
      EXPECT_TRUE(std::equal(want.begin(), want.end(), all.begin() + q * static_cast<long>(n)))
          << "concat block " << q << ", " << where;
    }
    std::vector<I64> want_sum(n + 1, 0), want_half(n + 1, 0);
    for (int q = 0; q < P; ++q) {
      const std::vector<I64> d = ref::data(q, n + 1, salt);
      for (std::size_t i = 0; i < d.size(); ++i) {
        want_sum[i] += d[i];
        if (q % 2 == r % 2) want_half[i] += d[i];
      }
    }
    EXPECT_EQ(sum, want_sum) << "combine, " << where;
    EXPECT_EQ(half_sum, want_half) << "combine on half, " << where;
    if (r == root) {
      EXPECT_EQ(ordered, ref::product(P, m)) << "non-commutative reduce, " << where;
    }
  }
}

}  // namespace
