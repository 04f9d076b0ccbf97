// Runs a random case on a platform: the simulator (this process plays every member) or MPI (it
// plays its own rank). A platform provides
//   bool plays(int world_rank) const;    whether this process plays that member
//   bool can_block() const;              whether blocking calls may be used (not when one thread
//                                        plays several members)
//   int first_played() const;            a world rank it plays (varies the wait order by rank)
//   std::vector<ccl::Group> world_views();  the world group: views by world rank (empty if not
//   played) std::vector<ccl::Group> form(const Level& lv, const Level& parent,
//                                const std::vector<ccl::Group>& parent_views);
//                                        the groups of lv, formed as lv says, views by world rank
// Every member takes part in the same steps in the same order; each batch's steps start back to
// back and then complete as the batch says; then every result is checked.
#pragma once

#include <algorithm>
#include <exception>
#include <memory>
#include <set>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "ccl/ccl.hpp"
#include "ccl/selection.hpp"
#include "random_call.hpp"
#include "random_case.hpp"
#include "random_watchdog.hpp"

namespace rnd {

struct Outcome {
  std::vector<std::string> failures;  // described, seed first
  bool aborted = false;               // an exception ended the case: the members may disagree now
  std::set<std::string> forced;       // "kind algorithm" forced by an override, for the tally
};

namespace detail {

struct Live {
  std::unique_ptr<CallRun> run;   // buffers: destroyed after the requests
  std::vector<ccl::Request> req;  // by played member
  CallContext ctx;
  std::string algorithm;
};

inline std::string members_text(std::span<const int> m) {
  std::string s;
  for (int w : m) {
    s += ' ';
    s += std::to_string(w);
  }
  return s;
}

// Completes every request of a batch as the batch says. The shuffles differ between members:
// each waits in an order of its own.
inline void finish(std::vector<Live>& live, Finish how, std::uint64_t shuffle_seed, bool blocked) {
  if (blocked) return;
  if (how == Finish::wait_all || how == Finish::blocking) {
    for (Live& l : live) ccl::wait_all(l.req);
    return;
  }
  std::vector<ccl::Request*> pending;
  for (Live& l : live) {
    for (ccl::Request& r : l.req) pending.push_back(&r);
  }
  Rng rng(shuffle_seed);
  for (std::size_t i = pending.size(); i > 1; --i) std::swap(pending[i - 1], pending[rng.below(i)]);
  if (how == Finish::wait_shuffled) {
    for (ccl::Request* r : pending) r->wait();
    return;
  }
  // Polling: test() every pending request in turn; on the simulator a stall is a deadlock, which
  // wait() then reports instead of spinning for ever.
  for (long pass = 0; !pending.empty(); ++pass) {
    std::erase_if(pending, [](ccl::Request* r) { return r->test(); });
    if (pass == 1000000) {
      for (ccl::Request* r : pending) r->wait();
      pending.clear();
    }
  }
}

}  // namespace detail

template <class Platform>
Outcome run_case(Platform& pf, const Case& cs) {
  Outcome out;
  const ccl::Mode mode_before = ccl::mode();
  ccl::set_mode(cs.develop ? ccl::Mode::develop : ccl::Mode::run);
  const std::string head = "seed " + std::to_string(cs.seed) + " (world " +
                           std::to_string(cs.world) + ", " + (cs.develop ? "develop" : "run") +
                           " mode)";
  int at = -1;  // step being run, for messages
  try {
    // The groups of every level, checked against the layout the case expects.
    std::vector<std::vector<ccl::Group>> views{pf.world_views()};
    for (std::size_t l = 1; l < cs.levels.size(); ++l) {
      const Level& lv = cs.levels[l];
      const auto parent = static_cast<std::size_t>(lv.parent);
      views.push_back(pf.form(lv, cs.levels[parent], views[parent]));
      for (int w = 0; w < cs.world; ++w) {
        if (!pf.plays(w)) continue;
        const ccl::Group& g = views.back()[static_cast<std::size_t>(w)];
        const auto& want =
            lv.groups[static_cast<std::size_t>(lv.group_of[static_cast<std::size_t>(w)])];
        if (!std::ranges::equal(g.members(), want) ||
            g.rank() != lv.rank_in[static_cast<std::size_t>(w)]) {
          throw std::runtime_error(
              "level " + std::to_string(l) + (lv.listed ? " (ccl::group)" : " (ccl::partition)") +
              ": world rank " + std::to_string(w) + " got members" +
              detail::members_text(g.members()) + " as rank " + std::to_string(g.rank()) +
              ", expected" + detail::members_text(want));
        }
        const auto& torus =
            lv.torus[static_cast<std::size_t>(lv.group_of[static_cast<std::size_t>(w)])];
        if (!torus.empty()) g.set_torus(torus);
      }
    }
    for (std::size_t b = 0; b < cs.batches.size(); ++b) {
      const Batch& batch = cs.batches[b];
      const bool blocked = batch.finish == Finish::blocking && pf.can_block();
      std::vector<detail::Live> live;
      for (int s : batch.steps) {
        at = s;
        beacon().mark(cs.seed, s);
        const Step& step = cs.steps[static_cast<std::size_t>(s)];
        const Level& lv = cs.levels[static_cast<std::size_t>(step.level)];
        for (std::size_t g = 0; g < lv.groups.size(); ++g) {
          detail::Live l;
          l.ctx.cs = &cs;
          l.ctx.step = s;
          l.ctx.group = static_cast<int>(g);
          for (std::size_t r = 0; r < lv.groups[g].size(); ++r) {
            if (pf.plays(lv.groups[g][r])) l.ctx.played.push_back(static_cast<int>(r));
          }
          if (l.ctx.played.empty()) continue;
          l.run = make_call_run(l.ctx);
          // Overrides are per process and per kind: set for this group's members only.
          l.algorithm = l.run->algorithm();
          if (!l.algorithm.empty()) {
            ccl::set_override(step.kind, l.algorithm);
            out.forced.insert(std::string(ccl::name(step.kind)) + " " +
                              l.algorithm.substr(0, l.algorithm.find(':')));
          }
          for (std::size_t i = 0; i < l.ctx.played.size(); ++i) {
            const int w = lv.groups[g][static_cast<std::size_t>(l.ctx.played[i])];
            l.req.push_back(l.run->start(
                i, views[static_cast<std::size_t>(step.level)][static_cast<std::size_t>(w)],
                blocked));
          }
          if (!l.algorithm.empty()) ccl::set_override(step.kind, "");
          live.push_back(std::move(l));
        }
      }
      detail::finish(live, batch.finish,
                     hash({cs.seed, b, static_cast<std::uint64_t>(pf.first_played()), 0x5F}),
                     blocked);
      beacon().mark(cs.seed, at);
      for (detail::Live& l : live) {
        if (auto e = l.run->check()) {
          out.failures.push_back(head + ", step " + std::to_string(l.ctx.step) + " (batch " +
                                 std::to_string(b) + " of " + std::to_string(batch.steps.size()) +
                                 " steps, " + (blocked ? "blocking" : name(batch.finish)) +
                                 "): " + describe(l.ctx, l.algorithm) + ": " + *e);
        }
      }
    }
  } catch (const std::exception& e) {
    out.failures.push_back(head + ", step " + std::to_string(at) + ": exception: " + e.what());
    out.aborted = true;
    // A call that threw may have left its forced algorithm behind.
    for (int k = 0; k < ccl::kCollKinds; ++k) ccl::set_override(static_cast<ccl::CollKind>(k), "");
  }
  ccl::set_mode(mode_before);
  return out;
}

}  // namespace rnd
