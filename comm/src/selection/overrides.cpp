#include "selection/overrides.hpp"

#include <cstdlib>
#include <fstream>

#include "ccl/error.hpp"
#include "selection/choice_epoch.hpp"
#include "selection/setting_text.hpp"

namespace ccl {

namespace detail {

namespace {

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

}  // namespace

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

}  // namespace detail

using detail::Override;
using detail::overrides;

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
  detail::note_selection_change();
}

}  // namespace ccl
