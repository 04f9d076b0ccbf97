// Model-driven selection: machine model, overrides and the choice for a shape.
#include "ccl/selection.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <iomanip>
#include <map>
#include <optional>
#include <sstream>
#include <unordered_map>

#include "algorithms/barrier_semantics.hpp"
#include "selection/builtin_models.hpp"
#include "ccl/error.hpp"

namespace ccl {

namespace {

unsigned epoch = 1;
CoreSharing sharing = CoreSharing::none;  // core_sharing()
std::size_t streams_lose_above = 0;       // set_streams_lose_above()

// ---- machine model ----

// CCL_MODEL: a model file, or "plain" for the bare built-in α, β, γ. Unset, the MPI runtime
// replaces this with the built-in model for its rank count (use_builtin_model).
bool plain_model_asked() {
  const char* path = std::getenv("CCL_MODEL");
  return path != nullptr && std::string_view(path) == "plain";
}

MachineModel initial_model() {
  const char* path = std::getenv("CCL_MODEL");
  if (path != nullptr && *path != '\0' && !plain_model_asked()) return load_machine_model(path);
  return default_machine_model();
}

MachineModel& model_ref() {
  static MachineModel m = initial_model();
  return m;
}

// ---- overrides ----

std::string upper(std::string_view s) {
  std::string u(s);
  for (char& c : u) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return u;
}

std::optional<CollKind> kind_named(std::string_view text) {
  for (int k = 0; k < kCollKinds; ++k) {
    if (upper(name(static_cast<CollKind>(k))) == upper(text)) return static_cast<CollKind>(k);
  }
  return std::nullopt;
}

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return {};
  return s.substr(b, s.find_last_not_of(" \t\r") - b + 1);
}

struct Override {
  Choice choice;
  std::string origin;  // "CCL_ALGO_CONCAT", "file.txt:3", "API"
};

using OverrideTable = std::map<CollKind, Override>;

OverrideTable file_overrides() {
  OverrideTable t;
  const char* path = std::getenv("CCL_ALGO_FILE");
  if (path == nullptr || *path == '\0') return t;
  std::ifstream in(path);
  if (!in) throw Error(std::string("ccl: cannot read CCL_ALGO_FILE '") + path + "'");
  std::string line;
  for (int no = 1; std::getline(in, line); ++no) {
    const std::string where = std::string(path) + ":" + std::to_string(no);
    line = trim(line.substr(0, line.find('#')));
    if (line.empty()) continue;
    const auto eq = line.find('=');
    if (eq == std::string::npos)
      throw Error(where + ": expected 'collective = algorithm[:params]'");
    const std::string coll = trim(line.substr(0, eq)), spec = trim(line.substr(eq + 1));
    const auto kind = kind_named(coll);
    if (!kind) throw Error(where + ": unknown collective '" + coll + "'");
    try {
      t[*kind] = Override{parse_choice(*kind, spec), where};
    } catch (const Error& e) {
      throw Error(where + ": " + e.what());
    }
  }
  return t;
}

OverrideTable env_overrides() {
  OverrideTable t;
  for (int k = 0; k < kCollKinds; ++k) {
    const auto kind = static_cast<CollKind>(k);
    const std::string var = "CCL_ALGO_" + upper(name(kind));
    const char* spec = std::getenv(var.c_str());
    if (spec == nullptr || *spec == '\0') continue;
    try {
      t[kind] = Override{parse_choice(kind, spec), var};
    } catch (const Error& e) {
      throw Error(var + ": " + e.what());
    }
  }
  return t;
}

struct Overrides {
  OverrideTable api, env = env_overrides(), file = file_overrides();
};

Overrides& overrides() {
  static Overrides o;
  return o;
}

// The strongest override for the shape's kind (its own, else its fixed-size kind's).
const Override* override_for(CollKind kind) {
  Overrides& o = overrides();
  for (CollKind k : {kind, base_kind(kind)}) {
    for (const OverrideTable* t : {&o.api, &o.env, &o.file}) {
      auto it = t->find(k);
      if (it != t->end()) return &it->second;
    }
  }
  return nullptr;
}

}  // namespace

Cost selection_cost(const Algorithm& a, const Shape& s, const Params& p, const MachineModel& m) {
  return m.concurrent_links && a.multiport ? a.multiport(s, p) : a.selection_cost(s, p);
}

namespace {

// One setting of an algorithm for the shape, with its cost and predicted time.
Candidate evaluate(const Algorithm& a, Params p, const Shape& s, const MachineModel& m) {
  const Cost c = selection_cost(a, s, p, m);
  Choice choice{&a, std::move(p)};
  const double t = m.predict(choice, s, c);
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

MachineModel default_machine_model() {
  // Measured on the 2-core development machine with ccl-calibrate (Open MPI 4.1, vader).
  return MachineModel{8.8e-7, 1.12e-10, 8.5e-11, "built-in default", {}, false};
}

std::string MachineModel::profile_key(const Choice& choice) {
  const Algorithm& a = *choice.algorithm;
  std::string key = std::string(name(a.kind)) + " " + std::string(a.name);
  if (choice.params.segment != 0) {
    key += ':';
    key += to_string(Params{0, choice.params.segment, {}, ""});
  }
  return key;
}

double MachineModel::profile_bytes(const Shape& s) {
  if (s.counts.empty() || s.size <= 0) return static_cast<double>(s.count * s.elem);
  std::size_t total = 0;
  for (std::size_t c : s.counts) total += c;
  return static_cast<double>(total * s.elem) / s.size;
}

double AlgorithmProfile::ratio_at(double bytes) const {
  if (points.empty()) return 1;
  if (bytes <= points.front().bytes) return points.front().ratio;
  if (bytes >= points.back().bytes) return points.back().ratio;
  auto hi = std::upper_bound(points.begin(), points.end(), bytes,
                             [](double b, const ProfilePoint& p) { return b < p.bytes; });
  auto lo = hi - 1;
  // Points are at least one byte apart from the first on (sizes at 0 bytes only in front).
  const double x0 = std::log(std::max(lo->bytes, 1.0)), x1 = std::log(hi->bytes);
  const double f = x1 > x0 ? (std::log(bytes) - x0) / (x1 - x0) : 1.0;
  return std::exp(std::log(lo->ratio) + f * (std::log(hi->ratio) - std::log(lo->ratio)));
}

const AlgorithmProfile* MachineModel::profile_of(const Choice& choice) const {
  if (profiles.empty()) return nullptr;
  auto it = profiles.find(profile_key(choice));
  if (it == profiles.end() && choice.params.segment != 0) {
    it = profiles.find(profile_key(Choice{choice.algorithm, {}}));
  }
  return it == profiles.end() ? nullptr : &it->second;
}

double MachineModel::ratio(const Choice& choice, const Shape& s) const {
  // An indexv member knows only its own counts, so its choice must not depend on them: a
  // profile read at its own bytes would let members choose differently.
  if (s.kind == CollKind::indexv) return 1.0;
  const AlgorithmProfile* p = profile_of(choice);
  return p == nullptr ? 1.0 : p->ratio_at(profile_bytes(s));
}

namespace {

// "profile <collective> <algorithm>[:seg=<bytes>] <bytes>:<ratio> ..." with ascending sizes and
// positive ratios.
void read_profile(std::istringstream& words, MachineModel& m, const std::string& where) {
  const std::string expected = where +
                               ": expected 'profile <collective> <algorithm>[:seg=<bytes>] "
                               "<bytes>:<ratio> ...' (ascending sizes, positive ratios)";
  std::string key, coll, spec, point;
  words >> key >> coll >> spec;
  const auto kind = kind_named(coll);
  if (!words) throw Error(expected);
  const std::string algo = spec.substr(0, spec.find(':'));
  const Algorithm* a = kind ? find_algorithm(*kind, algo) : nullptr;
  if (a == nullptr) throw Error(where + ": no algorithm '" + coll + " " + algo + "'");
  Choice choice{a, {}};
  if (algo.size() < spec.size()) {
    try {
      choice.params = parse_params(std::string_view(spec).substr(algo.size() + 1));
    } catch (const Error& e) {
      throw Error(where + ": " + e.what());
    }
    if (choice.params.segment == 0 ||
        !(choice.params == Params{0, choice.params.segment, {}, ""})) {
      throw Error(where + ": a profile is per algorithm or per segment size (seg=<bytes>), not '" +
                  spec + "'");
    }
  }
  AlgorithmProfile profile;
  while (words >> point) {
    const std::size_t colon = point.find(':');
    ProfilePoint pt;
    char* end = nullptr;
    pt.bytes = std::strtod(point.c_str(), &end);
    const bool bytes_ok =
        colon != std::string::npos && end == point.c_str() + colon && pt.bytes >= 0;
    pt.ratio = bytes_ok ? std::strtod(point.c_str() + colon + 1, &end) : 0;
    if (!bytes_ok || *end != '\0' || !(pt.ratio > 0) || !std::isfinite(pt.ratio) ||
        (!profile.points.empty() && !(pt.bytes > profile.points.back().bytes))) {
      throw Error(expected);
    }
    profile.points.push_back(pt);
  }
  if (profile.points.empty()) throw Error(expected);
  m.profiles[MachineModel::profile_key(choice)] = std::move(profile);
}

// A model in load_machine_model's format from `in`; `path` names it in errors.
MachineModel parse_machine_model(std::istream& in, const std::string& path) {
  MachineModel m;
  m.source = path;
  bool seen[3] = {false, false, false};
  std::string line;
  for (int no = 1; std::getline(in, line); ++no) {
    line = trim(line.substr(0, line.find('#')));
    if (line.empty()) continue;
    std::istringstream words(line);
    std::string key;
    double value = 0;
    if (line.rfind("profile", 0) == 0) {
      read_profile(words, m, path + ":" + std::to_string(no));
      continue;
    }
    if (line.rfind("links", 0) == 0) {
      std::string how, extra;
      words >> key >> how;
      if ((how != "concurrent" && how != "one-port") || (words >> extra)) {
        throw Error(path + ":" + std::to_string(no) +
                    ": expected 'links concurrent' or 'links one-port'");
      }
      m.concurrent_links = how == "concurrent";
      continue;
    }
    if (!(words >> key >> value) || value < 0) {
      throw Error(path + ":" + std::to_string(no) +
                  ": expected 'alpha|beta|gamma <non-negative seconds>'");
    }
    const int i = key == "alpha" ? 0 : key == "beta" ? 1 : key == "gamma" ? 2 : -1;
    if (i < 0) throw Error(path + ":" + std::to_string(no) + ": unknown key '" + key + "'");
    (i == 0 ? m.alpha : i == 1 ? m.beta : m.gamma) = value;
    seen[i] = true;
  }
  if (!seen[0] || !seen[1] || !seen[2]) throw Error(path + ": needs alpha, beta and gamma");
  return m;
}

}  // namespace

MachineModel load_machine_model(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw Error("ccl: cannot read machine model '" + path + "'");
  return parse_machine_model(in, path);
}

MachineModel builtin_machine_model(int ranks) {
  const std::vector<detail::BuiltinModel>& all = detail::builtin_models();
  if (all.empty()) return default_machine_model();
  // The nearest rank count; of two as near, the lower (fewer ranks per core: closer to what a
  // machine with more cores than this one sees).
  const detail::BuiltinModel* best = &all.front();
  for (const detail::BuiltinModel& b : all) {
    if (std::abs(b.ranks - ranks) < std::abs(best->ranks - ranks)) best = &b;
  }
  std::istringstream in(best->text);
  const std::string name = "built-in model for " + std::to_string(best->ranks) + " ranks";
  MachineModel m = parse_machine_model(in, name);
  m.source = name;
  return m;
}

void save_machine_model(const MachineModel& m, const std::string& path) {
  std::ofstream out(path);
  if (!out) throw Error("ccl: cannot write machine model '" + path + "'");
  out << "# ccl machine model: seconds per start-up, per byte sent, per byte reduced\n";
  out.precision(6);
  out << "alpha " << std::scientific << m.alpha << "\nbeta " << m.beta << "\ngamma " << m.gamma
      << "\n";
  if (m.concurrent_links)
    out << "# a member's links to different neighbours run at once (a torus network)\nlinks "
           "concurrent\n";
  if (!m.profiles.empty()) {
    out << "# per algorithm (or segment size): profile <collective> <algorithm>[:seg=<bytes>] "
           "<bytes per member>:<measured/predicted> ...\n";
    out.unsetf(std::ios::floatfield);
    for (const auto& [key, profile] : m.profiles) {
      out << "profile " << key;
      for (const ProfilePoint& p : profile.points) {
        out << " " << std::setprecision(12) << p.bytes << ":" << std::setprecision(4) << p.ratio;
      }
      out << "\n";
    }
  }
}

const MachineModel& machine_model() {
  return model_ref();
}

void set_machine_model(const MachineModel& m) {
  model_ref() = m;
  ++epoch;
}

void use_builtin_model(int ranks) {
  const char* path = std::getenv("CCL_MODEL");
  if (path != nullptr && *path != '\0') return;  // a file, or "plain"
  set_machine_model(builtin_machine_model(ranks));
}

unsigned selection_epoch() {
  return epoch;
}
void note_catalog_change() {
  ++epoch;
}

Choice parse_choice(CollKind kind, std::string_view spec) {
  const std::size_t colon = spec.find(':');
  const std::string_view algo = spec.substr(0, colon);
  const Algorithm* a = find_algorithm(kind, algo);
  if (a == nullptr) {
    std::string known;
    for (const Algorithm* c : catalog()) {
      if (c->kind != base_kind(kind)) continue;
      if (!known.empty()) known += ", ";
      known += c->name;
    }
    throw Error("ccl: no " + std::string(name(kind)) + " algorithm '" + std::string(algo) +
                "' (known: " + known + ")");
  }
  Choice c{a, {}};
  if (colon != std::string_view::npos) c.params = parse_params(spec.substr(colon + 1));
  return c;
}

void set_override(CollKind kind, std::string_view spec) {
  if (spec.empty()) {
    overrides().api.erase(kind);
  } else {
    overrides().api[kind] = Override{parse_choice(kind, spec), "API"};
  }
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
             "least predicted time; model: " + machine_model().source + ")";
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
