// pair_style, pair_coeff and pair_modify: which pair style, its cut-offs and per-type-pair
// coefficients, in LAMMPS's syntax:
//
//   pair_style coul/long RC
//   pair_style lj/cut/coul/long RC_LJ [RC_COUL]      pair_coeff I J epsilon sigma [RC_LJ]
//   pair_style born/coul/long RC_BORN [RC_COUL]      pair_coeff I J A rho sigma C D [RC_BORN]
//   pair_modify mix geometric|arithmetic  shift yes|no
#include "md/system.hpp"

namespace md {

namespace {

struct StyleInfo {
  const char* name;
  PairKind kind;
  std::size_t coefficients;  // after I J, not counting the optional cut-off
  const char* usage;
};

constexpr StyleInfo kStyles[] = {
    {"coul/long", PairKind::coul_long, 0, "pair_style coul/long RC"},
    {"lj/cut/coul/long", PairKind::lj_cut_coul_long, 2,
     "pair_style lj/cut/coul/long RC_LJ [RC_COUL]"},
    {"born/coul/long", PairKind::born_coul_long, 5, "pair_style born/coul/long RC_BORN [RC_COUL]"},
};

const StyleInfo& style_info(PairKind k) {
  for (const StyleInfo& s : kStyles) {
    if (s.kind == k) return s;
  }
  return kStyles[0];
}

double positive(const Command& c, std::size_t i, const char* what) {
  const double v = c.number(i, what);
  if (!(v > 0)) c.fail(c.name() + ": the " + what + " must be positive");
  return v;
}

void pair_style(System& s, const Command& c) {
  const std::string& name = c.word(1, "style");
  const StyleInfo* info = nullptr;
  for (const StyleInfo& st : kStyles) {
    if (name == st.name) info = &st;
  }
  if (info == nullptr) {
    c.fail("pair_style: unknown style '" + name +
           "' (use coul/long, lj/cut/coul/long or born/coul/long)");
  }
  PairSettings p;
  p.style = name;
  p.kind = info->kind;
  if (p.kind == PairKind::coul_long) {
    c.expect_args(2, 2, info->usage);
    p.cutoff_coul = positive(c, 2, "cut-off");
  } else {
    c.expect_args(2, 3, info->usage);
    p.cutoff_short = positive(c, 2, "cut-off");
    p.cutoff_coul = c.args() == 3 ? positive(c, 3, "Coulomb cut-off") : p.cutoff_short;
  }
  p.where = c.file + ":" + std::to_string(c.line);
  s.pair = p;
}

void pair_coeff(System& s, const Command& c) {
  need_box(s, c);
  if (s.pair.style.empty()) c.fail("pair_coeff: no pair_style yet");
  const StyleInfo& info = style_info(s.pair.kind);
  const std::size_t n = info.coefficients;
  if (n == 0) {
    c.expect_args(2, 2, "pair_coeff I J (coul/long takes no coefficients)");
  } else {
    c.expect_args(2 + n, 3 + n,
                  info.kind == PairKind::lj_cut_coul_long
                      ? "pair_coeff I J epsilon sigma [cut-off]"
                      : "pair_coeff I J A rho sigma C D [cut-off]");
  }
  const auto [i0, i1] = type_range(s, c, 1);
  const auto [j0, j1] = type_range(s, c, 2);
  PairCoeff pc;
  pc.set = true;
  static const char* kNames[2][5] = {{"epsilon", "sigma"}, {"A", "rho", "sigma", "C", "D"}};
  for (std::size_t k = 0; k < n; ++k) {
    const char* what = kNames[info.kind == PairKind::born_coul_long][k];
    pc.values.push_back(c.number(3 + k, what));
  }
  if (info.kind == PairKind::lj_cut_coul_long && pc.values[1] <= 0)
    c.fail("pair_coeff: sigma must be positive");
  if (info.kind == PairKind::born_coul_long && pc.values[1] <= 0)
    c.fail("pair_coeff: rho must be positive");
  if (c.args() == 3 + n) pc.cutoff = positive(c, 3 + n, "cut-off");
  const auto width = static_cast<std::size_t>(s.ntypes + 1);
  s.pair.coeff.resize(width * width);
  for (int i = i0; i <= i1; ++i) {
    for (int j = std::max(i, j0); j <= j1; ++j) {
      s.pair.coeff[static_cast<std::size_t>(i) * width + static_cast<std::size_t>(j)] = pc;
      s.pair.coeff[static_cast<std::size_t>(j) * width + static_cast<std::size_t>(i)] = pc;
    }
  }
}

void pair_modify(System& s, const Command& c) {
  if (s.pair.style.empty()) c.fail("pair_modify: no pair_style yet");
  if (c.args() == 0 || c.args() % 2 != 0)
    c.fail("pair_modify: expected keyword value pairs (mix M, shift yes|no)");
  for (std::size_t i = 1; i < c.args(); i += 2) {
    const std::string& key = c.words[i];
    const std::string& value = c.words[i + 1];
    if (key == "mix") {
      if (value != "geometric" && value != "arithmetic")
        c.fail("pair_modify: mix must be geometric or arithmetic");
      s.pair.mix = value;
    } else if (key == "shift") {
      if (value != "yes" && value != "no") c.fail("pair_modify: shift must be yes or no");
      s.pair.shift = value == "yes";
    } else {
      c.fail("pair_modify: unknown keyword '" + key + "' (use mix or shift)");
    }
  }
}

}  // namespace

bool apply_pair_setting(System& s, const Command& c) {
  if (c.name() == "pair_style") {
    pair_style(s, c);
  } else if (c.name() == "pair_coeff") {
    pair_coeff(s, c);
  } else if (c.name() == "pair_modify") {
    pair_modify(s, c);
  } else {
    return false;
  }
  return true;
}

}  // namespace md
