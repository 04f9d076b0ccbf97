// Every collective over MPI, on the world group and on partitioned sub-groups (rows and columns
// of a 2D split, odd/even ranks in reverse order, an explicit list), at lengths 0, 1, below and
// above the group size, and at 1 MiB per member; and every algorithm of the catalog, with every
// setting selection considers, on the transports of a real run (shared memory, MPI).
#include <gtest/gtest.h>

#include <time.h>

#include <chrono>
#include <cstdlib>
#include <numeric>
#include <thread>

#include "../common/collective_cases.hpp"
#include "../common/mpi_runner.hpp"
#include "ccl/selection.hpp"

namespace {

std::vector<std::size_t> lengths(int p) {
  const auto n = static_cast<std::size_t>(p);
  return {0, 1, n > 1 ? n - 1 : 0, n + 3};
}

TEST(MpiCollectives, WorldGroup) {
  MpiRunner run{ccl::world()};
  cases::all(run, lengths(run.size()), {0, 1, 3});
}

TEST(MpiCollectives, RowsAndColumnsOfA2DSplit) {
  const ccl::Group w = ccl::world();
  const int c = grid_columns(w.size());
  const ccl::Group row = ccl::partition(w, w.rank() / c, w.rank(), "row");
  const ccl::Group col = ccl::partition(w, w.rank() % c, w.rank(), "col");
  EXPECT_EQ(row.rank(), w.rank() % c);
  EXPECT_EQ(col.rank(), w.rank() / c);
  MpiRunner rows{row}, cols{col};
  cases::all(rows, lengths(rows.size()), {0, 2});
  cases::all(cols, lengths(cols.size()), {0, 2});
}

TEST(MpiCollectives, OddEvenGroupsRankedByDescendingKey) {
  const ccl::Group w = ccl::world();
  const ccl::Group g = ccl::partition(w, w.rank() % 2, -w.rank());
  // Highest world rank first.
  std::vector<int> expected;
  for (int r = w.size() - 1; r >= 0; --r) {
    if (r % 2 == w.rank() % 2) expected.push_back(r);
  }
  EXPECT_EQ(std::vector<int>(g.members().begin(), g.members().end()), expected);
  MpiRunner run{g};
  cases::all(run, lengths(run.size()), {1, 2});
}

TEST(MpiCollectives, ExplicitGroupOfEveryThirdRank) {
  const ccl::Group w = ccl::world();
  std::vector<int> list;
  for (int r = w.size() - 1; r >= 0; --r) {
    if (r % 3 == w.rank() % 3) list.push_back(r);
  }
  const ccl::Group g = ccl::group(list, "third");
  EXPECT_EQ(g.size(), static_cast<int>(list.size()));
  EXPECT_EQ(g.world_rank_of(g.rank()), w.rank());
  MpiRunner run{g};
  cases::all(run, {0, 1, 5}, {0, 2});
}

TEST(MpiCollectives, OneMebibytePerMember) {
  MpiRunner run{ccl::world()};
  const std::size_t n = (1u << 20) / sizeof(std::int64_t);  // 1 MiB of int64
  const int P = run.size();
  cases::bcast(run, n, P - 1);
  cases::reduce_sum(run, n, P / 2);
  cases::reduce_matrix(run, n / 4, P - 1);  // 1 MiB of 32-byte matrices
  cases::combine_sum(run, n);
  cases::combine_matrix(run, n / 4);
  cases::combine_double_bits(run, n);
  cases::prefix_matrix(run, n / 4);
  cases::shift(run, n, 1);
  cases::scatter(run, n, P / 2);
  cases::gather(run, n, P - 1);
  cases::concat(run, n);
  cases::index(run, n / static_cast<std::size_t>(P) + 1);
  cases::in_place(run, n / static_cast<std::size_t>(P) + 1);
}

// Runs the checks of one collective kind: vectors of n elements (blocks for the block kinds),
// root P − 1 and, for reductions, also a non-commutative operator at root 0 (I64 sums are
// commutative; 32-byte matrix products are not).
void run_kind(MpiRunner& run, ccl::CollKind kind, std::size_t n, bool commutative) {
  const int P = run.size();
  using K = ccl::CollKind;
  switch (kind) {
    case K::bcast:
      cases::bcast(run, n, P - 1);
      break;
    case K::reduce:
      commutative ? cases::reduce_sum(run, n, P - 1) : cases::reduce_matrix(run, n / 4, 0);
      break;
    case K::combine:
      commutative ? cases::combine_sum(run, n) : cases::combine_matrix(run, n / 4);
      break;
    case K::prefix:
      commutative ? cases::prefix_sum(run, n) : cases::prefix_matrix(run, n / 4);
      break;
    case K::scatter:
      cases::scatter(run, n, P - 1);
      break;
    case K::gather:
      cases::gather(run, n, P - 1);
      break;
    case K::concat:
      cases::concat(run, n);
      break;
    case K::index:
      cases::index(run, n / static_cast<std::size_t>(P) + 1);
      break;
    case K::shift:
      cases::shift(run, n, 1);
      break;
    case K::sync:
      cases::sync(run);
      break;
    default:
      ADD_FAILURE() << "no case for " << ccl::name(kind);
  }
}

// The shape run_kind's call has, for the candidates selection would consider.
ccl::Shape shape_of(ccl::CollKind kind, int P, std::size_t n, bool commutative) {
  using K = ccl::CollKind;
  ccl::Shape s;
  s.kind = kind;
  s.size = P;
  s.root = !ccl::is_rooted(kind) ? 0 : commutative ? P - 1 : 0;
  s.elem = commutative ? sizeof(std::int64_t) : sizeof(ref::Mat);
  s.count = kind == K::sync    ? 0
            : kind == K::index ? n / static_cast<std::size_t>(P) + 1
            : commutative      ? n
                               : n / 4;
  s.commutative = commutative;
  s.distance = 1;
  return s;
}

TEST(MpiCollectives, EveryAlgorithmWithEverySetting) {
  MpiRunner run{ccl::world()};
  const int P = run.size();
  int runs = 0;
  for (const ccl::Algorithm* a : ccl::catalog()) {
    // Around the shared-memory limit (8 KiB) and well above it, where segments pipeline.
    for (std::size_t n : {std::size_t{1100}, std::size_t{20000}}) {
      for (bool commutative : {true, false}) {
        if (!commutative && !ccl::is_reduction(a->kind)) continue;
        for (const ccl::Params& p : a->candidates(shape_of(a->kind, P, n, commutative))) {
          const ccl::Choice choice{a, p};
          SCOPED_TRACE(std::string(ccl::name(a->kind)) + " " + choice.str() +
                       " n=" + std::to_string(n) + (commutative ? "" : " non-commutative"));
          ccl::set_override(a->kind, choice.str());
          run_kind(run, a->kind, n, commutative);
          // The statistics name the algorithm that last ran each collective: the forced one.
          EXPECT_EQ(ccl::statistics().of(a->kind).algorithm, a->name) << "the override did not run";
          ++runs;
        }
      }
    }
    ccl::set_override(a->kind, "");
  }
  EXPECT_GT(runs, P > 1 ? 20 : 0);
}

// A root that has all it needs leaves a pipelined reduce while its children's large sends (MPI
// rendezvous) still wait for its acknowledgements; it then waits on shared memory in the next
// collective. Its MPI must progress meanwhile, or every member waits forever (it did: 3 ranks,
// 4 MiB per member, 32 KiB segments, as ccl-calibrate measures it).
TEST(MpiCollectives, LargeSendsCompleteWhileTheirReceiverWaitsOnSharedMemory) {
  const ccl::Group w = ccl::world();
  if (w.size() == 1) GTEST_SKIP() << "no transfers on one member";
  const std::size_t n = (std::size_t{4} << 20) / sizeof(double);
  std::vector<double> send(n, w.rank() + 1.0), recv(n);
  ccl::set_override(ccl::CollKind::reduce, "segmented_binomial:seg=32768");
  for (int i = 0; i < 20; ++i) {
    ccl::sync(w);
    for (int k = 0; k < 3; ++k)
      ccl::reduce(w, std::span<const double>(send), std::span<double>(recv), ccl::sum, 0);
    const double latest = ccl::combine_value(w, static_cast<double>(i), ccl::max);  // shared memory
    EXPECT_EQ(latest, i);
  }
  ccl::set_override(ccl::CollKind::reduce, "");
  if (w.rank() == 0) {
    const double total = w.size() * (w.size() + 1) / 2.0;
    EXPECT_EQ(std::count(recv.begin(), recv.end(), total), static_cast<std::ptrdiff_t>(n));
  }
}

}  // namespace

// Zero bytes move nothing, so in run mode such a call returns at once (as MPI allows) instead
// of waiting for the other members: here only member 0 makes them, blocking and nonblocking,
// and the group's next collective still matches up. Were they run, member 0 would wait for
// the others forever.
// sync is a barrier: no member leaves it before the last one entered. The last one here is
// each algorithm's member 0, 30 ms late; the others note when they left on the node's monotonic
// clock, which every process of the node shares. A sync that did nothing let them all leave at
// once; the collective cases, which only call sync, passed with it.
TEST(MpiCollectives, SyncHoldsEveryMemberUntilTheLastEnters) {
  const ccl::Group w = ccl::world();
  if (w.size() == 1) GTEST_SKIP() << "one member: nothing to wait for";
  auto now_ns = [] {
    timespec t{};
    clock_gettime(CLOCK_MONOTONIC, &t);
    return static_cast<double>(t.tv_sec) * 1e9 + static_cast<double>(t.tv_nsec);
  };
  for (const ccl::Algorithm* a : ccl::catalog()) {
    if (a->kind != ccl::CollKind::sync) continue;
    ccl::Shape shape;
    shape.kind = ccl::CollKind::sync;
    shape.size = w.size();
    if (a->candidates(shape).empty()) continue;
    SCOPED_TRACE(std::string("sync ") + std::string(a->name));
    ccl::set_override(ccl::CollKind::sync, a->name);
    for (int round = 0; round < 3; ++round) {
      ccl::sync(w);
      double entered = 0;
      if (w.rank() == 0) {
        std::this_thread::sleep_for(std::chrono::milliseconds(30));
        entered = now_ns();
      }
      ccl::sync(w);
      const double left = now_ns();
      entered = ccl::combine_value(w, entered, ccl::max);
      EXPECT_GE(left, entered) << "member " << w.rank()
                               << " left the sync before member 0 entered it";
    }
  }
  ccl::set_override(ccl::CollKind::sync, "");
}

TEST(MpiCollectives, ZeroByteCallsReturnAtOnce) {
  const ccl::Group w = ccl::world();
  ASSERT_EQ(ccl::mode(), ccl::Mode::run);
  const int root = w.size() - 1;
  std::vector<double> none, ignored(3, 1.0);
  if (w.rank() == 0) {
    for (int i = 0; i < 3; ++i) {
      ccl::bcast(w, std::span<double>(none), root);
      // A non-root's receive buffer is ignored, whatever its length.
      std::span<double> reduced = root == 0 ? std::span<double>(none) : std::span<double>(ignored);
      ccl::reduce(w, std::span<const double>(none), reduced, ccl::sum, root);
      ccl::combine(w, std::span<const double>(none), std::span<double>(none), ccl::sum);
      ccl::scatter(w, std::span<const double>(none), std::span<double>(none), root);
      ccl::gather(w, std::span<const double>(none), std::span<double>(none), root);
      ccl::concat(w, std::span<const double>(none), std::span<double>(none));
      ccl::index(w, std::span<const double>(none), std::span<double>(none));
      ccl::prefix(w, std::span<const double>(none), std::span<double>(none), ccl::sum);
      ccl::shift(w, std::span<const double>(none), std::span<double>(none), 1);
      ccl::Request r =
          ccl::icombine(w, std::span<const double>(none), std::span<double>(none), ccl::sum);
      EXPECT_TRUE(r.test());
    }
  }
  const std::vector<double> one{static_cast<double>(w.rank())};
  std::vector<double> sum(1);
  ccl::combine(w, std::span<const double>(one), std::span<double>(sum), ccl::sum);
  EXPECT_EQ(sum[0], w.size() * (w.size() - 1) / 2.0);
}

namespace {

// Without CCL_MODEL the runtime selects with the built-in model calibrated nearest to the job's
// rank count, the same on every rank.
TEST(MpiCollectives, BuiltInModelUnlessOneIsNamed) {
  const ccl::Group w = ccl::world();
  const char* named = std::getenv("CCL_MODEL");
  if (named != nullptr && *named != '\0') GTEST_SKIP() << "CCL_MODEL is set";
  EXPECT_EQ(ccl::machine_model().source, ccl::builtin_machine_model(w.size()).source);
  EXPECT_FALSE(ccl::machine_model().profiles.empty());
}

}  // namespace
