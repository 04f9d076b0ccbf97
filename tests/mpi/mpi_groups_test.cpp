// Process groups over MPI: accessors, PGIDs agreed by every member and unique among live groups
// (thousands of them, from repeated partitions), and isolation from user point-to-point traffic.
#include <gtest/gtest.h>
#include <mpi.h>

#include <functional>
#include <map>
#include <numeric>
#include <set>
#include <span>

#include "ccl/ccl.hpp"
#include "ccl/selection.hpp"

namespace {

struct PgidRecord {
  ccl::Pgid pgid;
  std::uint64_t members_hash;
};

std::uint64_t members_hash(const ccl::Group& g) {
  std::uint64_t h = 1469598103934665603ULL;
  for (int m : g.members()) h = (h ^ static_cast<std::uint64_t>(m + 1)) * 1099511628211ULL;
  return h;
}

TEST(MpiGroups, WorldAccessors) {
  const ccl::Group w = ccl::world();
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  EXPECT_EQ(w.size(), size);
  EXPECT_EQ(w.rank(), rank);
  EXPECT_EQ(w.label(), "world");
  for (int i = 0; i < size; ++i) {
    EXPECT_EQ(w.world_rank_of(i), i);
    EXPECT_EQ(w.rank_of_world(i), i);
  }
  EXPECT_EQ(w.rank_of_world(size), -1);
  EXPECT_THROW(w.world_rank_of(size), ccl::Error);
}

TEST(MpiGroups, PartitionRanksByKeyThenParentRank) {
  const ccl::Group w = ccl::world();
  // Keys collide in pairs: ties keep parent order.
  const ccl::Group g = ccl::partition(w, 0, -(w.rank() / 2));
  std::vector<int> expected;
  for (int k = (w.size() - 1) / 2; k >= 0; --k) {
    for (int r = 0; r < w.size(); ++r) {
      if (r / 2 == k) expected.push_back(r);
    }
  }
  EXPECT_EQ(std::vector<int>(g.members().begin(), g.members().end()), expected);
  EXPECT_EQ(g.label(), "0");
  EXPECT_EQ(g.world_rank_of(g.rank()), w.rank());
}

TEST(MpiGroups, ThousandsOfLiveGroupsAgreeAndNeverCollide) {
  const ccl::Group w = ccl::world();
  std::vector<ccl::Group> live;
  // Repeated partitions of the world and of earlier groups, all kept alive.
  for (int i = 0; i < 1200; ++i) {
    const ccl::Group& parent =
        (i % 3 == 0 || live.empty()) ? w : live[static_cast<std::size_t>(i) / 2];
    live.push_back(
        ccl::partition(parent, (parent.rank() + i) % 3, (i % 2 ? 1 : -1) * parent.rank()));
  }
  // Every member of each group holds the same PGID.
  for (const ccl::Group& g : live) {
    std::vector<ccl::Pgid> all(static_cast<std::size_t>(g.size()));
    ccl::Pgid mine = g.pgid();
    ccl::concat(g, std::span(&mine, 1), all);
    for (const auto& p : all) ASSERT_EQ(p, mine) << "group " << g.label();
  }
  // Across all processes, one PGID names one member set; the world group's is not reused.
  std::vector<PgidRecord> mine;
  for (const ccl::Group& g : live) mine.push_back({g.pgid(), members_hash(g)});
  std::vector<int> counts(static_cast<std::size_t>(w.size()));
  int n = static_cast<int>(mine.size());
  ccl::concat(w, std::span(&n, 1), counts);
  std::vector<PgidRecord> all(
      static_cast<std::size_t>(std::accumulate(counts.begin(), counts.end(), 0)));
  ccl::concatv(w, mine, all, counts);
  std::map<ccl::Pgid, std::uint64_t> owner;
  for (const auto& rec : all) {
    EXPECT_NE(rec.pgid, w.pgid());
    auto [it, fresh] = owner.emplace(rec.pgid, rec.members_hash);
    EXPECT_EQ(it->second, rec.members_hash) << "PGID " << rec.pgid.str() << " names two groups";
  }
  // Distinct groups created here: at least one per partition call.
  EXPECT_GE(owner.size(), live.size());
}

TEST(MpiGroups, ExplicitGroupsFormedTwiceDiffer) {
  const ccl::Group w = ccl::world();
  std::vector<int> all(static_cast<std::size_t>(w.size()));
  std::iota(all.rbegin(), all.rend(), 0);  // reverse order
  const ccl::Group a = ccl::group(all, "reversed");
  const ccl::Group b = ccl::group(all, "reversed");
  EXPECT_NE(a.pgid(), b.pgid());
  EXPECT_EQ(a.rank(), w.size() - 1 - w.rank());
  EXPECT_EQ(a.label(), "reversed");
  std::vector<ccl::Pgid> pa(all.size());
  ccl::Pgid mine = a.pgid();
  ccl::concat(a, std::span(&mine, 1), pa);
  for (const auto& p : pa) EXPECT_EQ(p, mine);
}

TEST(MpiGroups, ExplicitGroupRejectsBadLists) {
  const ccl::Group w = ccl::world();
  std::vector<int> without_me;
  EXPECT_THROW(ccl::group(without_me, "empty"), ccl::Error);
  std::vector<int> twice{w.rank(), w.rank()};
  EXPECT_THROW(ccl::group(twice, "twice"), ccl::Error);
  std::vector<int> outside{w.rank(), w.size()};
  EXPECT_THROW(ccl::group(outside, "outside"), ccl::Error);
}

TEST(MpiGroups, UserWildcardReceiveNeverSeesCollectiveTraffic) {
  const ccl::Group w = ccl::world();
  const int next = (w.rank() + 1) % w.size();
  const int prev = (w.rank() - 1 + w.size()) % w.size();
  int user_in = -1;
  MPI_Request user;
  MPI_Irecv(&user_in, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &user);
  std::vector<int> send{w.rank()}, recv(static_cast<std::size_t>(w.size()));
  for (int i = 0; i < 20; ++i) {
    ccl::concat(w, send, recv);
    ccl::sync(w);
  }
  int user_out = 1000 + w.rank();
  MPI_Send(&user_out, 1, MPI_INT, next, 7, MPI_COMM_WORLD);
  MPI_Status status;
  MPI_Wait(&user, &status);
  // Had a collective message matched it, source, tag or value would be another.
  EXPECT_EQ(status.MPI_SOURCE, prev);
  EXPECT_EQ(status.MPI_TAG, 7);
  EXPECT_EQ(user_in, 1000 + prev);
}

// A blocking sync after rooted calls releases first the member their loop predicts, where that
// costs at most two start-ups more (linear through it: it sends n − 1 tokens, the others one), as
// on the simulator: the root of the next fan-out (same root, or the stride of the last two), the
// member after the root of the next fan-in, whose root leaves once all others have (each sends
// it a token more); after any other call the model's choice, which shares cores as selection
// says.
TEST(MpiGroups, SyncReleasesFirstTheMemberTheLoopPredicts) {
  const ccl::Group w = ccl::world();
  const int n = w.size();
  if (n == 1) GTEST_SKIP() << "a sync on one member sends nothing";
  const ccl::MachineModel before = ccl::machine_model();
  ccl::set_machine_model(ccl::MachineModel{2e-6, 2e-10, 1e-10, "test", {}, false, {}});
  int log2_ceil = 0;
  while ((1 << log2_ceil) < n) ++log2_ceil;
  std::vector<int> buf(4, w.rank()), out(4), all(static_cast<std::size_t>(n));
  struct Loop {
    const char* calls;
    std::function<void()> run;
    int hub;   // -1: none
    int last;  // the member released by all others (the fan-in's root), or -1
  };
  const std::vector<Loop> loops = {
      {"bcast from n-1", [&] { ccl::bcast(w, buf, n - 1); }, n - 1, -1},
      {"bcasts from 0 then 1",
       [&] {
         ccl::bcast(w, buf, 0);
         ccl::sync(w);
         ccl::bcast(w, buf, 1 % n);
       },
       2 % n, -1},
      {"gather to 0", [&] { ccl::gather(w, std::span(buf).first(1), all, 0); }, 1 % n, 0},
      {"combine", [&] { ccl::combine(w, buf, out, ccl::sum); }, -1, -1},
  };
  for (const Loop& loop : loops) {
    ccl::combine(w, buf, out, ccl::sum);  // no rooted call before the loop's
    loop.run();
    ccl::reset_statistics();
    ccl::sync(w);
    const bool linear = ccl::shared_cores() || (loop.hub >= 0 && n <= 3);
    const int hub = std::max(loop.hub, 0);
    const bool root_last = loop.last >= 0 && n > 2;
    const int tokens = !linear                              ? log2_ceil
                       : w.rank() == hub                    ? n - 1
                       : root_last && w.rank() != loop.last ? 2
                                                            : 1;
    EXPECT_EQ(ccl::statistics().of(ccl::CollKind::sync).algorithm,
              linear ? "linear" : "dissemination")
        << "after " << loop.calls;
    EXPECT_EQ(ccl::statistics().traffic.messages, static_cast<std::uint64_t>(tokens))
        << "after " << loop.calls << " at rank " << w.rank();
  }
  ccl::set_machine_model(before);
}

}  // namespace
