// Model-driven selection: the choice for a shape, by least predicted time under the machine model
// (machine_model.cpp) unless an override (overrides.cpp) names it.
#include "ccl/selection.hpp"

#include <algorithm>
#include <optional>
#include <unordered_map>

#include "algorithms/barrier_semantics.hpp"
#include "ccl/error.hpp"
#include "selection/choice_epoch.hpp"
#include "selection/overrides.hpp"
#include "selection/torus_price.hpp"

namespace ccl {

namespace {

unsigned epoch = 1;
CoreSharing sharing = CoreSharing::none;  // core_sharing()
std::size_t streams_lose_above = 0;       // set_streams_lose_above()

}  // namespace

namespace detail {

void note_selection_change() {
  ++epoch;
}

}  // namespace detail

using detail::Override;
using detail::override_for;

Cost selection_cost(const Algorithm& a, const Shape& s, const Params& p, const MachineModel& m) {
  return m.concurrent_links && a.multiport ? a.multiport(s, p) : a.selection_cost(s, p);
}

namespace {

// One setting of an algorithm for the shape, with its cost and predicted time.
Candidate evaluate(const Algorithm& a, Params p, const Shape& s, const MachineModel& m) {
  const Cost c = selection_cost(a, s, p, m);
  Choice choice{&a, std::move(p)};
  // On a torus whose links the model knows, hops and shared links decide (torus_price.hpp).
  const double t = !s.torus.empty() && m.torus.known()
                       ? detail::torus_price(a, choice.params, s, m.torus)
                       : m.predict(choice, s, c);
  return Candidate{std::move(choice), c, t};
}

// The best setting of one algorithm for the shape that selection considers (or, with
// `any_setting`, of all), or nothing when none applies.
std::optional<Candidate> best_of(const Algorithm& a, const Shape& s, const MachineModel& m,
                                 bool any_setting = false) {
  std::optional<Candidate> best;
  for (Params& p : a.candidates(s)) {
    if (!any_setting && !considered(a, p, s)) continue;
    Candidate c = evaluate(a, std::move(p), s, m);
    if (!best || c.seconds < best->seconds) best = std::move(c);
  }
  return best;
}

}  // namespace

unsigned selection_epoch() {
  return epoch;
}
void note_catalog_change() {
  ++epoch;
}

CoreSharing core_sharing() {
  return sharing;
}

void set_core_sharing(CoreSharing s) {
  if (s == sharing) return;
  sharing = s;
  ++epoch;
}

CoreSharing core_sharing_of(long ranks, long cores) {
  return ranks >= 2 * cores ? CoreSharing::every
         : ranks > cores    ? CoreSharing::some
                            : CoreSharing::none;
}

bool shared_cores() {
  return sharing == CoreSharing::every;
}

bool considered(const Algorithm& a) {
  return !(shared_cores() && a.releases_together);
}

void set_streams_lose_above(std::size_t bytes) {
  if (bytes == streams_lose_above) return;
  streams_lose_above = bytes;
  ++epoch;
}

SegmentRule segment_rule(const Params& p, const Shape& s) {
  if (p.segment == 0) return SegmentRule::none;
  if (p.segment <= streams_lose_above) return SegmentRule::streams_lose;
  if (s.size == 2 && streams_lose_above != 0 && p.segment <= kOneCopyUpTo) {
    return SegmentRule::one_copy_pair;
  }
  if (sharing != CoreSharing::none && p.segment < kSharedCoreMinSegment) {
    return SegmentRule::shared_core_short;
  }
  return SegmentRule::none;
}

bool considered(const Algorithm& a, const Params& p, const Shape& s) {
  return considered(a) && segment_rule(p, s) == SegmentRule::none;
}

std::vector<Candidate> rank_candidates(const Shape& shape, const MachineModel& model) {
  std::vector<Candidate> out;
  for (const Algorithm* a : catalog()) {
    if (a->kind != base_kind(shape.kind) || !considered(*a)) continue;
    for (Params& p : a->candidates(shape)) {
      if (considered(*a, p, shape)) out.push_back(evaluate(*a, std::move(p), shape, model));
    }
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const Candidate& x, const Candidate& y) { return x.seconds < y.seconds; });
  return out;
}

namespace {

// Choices already made, by shape without the member's rank (selection never depends on it), so
// that the members of a group — simulated ones share this process — choose once per shape.
struct ChoiceCache {
  unsigned epoch = 0;
  std::unordered_map<Shape, Choice> map;
};

ChoiceCache& choice_cache() {
  static ChoiceCache c;
  return c;
}

Choice choose(const Shape& shape);

}  // namespace

Choice select(const Shape& shape) {
  ChoiceCache& cache = choice_cache();
  if (cache.epoch != epoch) {
    cache.map.clear();
    cache.epoch = epoch;
  }
  Shape key = shape;
  key.rank = 0;
  auto it = cache.map.find(key);
  if (it != cache.map.end()) return it->second;
  if (cache.map.size() >= 1024) cache.map.clear();
  Choice c = choose(shape);
  cache.map.emplace(std::move(key), c);
  return c;
}

namespace {

Choice choose(const Shape& shape) {
  if (const Override* o = override_for(shape.kind)) {
    // An algorithm with no setting for the shape does not apply to it (a power-of-two scheme on
    // 6 members, a pipeline on one member, a reordering tree with a non-commutative operator):
    // running it anyway would hang or give a wrong answer, whatever parameters were given.
    const auto settings = o->choice.algorithm->candidates(shape);
    if (settings.empty()) {
      throw Error("ccl: " + o->origin + " selects " + std::string(o->choice.algorithm->name) +
                  ", which does not apply to " + std::string(name(shape.kind)) + " on " +
                  std::to_string(shape.size) + " members");
    }
    if (!o->choice.params.empty_params()) return o->choice;
    // A bare name means the algorithm's plain setting when it has one, else its best setting
    // (among all of them when cores are shared and it has only short segments).
    if (std::find(settings.begin(), settings.end(), Params{}) != settings.end()) return o->choice;
    auto best = best_of(*o->choice.algorithm, shape, machine_model());
    if (!best) best = best_of(*o->choice.algorithm, shape, machine_model(), true);
    return best->choice;
  }
  const MachineModel& model = machine_model();
  std::optional<Candidate> best, staggered;  // staggered: the best that releases no two at once
  for (const Algorithm* a : catalog()) {
    if (a->kind != base_kind(shape.kind) || !considered(*a)) continue;
    auto c = best_of(*a, shape, model);
    if (!c) continue;
    if (!a->releases_together && (!staggered || c->seconds < staggered->seconds)) staggered = c;
    if (!best || c->seconds < best->seconds) best = std::move(c);
  }
  if (!best) throw Error("ccl: no algorithm applies to " + std::string(name(shape.kind)));
  // A sync releasing member r first (Shape::root: the root of the fan-out expected next, or the
  // member after a fan-in's root; GroupState::note_call) is worth two start-ups: r sends while
  // the others are still being released, instead of all waiting for the slowest.
  if (shape.kind == CollKind::sync && shape.root >= 0 && staggered &&
      staggered->seconds <= best->seconds + 2 * model.alpha) {
    return staggered->choice;
  }
  return best->choice;
}

}  // namespace

std::string selection_reason(const Shape& shape) {
  if (const Override* o = override_for(shape.kind)) return "override " + o->origin;
  if (shape.kind == CollKind::sync && shape.root >= 0) {
    const std::vector<Candidate> ranked = rank_candidates(shape, machine_model());
    if (!ranked.empty() && ranked.front().choice.algorithm->releases_together &&
        !select(shape).algorithm->releases_together) {
      return "releases member " + std::to_string(shape.root) +
             " first, as the group's calls before predict the next (within two start-ups of the "
             "least predicted time; model: " +
             machine_model().source + ")";
    }
  }
  return "least predicted time (model: " + machine_model().source + ")";
}

Schedule build_schedule(const Shape& shape, const Choice& choice) {
  Schedule s = choice.algorithm->build(shape, choice.params);
  if (shape.barrier) s = detail::with_barrier(s, shape);
  mark_folds(s, shape.in_place);
  return s;
}

Schedule build_schedule(const Shape& shape) {
  return build_schedule(shape, select(shape));
}

}  // namespace ccl
