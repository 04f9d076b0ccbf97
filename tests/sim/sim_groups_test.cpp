// Groups on the simulator: partitions of large groups (rows and columns of a 2D split, odd
// sizes), their collectives, and thousands of live groups whose PGIDs agree and never collide.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <map>
#include <numeric>
#include <set>
#include <span>

#include "../common/collective_cases.hpp"
#include "../common/sim_runner.hpp"
#include "ccl/selection.hpp"

namespace {

// Split per-member views into per-group runners (keyed by label).
std::map<std::string, SimRunner> by_group(const std::vector<ccl::Group>& views) {
  std::map<std::string, SimRunner> groups;
  std::map<std::string, std::vector<ccl::Group>> tmp;
  for (const auto& g : views) tmp[g.label()].push_back(g);
  for (auto& [label, gs] : tmp) {
    std::sort(gs.begin(), gs.end(),
              [](const auto& a, const auto& b) { return a.rank() < b.rank(); });
    groups[label] = SimRunner{gs};
  }
  return groups;
}

// A simulated 16x8x8 torus (1024 members): partitions into its slabs and lines inherit those
// layouts (and run concat on them); a partition that is not a sub-torus, and explicit groups of a
// plain world, inherit none.
TEST(SimGroups, SubToriInheritTheirLayout) {
  const int P = 1024;
  ccl::sim::World world(P);
  const auto w = world.world_groups();
  for (const ccl::Group& g : w) g.set_torus({16, 8, 8});
  std::vector<int> slab(P), line(P), halves(P), key(P);
  for (int r = 0; r < P; ++r) {
    const auto i = static_cast<std::size_t>(r);
    slab[i] = r / 64;         // x fixed: (y, z) free
    line[i] = r / 8;          // x and y fixed: z free
    halves[i] = (r % 8) / 4;  // z in 0..3 or 4..7: half a ring, no wrap-around link
    key[i] = r;
  }
  auto layout = [](const ccl::Group& g) {
    return std::vector<int>(g.torus().begin(), g.torus().end());
  };
  const auto slabs = world.partition(w, slab, key);
  const auto lines = world.partition(w, line, key);
  const auto half = world.partition(w, halves, key);
  for (int r = 0; r < P; r += 37) {
    const auto i = static_cast<std::size_t>(r);
    EXPECT_EQ(layout(slabs[i]), (std::vector<int>{8, 8})) << r;
    EXPECT_EQ(layout(lines[i]), (std::vector<int>{8})) << r;
    EXPECT_TRUE(half[i].torus().empty()) << r;
  }
  for (auto& [label, run] : by_group(slabs)) cases::concat(run, 3);
  ccl::sim::World plain(12);
  const std::vector<int> some{2, 5, 7};
  for (const ccl::Group& g : plain.group(some, "some")) EXPECT_TRUE(g.torus().empty());
}

TEST(SimGroups, RowsAndColumnsOfLargeWorlds) {
  for (int P : {7, 30, 100, 127, 1000}) {
    ccl::sim::World world(P);
    const auto w = world.world_groups();
    const int c = static_cast<int>(std::ceil(std::sqrt(P)));
    std::vector<int> row_color(static_cast<std::size_t>(P)), col_color(row_color.size()),
        key(row_color.size());
    for (int r = 0; r < P; ++r) {
      row_color[static_cast<std::size_t>(r)] = r / c;
      col_color[static_cast<std::size_t>(r)] = r % c;
      key[static_cast<std::size_t>(r)] = r;
    }
    const auto rows = world.partition(w, row_color, key);
    const auto cols = world.partition(w, col_color, key);
    for (int r = 0; r < P; ++r) {
      ASSERT_EQ(rows[static_cast<std::size_t>(r)].rank(), r % c);
      ASSERT_EQ(cols[static_cast<std::size_t>(r)].rank(), r / c);
      ASSERT_EQ(rows[static_cast<std::size_t>(r)].world_rank_of(r % c), r);
    }
    for (auto* views : {&rows, &cols}) {
      for (auto& [label, run] : by_group(*views)) {
        cases::combine_matrix(run, 3);
        cases::concatv(run, 1);
        cases::scatter(run, 2, run.size() - 1);
        cases::prefix_matrix(run, 2);
      }
    }
  }
}

TEST(SimGroups, ThousandsOfLiveGroupsAgreeAndNeverCollide) {
  const int P = 64;
  ccl::sim::World world(P);
  const auto w = world.world_groups();
  std::vector<std::vector<ccl::Group>> live;  // each: the views of one group, by rank
  std::set<ccl::Pgid> seen{w[0].pgid()};
  // Partition `parent` (views by rank) and keep every resulting group, checking that the views
  // sharing a PGID form exactly one consistent group and that the PGID is new.
  auto split = [&](const std::vector<ccl::Group>& parent, int salt) {
    const int n = static_cast<int>(parent.size());
    std::vector<int> colors(static_cast<std::size_t>(n)), keys(colors.size());
    for (int r = 0; r < n; ++r) {
      colors[static_cast<std::size_t>(r)] = (r * 7 + salt) % 5;
      keys[static_cast<std::size_t>(r)] = (salt % 2 ? 1 : -1) * r;
    }
    std::map<ccl::Pgid, std::vector<ccl::Group>> by_pgid;
    for (const auto& g : world.partition(parent, colors, keys)) by_pgid[g.pgid()].push_back(g);
    for (auto& [pgid, views] : by_pgid) {
      EXPECT_TRUE(seen.insert(pgid).second) << "PGID " << pgid.str() << " reused";
      std::sort(views.begin(), views.end(),
                [](const auto& a, const auto& b) { return a.rank() < b.rank(); });
      ASSERT_EQ(static_cast<int>(views.size()), views[0].size()) << "one PGID, several groups";
      for (int r = 0; r < static_cast<int>(views.size()); ++r) {
        const auto& v = views[static_cast<std::size_t>(r)];
        ASSERT_EQ(v.rank(), r);
        ASSERT_TRUE(std::equal(v.members().begin(), v.members().end(), views[0].members().begin(),
                               views[0].members().end()));
      }
      live.push_back(std::move(views));
    }
  };
  for (int i = 0; i < 300; ++i) split(w, i);
  for (int i = 0; i < 200; ++i) split(live[static_cast<std::size_t>(i)], i);
  EXPECT_GE(live.size(), 2000u);
  // The groups work: a combine on a nested one.
  SimRunner run{live.back()};
  cases::combine_matrix(run, 2);
}

TEST(SimGroups, ExplicitGroupCollectives) {
  ccl::sim::World world(40);
  std::vector<int> list;
  for (int r = 39; r >= 0; r -= 3) list.push_back(r);
  SimRunner run{world.group(list, "every third")};
  EXPECT_EQ(run.groups[0].label(), "every third");
  EXPECT_EQ(run.groups[0].world_rank_of(0), 39);
  cases::all(run, {0, 1, 20}, {0, 2});
}

TEST(SimGroups, StatisticsCountRoundsMessagesBytesAndReduceWork) {
  const int P = 16;
  ccl::sim::World world(P);
  SimRunner run{world.world_groups()};
  world.reset_statistics();
  cases::combine_sum(run, 8);  // recursive doubling on 16: 4 rounds of 64 bytes, reducing 4×64
  for (int r = 0; r < P; ++r) {
    const auto& t = world.statistics(r).traffic;
    EXPECT_EQ(t.rounds, 4u);
    EXPECT_EQ(t.messages, 4u);
    EXPECT_EQ(t.bytes, 4u * 64u);
    EXPECT_EQ(t.reduce_bytes, 4u * 64u);
    EXPECT_EQ(world.statistics(r).of(ccl::CollKind::combine).calls, 1u);
  }
  world.reset_statistics();
  cases::concat(run, 2);  // Bruck on 16: 4 rounds, 1+2+4+8 blocks of 16 bytes
  for (int r = 0; r < P; ++r) {
    const auto& t = world.statistics(r).traffic;
    EXPECT_EQ(t.rounds, 4u);
    EXPECT_EQ(t.bytes, 15u * 16u);
  }
}

// A sync after rooted calls releases first the member their loop predicts (linear through it: it
// sends n − 1 tokens, every other member one) where that costs at most two start-ups more than
// the model's best: the root of the next fan-out (the same root, or the stride of the last two),
// the member after the root of the next fan-in, whose root leaves last, released by every other
// member as it leaves (one token more each, but from the hub). After any other call, and on
// groups where linear costs more, the model's choice (dissemination: one token per member per
// round).
TEST(SimGroups, SyncReleasesFirstTheMemberTheLoopPredicts) {
  const ccl::MachineModel before = ccl::machine_model();
  ccl::set_machine_model(ccl::MachineModel{2e-6, 2e-10, 1e-10, "test", {}, false, {}});
  for (int P : {2, 3, 8}) {
    ccl::sim::World world(P);
    const auto g = world.world_groups();
    const auto on_all = [&](auto start) {
      std::vector<ccl::Request> req;
      for (int r = 0; r < P; ++r) req.push_back(start(r));
      ccl::wait_all(req);
    };
    std::vector<std::vector<int>> buf(P, std::vector<int>(4, 1)),
        out = buf, all(P, std::vector<int>(static_cast<std::size_t>(P)));
    const auto bcast = [&](int root) {
      on_all([&](int r) { return ccl::ibcast(g[r], buf[r], root); });
    };
    const auto sync = [&] { on_all([&](int r) { return ccl::isync(g[r]); }); };
    const auto combine = [&] {
      on_all([&](int r) { return ccl::icombine(g[r], buf[r], out[r], ccl::sum); });
    };
    struct Loop {
      const char* calls;
      std::function<void()> run;
      int hub;   // -1: none
      int last;  // the member released by all others (the fan-in's root), or -1
    };
    const std::vector<Loop> loops = {
        {"bcast from P-1", [&] { bcast(P - 1); }, P - 1, -1},
        {"bcasts from 1 then 2",
         [&] {
           bcast(1);
           sync();
           bcast(2 % P);
         },
         3 % P, -1},
        {"gather to P-1",
         [&] {
           on_all([&](int r) {
             return ccl::igather(g[r], std::span(buf[r]).first(1), all[r], P - 1);
           });
         },
         0, P - 1},
        {"combine", combine, -1, -1},
    };
    int log2_ceil = 0;
    while ((1 << log2_ceil) < P) ++log2_ceil;
    for (const Loop& loop : loops) {
      combine();  // no rooted call before the loop's
      loop.run();
      world.reset_statistics();
      sync();
      const bool staggered = loop.hub >= 0 && P <= 3;
      for (int r = 0; r < P; ++r) {
        const ccl::Statistics& s = world.statistics(r);
        EXPECT_EQ(s.of(ccl::CollKind::sync).algorithm, staggered ? "linear" : "dissemination")
            << P << " members after " << loop.calls;
        const bool root_last = loop.last >= 0 && P > 2;
        const int tokens = !staggered                    ? log2_ceil
                           : r == loop.hub               ? P - 1
                           : root_last && r != loop.last ? 2
                                                         : 1;
        EXPECT_EQ(s.traffic.messages, static_cast<std::uint64_t>(tokens))
            << P << " members after " << loop.calls << ", member " << r;
      }
    }
  }
  ccl::set_machine_model(before);
}

}  // namespace
