// Develop mode over MPI: a mismatched root, count, operator, operation or buffer makes every rank
// throw ccl::Error naming the group, the operation, the rank and the value, and the test ends
// (no hang). Afterwards the group still works.
#include <gtest/gtest.h>

#include <cstdlib>
#include <numeric>
#include <string>

#include "../common/reference.hpp"
#include "ccl/ccl.hpp"
#include "ccl/selection.hpp"

namespace {

using I64 = std::int64_t;

// Runs first, before any test switches the mode by API.
TEST(ModeFromEnvironment, FollowsCclModeVariable) {
  const char* env = std::getenv("CCL_MODE");
  const bool develop = env != nullptr && std::string(env) == "develop";
  EXPECT_EQ(ccl::mode(), develop ? ccl::Mode::develop : ccl::Mode::run);
}

class MpiDevelop : public ::testing::Test {
 protected:
  void SetUp() override { ccl::set_mode(ccl::Mode::develop); }
  void TearDown() override {
    // The group must still work after an error.
    std::vector<I64> in{1}, out{0};
    ccl::combine(w, in, out, ccl::sum);
    EXPECT_EQ(out[0], w.size());
    ccl::set_mode(ccl::Mode::run);
  }
  // Runs f on every rank and returns the message of the ccl::Error it must throw.
  template <class F>
  std::string error_of(F f) {
    try {
      f();
    } catch (const ccl::Error& e) {
      return e.what();
    }
    ADD_FAILURE() << "rank " << w.rank() << ": no ccl::Error thrown";
    return {};
  }
  static void expect_contains(const std::string& msg, const std::string& part) {
    EXPECT_NE(msg.find(part), std::string::npos) << "message: " << msg << "\nmissing: " << part;
  }
  ccl::Group w = ccl::world();
};

TEST_F(MpiDevelop, ModeComesFromEnvironmentOrApi) {
  EXPECT_EQ(ccl::mode(), ccl::Mode::develop);
}

TEST_F(MpiDevelop, MismatchedRoot) {
  std::vector<I64> buf(4, w.rank());
  const int root = w.rank() == 0 ? 0 : 1;
  const std::string msg = error_of([&] { ccl::bcast(w, buf, root); });
  expect_contains(msg, "bcast");
  expect_contains(msg, "'world'");
  expect_contains(msg, "rank 1 passed root 1, rank 0 passed root 0");
}

TEST_F(MpiDevelop, MismatchedCount) {
  const int last = w.size() - 1;
  std::vector<I64> in(w.rank() == last ? 3 : 4, 1), out(in.size());
  const std::string msg = error_of([&] { ccl::combine(w, in, out, ccl::sum); });
  expect_contains(msg, "combine");
  expect_contains(msg, "rank " + std::to_string(last) + " passed count 3, rank 0 passed count 4");
}

TEST_F(MpiDevelop, MismatchedOperator) {
  std::vector<I64> in(2, 1), out(2);
  const std::string msg = error_of([&] {
    if (w.rank() == 0) {
      ccl::combine(w, in, out, ccl::sum);
    } else {
      ccl::combine(w, in, out, ccl::max);
    }
  });
  expect_contains(msg, "rank 1 passed reduce op 'max', rank 0 passed reduce op 'sum'");
}

TEST_F(MpiDevelop, MismatchedOperation) {
  std::vector<I64> in(2, 1), out(2);
  const std::string msg = error_of([&] {
    if (w.rank() == 0) {
      ccl::reduce(w, in, out, ccl::sum, 0);
    } else {
      ccl::combine(w, in, out, ccl::sum);
    }
  });
  expect_contains(msg, "rank 1 called combine, rank 0 called reduce");
}

TEST_F(MpiDevelop, ReceiveBufferTooSmallOnOneRank) {
  const int last = w.size() - 1;
  std::vector<I64> in(2, w.rank());
  std::vector<I64> out(w.rank() == last ? 1 : 2 * static_cast<std::size_t>(w.size()));
  const std::string msg = error_of([&] { ccl::concat(w, in, out); });
  expect_contains(msg, "rank " + std::to_string(last) + ": recv buffer holds 1 elements, needs " +
                           std::to_string(2 * w.size()));
}

TEST_F(MpiDevelop, RootOutsideTheGroup) {
  std::vector<I64> buf(1);
  const std::string msg = error_of([&] { ccl::bcast(w, buf, w.size()); });
  expect_contains(msg, "root " + std::to_string(w.size()) + " is not a member");
}

TEST_F(MpiDevelop, MismatchedCountsInASubGroup) {
  const ccl::Group half = ccl::partition(w, w.rank() % 2, w.rank(), "half");
  if (half.size() < 2) {
    GTEST_SKIP() << "needs two members in the group";  // TearDown still runs on the world
  }
  std::vector<std::size_t> counts(static_cast<std::size_t>(half.size()), 1);
  if (half.rank() == 1) counts[0] = 2;
  std::vector<I64> in(1), out(static_cast<std::size_t>(half.size()) + (half.rank() == 1 ? 1 : 0));
  const std::string msg = error_of([&] { ccl::concatv(half, in, out, counts); });
  expect_contains(msg, "group 'half'");
  expect_contains(msg, "rank 1");
}

TEST_F(MpiDevelop, IndexvSendAndReceiveCountsDisagree) {
  const int P = w.size();
  auto send_counts = ref::indexv_send_counts(w.rank(), P);
  auto recv_counts = ref::indexv_recv_counts(w.rank(), P);
  if (w.rank() == 0)
    recv_counts[static_cast<std::size_t>(P - 1)] += 1;  // 0 expects one more from P−1
  std::vector<I64> in = ref::indexv_send(w.rank(), P);
  std::vector<I64> out(std::accumulate(recv_counts.begin(), recv_counts.end(), std::size_t{0}));
  const std::string msg = error_of([&] { ccl::indexv(w, in, send_counts, out, recv_counts); });
  expect_contains(msg, "rank " + std::to_string(P - 1) + " sends");
  expect_contains(msg, "to rank 0");
}

TEST_F(MpiDevelop, RanksSelectingDifferentAlgorithms) {
  if (w.size() < 3) GTEST_SKIP() << "ring concat needs 3 members";
  ccl::set_override(ccl::CollKind::concat, w.rank() == 1 ? "ring" : "bruck");
  std::vector<I64> in(2, w.rank()), out(2 * static_cast<std::size_t>(w.size()));
  const std::string msg = error_of([&] { ccl::concat(w, in, out); });
  ccl::set_override(ccl::CollKind::concat, "");
  expect_contains(msg, "rank 1 selected algorithm ring, rank 0 selected bruck");
}

TEST_F(MpiDevelop, NonblockingMismatchSurfacesAtWait) {
  std::vector<I64> buf(3, 1);
  ccl::Request r = ccl::ibcast(w, buf, w.rank() == 0 ? 0 : w.size() - 1);
  if (w.size() == 1) {
    r.wait();
    return;
  }
  EXPECT_THROW(r.wait(), ccl::Error);
}

}  // namespace
