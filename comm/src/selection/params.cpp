// Text form of algorithm parameters and choices: "k=4", "seg=65536", "mesh=5x6,plan=SSCC".
#include <charconv>
#include <string>

#include "ccl/algorithm.hpp"
#include "ccl/error.hpp"

namespace ccl {

namespace {

long long number(std::string_view text, std::string_view what) {
  long long v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size() || v < 0) {
    throw Error("ccl: parameter " + std::string(what) + " needs a non-negative integer, not '" +
                std::string(text) + "'");
  }
  return v;
}

}  // namespace

std::string to_string(const Params& p) {
  // Appends piece by piece (GCC 12 warns falsely on "literal" + std::string here).
  std::string out;
  auto add = [&out](std::string_view key, const std::string& value) {
    if (!out.empty()) out += ',';
    out.append(key).append("=").append(value);
  };
  if (p.k != 0) add("k", std::to_string(p.k));
  if (p.segment != 0) add("seg", std::to_string(p.segment));
  if (!p.mesh.empty()) {
    std::string m;
    for (int d : p.mesh) {
      if (!m.empty()) m += 'x';
      m += std::to_string(d);
    }
    add("mesh", m);
  }
  if (!p.plan.empty()) add("plan", p.plan);
  return out;
}

Params parse_params(std::string_view text) {
  Params p;
  while (!text.empty()) {
    const std::size_t comma = text.find(',');
    const std::string_view item = text.substr(0, comma);
    text = comma == std::string_view::npos ? std::string_view{} : text.substr(comma + 1);
    const std::size_t eq = item.find('=');
    if (eq == std::string_view::npos) {
      throw Error("ccl: parameter '" + std::string(item) +
                  "' is not key=value (keys: k, seg, mesh, plan)");
    }
    const std::string_view key = item.substr(0, eq), value = item.substr(eq + 1);
    if (key == "k" || key == "r") {
      p.k = static_cast<int>(number(value, key));
    } else if (key == "seg") {
      p.segment = static_cast<std::size_t>(number(value, key));
    } else if (key == "mesh") {
      std::string_view rest = value;
      while (!rest.empty()) {
        const std::size_t x = rest.find('x');
        p.mesh.push_back(static_cast<int>(number(rest.substr(0, x), "mesh")));
        rest = x == std::string_view::npos ? std::string_view{} : rest.substr(x + 1);
      }
    } else if (key == "plan") {
      p.plan = std::string(value);
    } else {
      throw Error("ccl: unknown parameter '" + std::string(key) + "' (keys: k, seg, mesh, plan)");
    }
  }
  return p;
}

std::string Choice::str() const {
  std::string s(algorithm != nullptr ? algorithm->name : "none");
  const std::string p = to_string(params);
  return p.empty() ? s : s + ":" + p;
}

}  // namespace ccl
