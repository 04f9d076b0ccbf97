// Develop mode on the simulator: mismatches produce the same ccl::Error on every member, at any
// group size; run mode rejects a member's own bad buffers at the call.
#include <gtest/gtest.h>

#include "../common/reference.hpp"
#include "ccl/ccl.hpp"

namespace {

using I64 = std::int64_t;

struct DevelopMode {
  DevelopMode() { ccl::set_mode(ccl::Mode::develop); }
  ~DevelopMode() { ccl::set_mode(ccl::Mode::run); }
};

// Start f(r) on every member and collect each member's error message ("" if none).
template <class F>
std::vector<std::string> errors(int P, F f) {
  std::vector<ccl::Request> req;
  for (int r = 0; r < P; ++r) req.push_back(f(r));
  std::vector<std::string> msgs;
  for (auto& q : req) {
    try {
      q.wait();
      msgs.emplace_back();
    } catch (const ccl::Error& e) {
      msgs.emplace_back(e.what());
    }
  }
  return msgs;
}

TEST(SimDevelop, MismatchedRootReportedIdenticallyOnEveryMember) {
  DevelopMode dev;
  for (int P : {2, 3, 17, 100}) {
    ccl::sim::World world(P);
    const auto w = world.world_groups();
    std::vector<std::vector<I64>> buf(static_cast<std::size_t>(P), std::vector<I64>(4, 0));
    const auto msgs = errors(P, [&](int r) {
      return ccl::ibcast(w[static_cast<std::size_t>(r)], buf[static_cast<std::size_t>(r)],
                         r == P - 1 ? 1 : 0);
    });
    for (const auto& m : msgs) {
      EXPECT_EQ(m, msgs[0]);
      EXPECT_NE(m.find("rank " + std::to_string(P - 1) + " passed root 1, rank 0 passed root 0"),
                std::string::npos)
          << m;
    }
  }
}

TEST(SimDevelop, MismatchedElementSizeAndCount) {
  DevelopMode dev;
  const int P = 6;
  ccl::sim::World world(P);
  const auto w = world.world_groups();
  std::vector<std::vector<I64>> in(P, std::vector<I64>(3, 1)), out(P, std::vector<I64>(3 * P));
  std::vector<std::vector<int>> in_small(P, std::vector<int>(3, 1)),
      out_small(P, std::vector<int>(3 * P));
  auto msgs = errors(P, [&](int r) {
    const auto u = static_cast<std::size_t>(r);
    return r == 4 ? ccl::iconcat(w[u], in_small[u], out_small[u])
                  : ccl::iconcat(w[u], in[u], out[u]);
  });
  for (const auto& m : msgs)
    EXPECT_NE(m.find("rank 4 passed element size 4, rank 0 passed element size 8"),
              std::string::npos)
        << m;

  in[2].resize(2);
  out[2].resize(2 * P);
  msgs = errors(P, [&](int r) {
    const auto u = static_cast<std::size_t>(r);
    return ccl::iconcat(w[u], in[u], out[u]);
  });
  for (const auto& m : msgs)
    EXPECT_NE(m.find("rank 2 passed count 2, rank 0 passed count 3"), std::string::npos) << m;
}

TEST(SimDevelop, CorrectCallsPassTheChecks) {
  DevelopMode dev;
  const int P = 33;
  ccl::sim::World world(P);
  const auto w = world.world_groups();
  std::vector<std::vector<I64>> in(P), out(P);
  const auto msgs = errors(P, [&](int r) {
    const auto u = static_cast<std::size_t>(r);
    in[u] = ref::indexv_send(r, P);
    out[u].assign(ref::indexv_expected(r, P).size(), 0);
    return ccl::iindexv(w[u], in[u], ref::indexv_send_counts(r, P), out[u],
                        ref::indexv_recv_counts(r, P));
  });
  for (int r = 0; r < P; ++r) {
    EXPECT_EQ(msgs[static_cast<std::size_t>(r)], "");
    EXPECT_EQ(out[static_cast<std::size_t>(r)], ref::indexv_expected(r, P));
  }
}

TEST(SimDevelop, RunModeRejectsOwnBadBuffersAtTheCall) {
  ccl::sim::World world(4);
  const auto w = world.world_groups();
  std::vector<I64> in(3), out(5);
  EXPECT_THROW(ccl::icombine(w[0], in, out, ccl::sum), ccl::Error);
  std::vector<I64> both(8);
  // send overlapping recv partially is not an allowed alias
  EXPECT_THROW(ccl::icombine(w[0], std::span<const I64>(both).subspan(0, 4),
                             std::span<I64>(both).subspan(2, 4), ccl::sum),
               ccl::Error);
  EXPECT_THROW(ccl::ibcast(w[0], in, 7), ccl::Error);
}

}  // namespace
