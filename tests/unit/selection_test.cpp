// Parameters, machine models and model-driven selection with API overrides.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "ccl/error.hpp"
#include "ccl/grids/torus.hpp"
#include "ccl/selection.hpp"

namespace {

ccl::Shape shape(ccl::CollKind k, int n, std::size_t count, int rank = 0) {
  ccl::Shape s;
  s.kind = k;
  s.size = n;
  s.rank = rank;
  s.elem = 8;
  s.count = count;
  return s;
}

std::string error_of(auto f) {
  try {
    f();
  } catch (const ccl::Error& e) {
    return e.what();
  }
  return "no error";
}

TEST(Params, TextRoundTrip) {
  const ccl::Params p{4, 65536, {2, 3, 5}, "SSMCC"};
  EXPECT_EQ(ccl::to_string(p), "k=4,seg=65536,mesh=2x3x5,plan=SSMCC");
  EXPECT_EQ(ccl::parse_params(ccl::to_string(p)), p);
  EXPECT_EQ(ccl::parse_params(""), ccl::Params{});
  EXPECT_NE(error_of([] { ccl::parse_params("k=-1"); }).find("non-negative"), std::string::npos);
  EXPECT_NE(error_of([] { ccl::parse_params("radix"); }).find("key=value"), std::string::npos);
  EXPECT_NE(error_of([] { ccl::parse_params("depth=3"); }).find("unknown parameter 'depth'"),
            std::string::npos);
}

TEST(Choice, ParsesNamesAndListsKnownOnes) {
  const ccl::Choice c = ccl::parse_choice(ccl::CollKind::index, "bruck:k=4");
  EXPECT_EQ(c.algorithm->name, "bruck");
  EXPECT_EQ(c.params.k, 4);
  EXPECT_EQ(c.str(), "bruck:k=4");
  EXPECT_EQ(ccl::parse_choice(ccl::CollKind::concatv, "ring").algorithm->kind,
            ccl::CollKind::concat);
  const std::string msg = error_of([] { ccl::parse_choice(ccl::CollKind::concat, "butterfly"); });
  EXPECT_NE(msg.find("no concat algorithm 'butterfly'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("bruck"), std::string::npos) << msg;
}

TEST(Selection, LeastPredictedTimeAndIndependentOfRank) {
  const ccl::MachineModel& m = ccl::machine_model();
  for (auto k : {ccl::CollKind::bcast, ccl::CollKind::combine, ccl::CollKind::concat,
                 ccl::CollKind::index}) {
    for (int n : {2, 6, 12, 30}) {
      for (std::size_t count : {std::size_t{1}, std::size_t{4096}, std::size_t{131072}}) {
        const auto ranked = ccl::rank_candidates(shape(k, n, count), m);
        ASSERT_FALSE(ranked.empty());
        for (std::size_t i = 1; i < ranked.size(); ++i)
          EXPECT_LE(ranked[i - 1].seconds, ranked[i].seconds);
        const ccl::Choice c = ccl::select(shape(k, n, count));
        EXPECT_DOUBLE_EQ(m.predict(c.algorithm->cost(shape(k, n, count), c.params)),
                         ranked.front().seconds);
        EXPECT_EQ(ccl::select(shape(k, n, count, n - 1)).str(), c.str());
      }
    }
  }
}

TEST(Selection, LatencyBoundPicksFewStartUpsBandwidthBoundFewBytes) {
  ccl::MachineModel latency{1e-3, 1e-15, 1e-15, "test", {}, false, {}},
      bandwidth{1e-15, 1e-6, 1e-6, "test", {}, false, {}};
  const auto small = ccl::rank_candidates(shape(ccl::CollKind::combine, 16, 4096), latency);
  const auto large = ccl::rank_candidates(shape(ccl::CollKind::combine, 16, 4096), bandwidth);
  EXPECT_EQ(small.front().cost.c1, 4u);  // recursive doubling: log2 16
  EXPECT_LT(large.front().cost.c2, small.front().cost.c2);
}

TEST(Selection, ApiOverrideWinsAndClears) {
  const ccl::Shape s = shape(ccl::CollKind::concat, 6, 10);
  ccl::set_override(ccl::CollKind::concat, "ring");
  EXPECT_EQ(ccl::select(s).str(), "ring");
  EXPECT_EQ(ccl::selection_reason(s), "override API");
  ccl::set_override(ccl::CollKind::concat, "");
  EXPECT_EQ(ccl::selection_reason(s).rfind("least predicted time", 0), 0u);
  ccl::set_override(ccl::CollKind::concat, "recursive_doubling");  // needs a power of two
  EXPECT_NE(error_of([&] { ccl::select(s); }).find("does not apply"), std::string::npos);
  ccl::set_override(ccl::CollKind::concat, "");
  // With explicit parameters too: a pipeline on one member would send to itself forever.
  ccl::set_override(ccl::CollKind::reduce, "segmented_binomial:seg=32768");
  EXPECT_EQ(ccl::select(shape(ccl::CollKind::reduce, 3, 1 << 16)).str(),
            "segmented_binomial:seg=32768");
  EXPECT_NE(error_of([&] {
              ccl::select(shape(ccl::CollKind::reduce, 1, 1 << 16));
            }).find("does not apply to reduce on 1 members"),
            std::string::npos);
  ccl::set_override(ccl::CollKind::reduce, "");
}

// Where every core runs two ranks or more, a barrier that releases everyone at once is left out:
// the linear one (member 0 releases the rest) is chosen though the model prices it higher, and
// an override still runs what it names.
TEST(Selection, SharedCoresLeaveOutBarriersThatReleaseEveryoneAtOnce) {
  const ccl::MachineModel before = ccl::machine_model();
  ccl::set_machine_model(ccl::MachineModel{2e-6, 2e-10, 1e-10, "test", {}, false, {}});
  ccl::Shape s = shape(ccl::CollKind::sync, 8, 0);
  s.elem = 1;
  EXPECT_EQ(ccl::select(s).str(), "dissemination");  // 3 start-ups against 14
  ccl::set_core_sharing(ccl::CoreSharing::every);
  EXPECT_TRUE(ccl::shared_cores());
  EXPECT_EQ(ccl::select(s).str(), "linear");
  for (const ccl::Candidate& c : ccl::rank_candidates(s, ccl::machine_model())) {
    EXPECT_NE(c.choice.str(), "dissemination");
  }
  const std::string concat_shared = ccl::select(shape(ccl::CollKind::concat, 8, 1)).str();
  ccl::set_core_sharing(ccl::CoreSharing::none);
  EXPECT_EQ(ccl::select(shape(ccl::CollKind::concat, 8, 1)).str(), concat_shared);  // sync only
  ccl::set_core_sharing(ccl::CoreSharing::every);
  ccl::set_override(ccl::CollKind::sync, "dissemination");
  EXPECT_EQ(ccl::select(s).str(), "dissemination");
  ccl::set_override(ccl::CollKind::sync, "");
  ccl::set_core_sharing(ccl::CoreSharing::none);
  EXPECT_EQ(ccl::select(s).str(), "dissemination");
  ccl::set_machine_model(before);
}

// Where any core runs two ranks, pipelines with segments under 32 KiB are left out of the choice
// and the ranking (the model here prices 8 KiB segments best), a bare override picks among the
// others, and a named segment still runs; with a core per rank nothing changes.
TEST(Selection, SharedCoresLeaveOutShortSegments) {
  const ccl::MachineModel before = ccl::machine_model();
  ccl::set_machine_model(ccl::MachineModel{1e-7, 2e-10, 1e-9, "test", {}, false, {}});
  EXPECT_EQ(ccl::core_sharing_of(2, 2), ccl::CoreSharing::none);
  EXPECT_EQ(ccl::core_sharing_of(3, 2), ccl::CoreSharing::some);
  EXPECT_EQ(ccl::core_sharing_of(4, 2), ccl::CoreSharing::every);
  const ccl::Shape s = shape(ccl::CollKind::reduce, 4, 1 << 15);  // 256 KiB of 8-byte elements
  ccl::set_override(ccl::CollKind::reduce, "segmented_binomial");
  EXPECT_EQ(ccl::select(s).str(), "segmented_binomial:seg=8192");
  ccl::set_override(ccl::CollKind::reduce, "");
  const std::string alone = ccl::select(s).str();
  for (ccl::CoreSharing sharing : {ccl::CoreSharing::some, ccl::CoreSharing::every}) {
    ccl::set_core_sharing(sharing);
    for (const ccl::Candidate& c : ccl::rank_candidates(s, ccl::machine_model())) {
      EXPECT_TRUE(c.choice.params.segment == 0 || c.choice.params.segment >= 32768)
          << c.choice.str();
    }
    const ccl::Choice chosen = ccl::select(s);
    EXPECT_TRUE(chosen.params.segment == 0 || chosen.params.segment >= 32768) << chosen.str();
    ccl::set_override(ccl::CollKind::reduce, "segmented_binomial");
    EXPECT_EQ(ccl::select(s).str(), "segmented_binomial:seg=32768");
    // Named with its segment, it runs; named bare where it has only short segments, too.
    EXPECT_EQ(ccl::select(shape(ccl::CollKind::reduce, 4, 2048)).str(),  // 16 KiB
              "segmented_binomial:seg=8192");
    ccl::set_override(ccl::CollKind::reduce, "segmented_binomial:seg=8192");
    EXPECT_EQ(ccl::select(s).str(), "segmented_binomial:seg=8192");
    ccl::set_override(ccl::CollKind::reduce, "");
  }
  ccl::set_core_sharing(ccl::CoreSharing::none);
  EXPECT_EQ(ccl::select(s).str(), alone);
  ccl::set_machine_model(before);
}

TEST(MachineModel, SavedAndLoadedAndBadFilesNamed) {
  const std::string path = ::testing::TempDir() + "ccl_model_test.txt";
  ccl::save_machine_model(ccl::MachineModel{1.5e-6, 2e-10, 3e-10, "", {}, false, {}}, path);
  const ccl::MachineModel m = ccl::load_machine_model(path);
  EXPECT_NEAR(m.alpha, 1.5e-6, 1e-12);
  EXPECT_NEAR(m.gamma, 3e-10, 1e-16);
  EXPECT_FALSE(m.concurrent_links);
  ccl::save_machine_model(ccl::MachineModel{1.5e-6, 2e-10, 3e-10, "", {}, true, {}}, path);
  EXPECT_TRUE(ccl::load_machine_model(path).concurrent_links);
  std::ofstream(path) << "alpha 1e-6\nbeta fast\n";
  EXPECT_NE(error_of([&] { ccl::load_machine_model(path); }).find(path + ":2:"), std::string::npos);
  std::ofstream(path) << "alpha 1e-6\n";
  EXPECT_NE(error_of([&] { ccl::load_machine_model(path); }).find("needs alpha, beta and gamma"),
            std::string::npos);
  std::remove(path.c_str());
}

TEST(MachineModel, TorusLinksSavedLoadedAndBadLinesNamed) {
  const std::string path = ::testing::TempDir() + "ccl_torus_model_test.txt";
  ccl::MachineModel m{1e-6, 1e-10, 1e-10, "", {}, false, {}};
  m.torus = ccl::TorusLinkModel{1e-7, 6.6e-7, 2e-9, 6};
  ccl::save_machine_model(m, path);
  const ccl::MachineModel back = ccl::load_machine_model(path);
  EXPECT_NEAR(back.torus.hop, 6.6e-7, 1e-13);
  EXPECT_NEAR(back.torus.beta, 2e-9, 1e-15);
  EXPECT_EQ(back.torus.ports, 6);
  std::ofstream(path) << "alpha 1e-6\nbeta 1e-10\ngamma 1e-10\ntorus alpha 0 hop 1e-6 beta 2e-9\n";
  EXPECT_NE(
      error_of([&] { ccl::load_machine_model(path); }).find(path + ":4: expected 'torus alpha"),
      std::string::npos);
  std::remove(path.c_str());
}

// With the torus links in the model, concat on a torus group goes to the torus allgathers where
// their neighbour-only rounds win (QCDOC-like links, the MD app's blocks), to Bruck-like
// algorithms where start-ups dominate; a group without a torus chooses as without the links.
TEST(MachineModel, TorusLinksChooseConcatOnTorusGroupsOnly) {
  ccl::grids::register_torus_algorithms();
  const ccl::MachineModel before = ccl::machine_model();
  ccl::MachineModel plain{1e-6, 1e-10, 1e-10, "plain", {}, false, {}};
  ccl::MachineModel qcdoc = plain;
  qcdoc.torus = ccl::TorusLinkModel{0, 6.6e-7, 2e-9, 6};  // 660 ns a hop, 500 MB/s, 6 links
  auto concat = [](std::size_t count, std::vector<int> torus) {
    ccl::Shape s;
    s.kind = ccl::CollKind::concat;
    s.size = 1;
    for (int d : torus) s.size *= d;
    s.elem = 8;
    s.count = count;
    s.torus = std::move(torus);
    return s;
  };
  auto chosen = [](const ccl::MachineModel& m, const ccl::Shape& s) {
    ccl::set_machine_model(m);
    return ccl::select(s).str();
  };
  // 14 atoms a node (42 doubles), 4,096 nodes; and 1 double a node, 512 nodes.
  for (const ccl::Shape& s :
       {concat(42, {16, 16, 16}), concat(1, {8, 8, 8}), concat(42, {4, 4, 4, 4, 4, 4})}) {
    EXPECT_EQ(chosen(qcdoc, s).rfind("torus_", 0), 0u) << chosen(qcdoc, s);
    ccl::Shape flat = s;
    flat.torus.clear();
    EXPECT_EQ(chosen(qcdoc, flat), chosen(plain, flat));
  }
  // A costly start-up (10 us a message, fast links): 24 neighbour rounds lose to 12 of Bruck.
  ccl::MachineModel slow_start = plain;
  slow_start.torus = ccl::TorusLinkModel{1e-5, 1e-7, 1e-11, 6};
  const std::string tiny = chosen(slow_start, concat(1, {16, 16, 16}));
  EXPECT_NE(tiny.rfind("torus_", 0), 0u) << tiny;
  ccl::set_machine_model(before);
}

// Members of an indexv know only their own counts: a profile must not make their choices differ
// (with the built-in models, 7 ranks chose linear on one member and pairwise on another).
TEST(MachineModel, IndexvChoiceIgnoresProfilesOfLocalCounts) {
  ccl::MachineModel m{1e-6, 1e-10, 1e-10, "test", {}, false, {}};
  m.profiles["indexv linear"].points = {{8, 0.01}, {1 << 20, 100.0}};
  m.profiles["indexv pairwise"].points = {{8, 100.0}, {1 << 20, 0.01}};
  ccl::set_machine_model(m);
  auto indexv = [](std::size_t each) {
    ccl::Shape s;
    s.kind = ccl::CollKind::indexv;
    s.size = 4;
    s.elem = 8;
    s.counts.assign(4, each);
    s.recv_counts.assign(4, 1);
    return s;
  };
  EXPECT_EQ(ccl::select(indexv(1)).str(), ccl::select(indexv(1 << 17)).str());
  ccl::set_machine_model(ccl::default_machine_model());
}

// The calibrated models compiled in (comm/models/np<N>.txt): each parses and carries profiles,
// and a job gets the one calibrated at the nearest rank count (the lower of two as near).
TEST(MachineModel, BuiltInModelOfTheNearestRankCount) {
  auto ranks_of = [](int job) {
    const std::string source = ccl::builtin_machine_model(job).source;
    EXPECT_NE(source.find("built-in model for "), std::string::npos) << source;
    return std::stoi(source.substr(source.rfind("for ") + 4));
  };
  EXPECT_EQ(ranks_of(1), 2);
  EXPECT_EQ(ranks_of(2), 2);
  EXPECT_EQ(ranks_of(3), 3);
  EXPECT_EQ(ranks_of(6), 5);
  EXPECT_EQ(ranks_of(8), 8);
  EXPECT_EQ(ranks_of(4096), 8);
  for (int job : {2, 3, 4, 5, 7, 8}) {
    const ccl::MachineModel m = ccl::builtin_machine_model(job);
    EXPECT_EQ(ranks_of(job), job);
    EXPECT_GT(m.alpha, 0);
    EXPECT_GT(m.beta, 0);
    EXPECT_FALSE(m.profiles.empty());
  }
}

}  // namespace

namespace {

TEST(Selection, OneWayChainIsWeighedByItsWorkPerCallInARow) {
  // A prefix chain's single call takes n − 1 hops, but back-to-back calls overlap: each member
  // sends and folds its vector once per call. Selection weighs it by that; the cost function
  // (what the simulator checks) keeps the critical path.
  const ccl::Shape s = shape(ccl::CollKind::prefix, 8, 1);
  const ccl::Algorithm* chain = ccl::find_algorithm(ccl::CollKind::prefix, "chain");
  ASSERT_NE(chain, nullptr);
  EXPECT_EQ(chain->cost(s, {}).c1, 7u);
  const ccl::Cost per_call = chain->selection_cost(s, {});
  EXPECT_EQ(per_call.c1, 1u);
  EXPECT_EQ(per_call.c2, 8u);
  EXPECT_EQ(per_call.c3, 8u);
  EXPECT_EQ(ccl::select(s).str(), "chain");
  // Lockstep algorithms have no such cost.
  const ccl::Algorithm* rd = ccl::find_algorithm(ccl::CollKind::prefix, "recursive_doubling");
  EXPECT_EQ(rd->stream, nullptr);
  EXPECT_EQ(rd->selection_cost(s, {}), rd->cost(s, {}));
}

}  // namespace

namespace {

TEST(MachineModel, ProfilesScalePredictionsBySizeAndRoundTrip) {
  const std::string path = ::testing::TempDir() + "ccl_model_profiles.txt";
  ccl::MachineModel m{1e-6, 1e-10, 1e-10, "", {}, false, {}};
  const ccl::Algorithm* binomial = ccl::find_algorithm(ccl::CollKind::scatter, "binomial");
  const ccl::Algorithm* linear = ccl::find_algorithm(ccl::CollKind::scatter, "linear");
  const ccl::Choice bin{binomial, {}}, lin{linear, {}};
  m.profiles[ccl::MachineModel::profile_key(bin)].points = {{64, 1.0}, {4096, 4.0}, {65536, 16.0}};
  const ccl::Cost c{4, 1000, 10};
  auto at = [](std::size_t bytes) {
    return shape(ccl::CollKind::scatter, 8, bytes / sizeof(double));
  };
  EXPECT_DOUBLE_EQ(m.predict(bin, at(64), c), m.predict(c));
  EXPECT_DOUBLE_EQ(m.predict(bin, at(8), c), m.predict(c));            // held below the first point
  EXPECT_NEAR(m.predict(bin, at(512), c), 2.0 * m.predict(c), 1e-15);  // log-log halfway
  EXPECT_NEAR(m.predict(bin, at(16384), c), 8.0 * m.predict(c), 1e-15);
  EXPECT_DOUBLE_EQ(m.predict(bin, at(1 << 20), c), 16.0 * m.predict(c));  // held above the last
  EXPECT_DOUBLE_EQ(m.predict(lin, at(512), c), m.predict(c));  // no profile: the plain model
  ccl::save_machine_model(m, path);
  const ccl::MachineModel back = ccl::load_machine_model(path);
  ASSERT_NE(back.profile_of(bin), nullptr);
  EXPECT_EQ(back.profile_of(bin)->points.size(), 3u);
  EXPECT_NEAR(back.predict(bin, at(512), c), 2.0 * m.predict(c), 1e-12);
  EXPECT_EQ(back.profile_of(lin), nullptr);

  // With binomial scatter slow for long blocks on this "machine", selection turns to linear.
  ccl::Shape s = shape(ccl::CollKind::scatter, 8, 1 << 16);
  ccl::MachineModel plain{1e-6, 1e-10, 1e-10, "test", {}, false, {}};
  ccl::set_machine_model(plain);
  EXPECT_EQ(ccl::select(s).str(), "binomial");
  ccl::set_machine_model(back);
  EXPECT_EQ(ccl::select(s).str(), "linear");
  ccl::set_machine_model(ccl::default_machine_model());

  const std::string head = "alpha 1e-6\nbeta 1e-10\ngamma 1e-10\n";
  std::ofstream(path) << head << "profile scatter bogus 8:1\n";
  EXPECT_NE(error_of([&] { ccl::load_machine_model(path); }).find(path + ":4: no algorithm"),
            std::string::npos);
  for (const char* bad : {"profile scatter linear 8:0", "profile scatter linear 8:1 8:2",
                          "profile scatter linear", "profile scatter linear 8",
                          "profile scatter linear 8:x", "profile scatter linear 16:1 8:1"}) {
    std::ofstream(path) << head << bad << "\n";
    EXPECT_NE(error_of([&] { ccl::load_machine_model(path); }).find(path + ":4: expected"),
              std::string::npos)
        << bad;
  }
  for (const char* bad :
       {"profile reduce segmented_binomial:k=2 8:1", "profile reduce segmented_binomial:seg=0 8:1",
        "profile reduce segmented_binomial:seg 8:1"}) {
    std::ofstream(path) << head << bad << "\n";
    EXPECT_NE(error_of([&] { ccl::load_machine_model(path); }).find(path + ":4: "),
              std::string::npos)
        << bad;
  }
  std::remove(path.c_str());
}

// A pipeline's segment sizes have profiles of their own: they decide which segment size wins,
// which the plain model (fewest start-ups: the largest segment) cannot.
TEST(MachineModel, SegmentProfilesChooseTheSegmentSize) {
  const std::string path = ::testing::TempDir() + "ccl_model_segments.txt";
  const ccl::Algorithm* seg = ccl::find_algorithm(ccl::CollKind::reduce, "segmented_binomial");
  ASSERT_NE(seg, nullptr);
  const ccl::Shape s = shape(ccl::CollKind::reduce, 2, (std::size_t{4} << 20) / sizeof(double));
  const ccl::Choice small{seg, ccl::parse_params("seg=8192")},
      large{seg, ccl::parse_params("seg=524288")};
  EXPECT_EQ(ccl::MachineModel::profile_key(small), "reduce segmented_binomial:seg=8192");
  EXPECT_EQ(ccl::MachineModel::profile_key(ccl::Choice{seg, {}}), "reduce segmented_binomial");

  ccl::MachineModel m{1e-6, 1e-10, 1e-10, "test", {}, false, {}};
  auto best_segment = [&](const ccl::MachineModel& model) {
    for (const ccl::Candidate& c : ccl::rank_candidates(s, model)) {
      if (c.choice.algorithm == seg) return c.choice.params.segment;
    }
    return std::size_t{0};
  };
  EXPECT_EQ(best_segment(m), std::size_t{512} << 10);  // fewest start-ups
  m.profiles["reduce segmented_binomial:seg=8192"].points = {{1 << 20, 0.5}};
  m.profiles["reduce segmented_binomial"].points = {{1 << 20, 2.0}};  // every other segment size
  EXPECT_EQ(best_segment(m), std::size_t{8} << 10);
  const ccl::Cost c = seg->cost(s, large.params);
  EXPECT_DOUBLE_EQ(m.predict(large, s, c), 2.0 * m.predict(c));  // falls back to the algorithm's

  ccl::save_machine_model(m, path);
  const ccl::MachineModel back = ccl::load_machine_model(path);
  ASSERT_NE(back.profile_of(small), nullptr);
  EXPECT_DOUBLE_EQ(back.profile_of(small)->ratio_at(1 << 20), 0.5);
  EXPECT_EQ(best_segment(back), std::size_t{8} << 10);
  std::remove(path.c_str());
}

}  // namespace
