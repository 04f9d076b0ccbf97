// The QCDOC allgather plan against an independent enumeration of displacements, the paper's
// table for 6^6 (its misprints corrected), and the property that makes it an allgather: every
// share is sent by a node that already holds the block, and every block arrives whole, once.
#include <gtest/gtest.h>

#include <map>

#include "ccl/algorithm.hpp"
#include "ccl/grids/multilink_plan.hpp"
#include "ccl/grids/qcdoc_plan.hpp"
#include "ccl/grids/torus.hpp"
#include "ccl/grids/torus_report.hpp"

using ccl::grids::Cartesian;
using ccl::grids::QcdocPlan;

namespace {

// The definition, by brute force: the step (0-based) at which a node receives the block from the
// origin at displacement delta: (non-zero coordinates − 1)·R + smallest non-zero distance − 1.
int step_of(const Cartesian& t, const std::vector<int>& delta, int R) {
  int nonzero = 0, smallest = 1 << 30;
  for (int d = 0; d < t.ndims(); ++d) {
    const int n = t.dim(d), m = ((delta[static_cast<std::size_t>(d)] % n) + n) % n,
              a = std::min(m, n - m);
    if (a == 0) continue;
    ++nonzero;
    smallest = std::min(smallest, a);
  }
  return nonzero == 0 ? -1 : (nonzero - 1) * R + smallest - 1;
}

std::vector<int> brute_force_blocks(const Cartesian& t, int R, int steps) {
  std::vector<int> blocks(static_cast<std::size_t>(steps), 0);
  for (int r = 1; r < t.size(); ++r) ++blocks[static_cast<std::size_t>(step_of(t, t.coords(r), R))];
  return blocks;
}

}  // namespace

TEST(GridsQcdocPlan, PaperTableForSixToTheSixth) {
  const QcdocPlan plan(Cartesian::parse("6x6x6x6x6x6"));
  ASSERT_EQ(plan.steps(), 18);  // the diameter
  const std::vector<int> paper{12,   12,   6,  240,   120,  15, 1960,  520, 20,
                               8160, 1200, 15, 17292, 1452, 6,  14896, 728, 1};
  std::vector<int> got;
  int total = 0;
  for (int s = 0; s < plan.steps(); ++s) {
    got.push_back(plan.blocks(s));
    total += plan.blocks(s);
  }
  EXPECT_EQ(got, paper);
  EXPECT_EQ(total, 46655);
}

TEST(GridsQcdocPlan, BlocksPerStepMatchTheDefinitionAndEveryShareHasASender) {
  for (const char* text :
       {"4x4", "5", "6", "4x4x4", "3x5x4", "2x2x2x4x4x4", "4x4x8", "2x6", "1x4x1x3"}) {
    const Cartesian t = Cartesian::parse(text);
    const QcdocPlan plan(t);
    const int R = plan.group_steps();
    std::vector<int> got;
    std::map<std::vector<int>, std::uint32_t> units;  // per origin displacement: units received
    std::map<std::vector<int>, std::uint32_t> den;
    for (int s = 0; s < plan.steps(); ++s) {
      got.push_back(plan.blocks(s));
      for (const auto& p : plan.arrivals(s)) {
        const std::vector<int> displacement = plan.displacement(p);
        ASSERT_EQ(step_of(t, displacement, R), s) << text;
        // The sender, one hop back along the link, holds the block before this step.
        std::vector<int> back = displacement;
        back[static_cast<std::size_t>(p.link.dim)] -= p.link.dir;
        const int sender_step = step_of(t, back, R);
        EXPECT_LT(sender_step, s) << text << ": a share sent before its sender has it";
        EXPECT_EQ(units[displacement], p.first) << text << ": shares out of order";
        units[displacement] += p.units;
        den[displacement] = p.den;
      }
    }
    EXPECT_EQ(got, brute_force_blocks(t, R, plan.steps())) << text;
    EXPECT_EQ(static_cast<int>(units.size()), t.size() - 1) << text;
    for (const auto& [d, u] : units) EXPECT_EQ(u, den[d]) << text << ": a block not received whole";
  }
}

TEST(GridsQcdocPlan, EveryStepUsesEveryLinkOfARegularTorus) {
  // The first steps of each group fill all 2k links on a regular odd torus; an even one loses
  // half its links only at the antipodal step, where shares split over both directions anyway.
  const QcdocPlan plan(Cartesian::parse("5x5x5"));
  for (int s = 0; s < plan.steps(); ++s) {
    std::vector<bool> used(static_cast<std::size_t>(plan.links()), false);
    for (const auto& p : plan.arrivals(s)) used[static_cast<std::size_t>(p.link.index())] = true;
    EXPECT_EQ(std::count(used.begin(), used.end(), true), plan.links()) << "step " << s;
  }
}

TEST(GridsTorusPlans, TheSchedulesRoundsCarryThePlan) {
  // ccl-torus reads its table from the schedule: per round, the distinct blocks it unpacks must
  // be the brute-force counts, and a node must receive (P − 1) blocks' worth of bytes.
  ccl::grids::register_torus_algorithms();
  for (const char* name : {"torus_qcdoc", "torus_multilink"}) {
    const ccl::Algorithm* a = ccl::find_algorithm(ccl::CollKind::concat, name);
    ASSERT_NE(a, nullptr);
    for (const char* text : {"4x4", "5", "3x5x4", "2x2x2x4x4x4", "6x6x6", "1x4x1x3"}) {
      const Cartesian t = Cartesian::parse(text);
      const QcdocPlan plan(t);
      const ccl::grids::MultilinkPlan multilink(t);
      for (int rank : {0, t.size() / 2, t.size() - 1}) {
        ccl::Shape s;
        s.kind = ccl::CollKind::concat;
        s.size = t.size();
        s.rank = rank;
        s.elem = 1;
        s.count = 1000;
        s.torus.assign(t.dims().begin(), t.dims().end());
        const auto steps = ccl::grids::tally_steps(a->build(s, {}), s.count);
        std::vector<int> blocks;
        std::size_t bytes = 0;
        for (const auto& st : steps) {
          blocks.push_back(st.blocks);
          bytes += st.bytes;
        }
        std::vector<int> expected;
        if (std::string(name) == "torus_qcdoc") {
          expected = brute_force_blocks(t, plan.group_steps(), plan.steps());
        } else {
          for (int st = 0; st < multilink.steps(); ++st) expected.push_back(multilink.blocks(st));
        }
        std::erase(expected, 0);  // a step that receives nothing has no round
        EXPECT_EQ(blocks, expected) << name << " " << text << ", member " << rank;
        EXPECT_EQ(bytes, static_cast<std::size_t>(t.size() - 1) * s.count) << text;
      }
    }
  }
}

TEST(GridsMultilinkPlan, EveryBlockAtItsHopDistanceWholeOnceFromANodeThatHasIt) {
  for (const char* text :
       {"4x4", "5", "6", "3x5x4", "2x2x2x4x4x4", "4x4x8", "2x6", "1x4x1x3", "2x2x2x6x6x6"}) {
    const Cartesian t = Cartesian::parse(text);
    const ccl::grids::MultilinkPlan plan(t);
    auto hops = [&](const std::vector<int>& x) {
      int h = 0;
      for (int d = 0; d < t.ndims(); ++d) h += plan.distance(d, x[static_cast<std::size_t>(d)]);
      return h;
    };
    int diameter = 0;
    for (int d : t.dims()) diameter += d / 2;
    ASSERT_EQ(plan.steps(), diameter) << text;
    std::map<std::vector<int>, std::uint32_t> units;
    int blocks = 0;
    for (int s = 0; s < plan.steps(); ++s) {
      blocks += plan.blocks(s);
      for (const auto& p : plan.arrivals(s)) {
        const std::vector<int> displacement = plan.displacement(p);
        ASSERT_EQ(hops(displacement), s + 1) << text;
        std::vector<int> back = displacement;
        back[static_cast<std::size_t>(p.link.dim)] -= p.link.dir;
        EXPECT_EQ(hops(back), s) << text << ": a share from a node no nearer the origin";
        EXPECT_EQ(units[displacement], p.first) << text;
        EXPECT_EQ(p.den, ccl::grids::MultilinkPlan::kUnits);
        units[displacement] += p.units;
      }
    }
    EXPECT_EQ(blocks, t.size() - 1) << text;
    EXPECT_EQ(static_cast<int>(units.size()), t.size() - 1) << text;
    for (const auto& [d, u] : units)
      EXPECT_EQ(u, ccl::grids::MultilinkPlan::kUnits) << text << ": a block not whole";
  }
}

TEST(GridsMultilinkPlan, StepsSpreadOverEveryLinkWhereTheQcdocSchemeLeavesSomeIdle) {
  // 4x4x8: in its group steps beyond 2, the QCDOC scheme has nothing for the links of the
  // size-4 dimensions; the multi-link plan loads the busiest link of each step no more than
  // (blocks of the step) / (links) + the rounding of one block.
  const Cartesian t = Cartesian::parse("4x4x8");
  const ccl::grids::MultilinkPlan plan(t);
  for (int s = 1; s < plan.steps() - 1; ++s) {
    std::vector<double> load(6, 0);
    for (const auto& p : plan.arrivals(s))
      load[static_cast<std::size_t>(p.link.index())] += double(p.units) / p.den;
    const double busiest = *std::max_element(load.begin(), load.end());
    EXPECT_LE(busiest, plan.blocks(s) / 6.0 + 1.0) << "step " << s;
  }
}
