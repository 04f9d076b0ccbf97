// The torus network model: exact on cases worked by hand, equal to the lockstep count for the
// QCDOC scheme (all its messages are one hop, all links alike), and never below the paper's
// bound for any algorithm of the catalog.
#include <gtest/gtest.h>

#include "ccl/algorithm.hpp"
#include "ccl/grids/torus.hpp"
#include "ccl/grids/torus_network.hpp"
#include "ccl/grids/torus_report.hpp"

using ccl::grids::Cartesian;

namespace {

const ccl::Algorithm& concat(const char* name) {
  ccl::grids::register_torus_algorithms();
  const ccl::Algorithm* a = ccl::find_algorithm(ccl::CollKind::concat, name);
  if (a == nullptr) throw std::runtime_error(name);
  return *a;
}

}  // namespace

TEST(GridsTorusNetwork, RingOnARingTakesOneHopPerRound) {
  const ccl::grids::TorusLinks links{1e-6, 1e9};
  const auto run = ccl::grids::simulate_concat(Cartesian({8}), concat("ring"), {}, 1000, links);
  EXPECT_EQ(run.rounds, 7u);
  EXPECT_EQ(run.messages, 56u);
  EXPECT_EQ(run.hops, 56u);
  EXPECT_NEAR(run.seconds, 7 * (1e-6 + 1000 / 1e9), 1e-12);
}

TEST(GridsTorusNetwork, AntipodalMessagesSpreadOverBothDirections) {
  // Recursive doubling on a ring of 4: round 1 sends a block one hop; round 2 sends 2 blocks to
  // the antipode, two hops either way. Members 0 and 2 exchange, as do 1 and 3: four messages of
  // two hops, and each takes the direction whose link frees first, so none waits on another.
  const ccl::grids::TorusLinks links{1e-6, 1e9};
  const auto run =
      ccl::grids::simulate_concat(Cartesian({4}), concat("recursive_doubling"), {}, 1000, links);
  EXPECT_EQ(run.rounds, 2u);
  EXPECT_NEAR(run.seconds, (1e-6 + 1e-6) + 2 * (1e-6 + 2e-6), 1e-12);
}

TEST(GridsTorusNetwork, TorusSchemesMatchTheirLockstepCount) {
  const ccl::grids::TorusLinks links{660e-9, 500e6};
  for (const char* name : {"torus_qcdoc", "torus_multilink"})
    for (const char* text : {"4x4", "3x5", "2x2x2", "4x4x8", "5x5x5", "2x2x2x4x4x4"}) {
      const Cartesian t = Cartesian::parse(text);
      const std::size_t b = 4096;
      const auto run = ccl::grids::simulate_concat(t, concat(name), {}, b, links);
      ccl::Shape s;
      s.kind = ccl::CollKind::concat;
      s.size = t.size();
      s.elem = 1;
      s.count = b;
      s.torus.assign(t.dims().begin(), t.dims().end());
      const auto steps = ccl::grids::tally_steps(concat(name).build(s, {}), b);
      const auto lockstep = ccl::grids::lockstep_timing(steps, t, b, links);
      EXPECT_NEAR(run.seconds, lockstep.seconds, 1e-9 * lockstep.seconds) << name << " " << text;
      EXPECT_EQ(run.hops, run.messages) << text << ": a message of more than one hop";
    }
}

TEST(GridsTorusNetwork, MultilinkSchemeNearTheBoundWhereQcdocLoses) {
  // At 1 MiB per node the latency terms are negligible: the multi-link scheme's busiest links
  // carry their even share on these irregular tori, where the QCDOC scheme idles some links.
  const ccl::grids::TorusLinks links;
  for (const char* text : {"4x4x8", "3x5", "2x2x2x4x4x4"}) {
    const Cartesian t = Cartesian::parse(text);
    const auto multilink =
        ccl::grids::simulate_concat(t, concat("torus_multilink"), {}, 1 << 20, links);
    const auto qcdoc = ccl::grids::simulate_concat(t, concat("torus_qcdoc"), {}, 1 << 20, links);
    EXPECT_GE(multilink.efficiency(), 0.95) << text;
    EXPECT_GT(multilink.efficiency(), qcdoc.efficiency()) << text;
  }
}

TEST(GridsTorusNetwork, NothingBeatsTheBound) {
  const ccl::grids::TorusLinks links{1e-6, 1e9};
  for (const char* text : {"8", "4x4", "2x4", "3x5", "4x4x4"}) {
    const Cartesian t = Cartesian::parse(text);
    for (const char* name :
         {"ring", "bruck", "recursive_doubling", "torus_qcdoc", "torus_multilink"}) {
      ccl::Shape s;
      s.kind = ccl::CollKind::concat;
      s.size = t.size();
      s.elem = 1;
      s.count = 1000;
      s.torus.assign(t.dims().begin(), t.dims().end());
      if (concat(name).candidates(s).empty()) continue;
      const auto run = ccl::grids::simulate_concat(t, concat(name), {}, 1000, links);
      EXPECT_GE(run.seconds, run.bound_seconds * (1 - 1e-12)) << text << " " << name;
      EXPECT_GT(run.efficiency(), 0) << text << " " << name;
    }
  }
}
