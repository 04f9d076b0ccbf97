// Tag space: a group's collective instances are numbered, and the number wraps (tags are reused)
// after (tag limit + 1) / phases / 2 instances, rounded down to a power of two (the other half of
// the tags are persistent calls'). Run with a small CCL_TAG_UB (tests/CMakeLists.txt: 31, so
// tags repeat every 4 instances) this does thousands of
// collectives, blocking and several nonblocking at once, on the world and on a partition, with
// large messages (MPI) and small ones (shared memory), and checks every result.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <vector>

#include "ccl/ccl.hpp"
#include "ccl/selection.hpp"
#include "groups/group_state.hpp"

namespace {

using I64 = std::int64_t;

TEST(TagSpace, ManyMoreInstancesThanTagsStayCorrect) {
  const ccl::Group w = ccl::world();
  const int P = w.size(), r = w.rank();
  const ccl::Group half = ccl::partition(w, r % 2, r, "half");
  const int H = half.size();
  // The tag space in force: under CCL_TAG_UB=31 instance 4 must reuse instance 0's tag.
  const ccl::detail::Channel& channel = *w.state().channel;
  const bool wraps = channel.tag(4, 0) == channel.tag(0, 0);
  if (std::getenv("CCL_TAG_UB") != nullptr) {
    ASSERT_TRUE(wraps) << "CCL_TAG_UB=31 did not shrink the tag space";
  }
  const std::size_t large = 4096;  // 32 KiB of I64: the MPI path
  for (int i = 0; i < 3000; ++i) {
    const int root = i % P;
    std::vector<I64> b(i % 3 == 0 ? large : 3, r == root ? i : -1);
    ccl::bcast(w, b, root);
    for (I64 x : b) ASSERT_EQ(x, i) << "bcast, instance " << i;

    ASSERT_EQ(ccl::combine_value(w, I64{i} + r, ccl::sum), I64{P} * i + I64{P} * (P - 1) / 2);

    // Several in flight at once on the same group and on a sub-group, waited out of order.
    const std::vector<I64> mine{I64{i} * 100 + r};
    std::vector<I64> all(static_cast<std::size_t>(P));
    const std::vector<I64> one{1};
    std::vector<I64> below(1), in_half(1);
    ccl::Request a = ccl::iconcat(w, mine, all);
    ccl::Request p = ccl::iprefix(w, one, below, ccl::sum);
    ccl::Request h = ccl::icombine(half, one, in_half, ccl::sum);
    h.wait();
    p.wait();
    a.wait();
    for (int q = 0; q < P; ++q)
      ASSERT_EQ(all[static_cast<std::size_t>(q)], I64{i} * 100 + q) << "instance " << i;
    ASSERT_EQ(below[0], r + 1);
    ASSERT_EQ(in_half[0], H);
  }
}

// More collectives in flight on one group than the tag cycle holds: starting instance i + cycle
// must first complete instance i on this member. Rank 0 waits for its first combine before
// starting the last, so its late messages of the first would otherwise meet the others' last.
TEST(TagSpace, MoreInFlightThanTheTagCycleStayCorrect) {
  const ccl::Group w = ccl::world();
  const int P = w.size(), r = w.rank();
  const std::uint64_t cycle = w.state().channel->tag_cycle();
  if (cycle > 64) GTEST_SKIP() << "run with CCL_TAG_UB=31: a tag cycle of 4";
  const int K = static_cast<int>(cycle) * 3 + 1;
  const std::size_t n = 300;  // several rounds of a ring combine, through MPI and the rings
  for (const char* algorithm : {"ring", "recursive_doubling"}) {
    ccl::set_override(ccl::CollKind::combine, algorithm);
    std::vector<std::vector<I64>> in(K), out(K);
    std::vector<ccl::Request> req(K);
    for (int i = 0; i < K; ++i) {
      if (i == static_cast<int>(cycle) && r == 0) req[0].wait();
      in[i].assign(n, I64{1000} * i + r);
      out[i].assign(n, -1);
      req[i] = ccl::icombine(w, in[i], out[i], ccl::sum);
    }
    for (int i = K - 1; i >= 0; --i) req[i].wait();
    for (int i = 0; i < K; ++i) {
      const I64 want = I64{1000} * i * P + I64{P} * (P - 1) / 2;
      for (I64 v : out[i]) ASSERT_EQ(v, want) << algorithm << ", instance " << i;
    }
  }
  ccl::set_override(ccl::CollKind::combine, "");
}

}  // namespace
