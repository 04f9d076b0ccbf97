// The machine model (ccl/selection.hpp): α, β, γ, per-algorithm profiles and links; its file
// format, the built-in models, and the model selection uses.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <iomanip>
#include <sstream>

#include "ccl/error.hpp"
#include "ccl/selection.hpp"
#include "selection/builtin_models.hpp"
#include "selection/choice_epoch.hpp"
#include "selection/setting_text.hpp"

namespace ccl {

using detail::kind_named;
using detail::trim;

namespace {

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

}  // namespace

MachineModel default_machine_model() {
  // Measured on the 2-core development machine with ccl-calibrate (Open MPI 4.1, vader).
  return MachineModel{8.8e-7, 1.12e-10, 8.5e-11, "built-in default", {}, false, {}};
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

// "torus alpha <s> hop <s> beta <s/byte> ports <n>", the words in this order.
void read_torus_links(std::istringstream& words, MachineModel& m, const std::string& where) {
  const std::string expected =
      where +
      ": expected 'torus alpha <s> hop <s> beta <s/byte> ports <n>' (non-negative, ports >= 1)";
  std::string key, a, h, b, p, extra;
  TorusLinkModel t;
  if (!(words >> key >> a >> t.alpha >> h >> t.hop >> b >> t.beta >> p >> t.ports) ||
      (words >> extra) || a != "alpha" || h != "hop" || b != "beta" || p != "ports" ||
      !(t.alpha >= 0) || !(t.hop >= 0) || !(t.beta >= 0) || t.ports < 1) {
    throw Error(expected);
  }
  m.torus = t;
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
    if (line.rfind("torus", 0) == 0) {
      read_torus_links(words, m, path + ":" + std::to_string(no));
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
  if (m.torus.known()) {
    out << "# torus links: per message, per link crossed, per byte on a link; links driven at "
           "once\ntorus alpha "
        << m.torus.alpha << " hop " << m.torus.hop << " beta " << m.torus.beta << " ports "
        << m.torus.ports << "\n";
  }
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
  detail::note_selection_change();
}

void use_builtin_model(int ranks) {
  const char* path = std::getenv("CCL_MODEL");
  if (path != nullptr && *path != '\0') return;  // a file, or "plain"
  set_machine_model(builtin_machine_model(ranks));
}

}  // namespace ccl
