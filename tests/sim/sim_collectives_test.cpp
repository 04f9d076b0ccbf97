// Every collective on the simulator for P = 1..33, 64, 100, 127, 128, 1000 and 1024, at lengths
// 0, 1, below and above P, against the references of tests/common; and in barrier mode.
#include <gtest/gtest.h>

#include "../common/collective_cases.hpp"
#include "../common/sim_runner.hpp"
#include "ccl/mode.hpp"

namespace {

class SimCollectives : public ::testing::TestWithParam<int> {};

TEST_P(SimCollectives, AllCollectivesMatchReference) {
  const int P = GetParam();
  ccl::sim::World world(P);
  SimRunner run{world.world_groups()};
  const std::size_t Pn = static_cast<std::size_t>(P);
  if (P <= 128) {
    cases::all(run, {0, 1, Pn > 1 ? Pn - 1 : 0, Pn + 3}, {0, 1, 3});
  } else {
    // Large groups: the same checks with lengths that keep P² data in bounds.
    cases::all(run, {0, 1, Pn - 1, Pn + 3}, {0, 1});
  }
}

// Barrier mode (sync trees around the fan-in and fan-out collectives, a barrier around shift and
// around calls that move nothing) gives the same results, every algorithm's, at awkward sizes.
TEST(SimBarrierMode, AllCollectivesMatchReference) {
  struct Off {  // back to nonbarrier mode for the tests that follow, whatever happens here
    ~Off() { ccl::set_barrier_mode(false); }
  } off;
  ccl::set_barrier_mode(true);
  for (int P : {1, 2, 3, 5, 7, 8, 13, 33, 100}) {
    ccl::sim::World world(P);
    SimRunner run{world.world_groups()};
    const std::size_t Pn = static_cast<std::size_t>(P);
    cases::all(run, {0, 1, Pn + 3}, {0, Pn - 1});
  }
}

std::vector<int> sizes() {
  std::vector<int> s;
  for (int p = 1; p <= 33; ++p) s.push_back(p);
  for (int p : {64, 100, 127, 128, 1000, 1024}) s.push_back(p);
  return s;
}

INSTANTIATE_TEST_SUITE_P(Sizes, SimCollectives, ::testing::ValuesIn(sizes()), [](const auto& info) {
  std::string name = "P";  // (not "P" + ...: GCC 12 -Wrestrict false positive)
  name += std::to_string(info.param);
  return name;
});

}  // namespace
