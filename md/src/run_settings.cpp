// The commands that set how a run goes, in LAMMPS's syntax:
//
//   kspace_style ewald|pppm ACCURACY        kspace_modify order N | mesh X Y Z
//   neighbor SKIN bin                        neigh_modify every N delay N check yes|no
//   timestep DT        fix ID all nve        thermo N        thermo_style one | custom KEYWORDS
//   thermo_modify format float FORMAT
//   dump ID all atom|xyz N FILE     dump ID all custom N FILE COLUMNS     undump ID
//   restart N FILE | restart 0
#include <algorithm>

#include "md/system.hpp"
#include "md/thermo.hpp"

namespace md {

namespace {

void need_group_all(const Command& c, std::size_t i) {
  if (c.word(i, "group") != "all")
    c.fail(c.name() + ": only the group 'all' is supported, got '" + c.words[i] + "'");
}

long non_negative(const Command& c, std::size_t i, const char* what) {
  const long v = c.integer(i, what);
  if (v < 0) c.fail(c.name() + ": the " + std::string(what) + " must not be negative");
  return v;
}

void kspace_style(System& s, const Command& c) {
  const std::string& style = c.word(1, "style");
  if (style != "ewald" && style != "pppm")
    c.fail("kspace_style: unknown style '" + style + "' (use ewald or pppm)");
  c.expect_args(2, 2, "kspace_style ewald|pppm ACCURACY");
  s.kspace.style = style;
  s.kspace.accuracy = c.number(2, "accuracy");
  if (!(s.kspace.accuracy > 0) || s.kspace.accuracy >= 1)
    c.fail("kspace_style: the accuracy must be in (0, 1)");
  s.kspace.where = c.file + ":" + std::to_string(c.line);
}

void kspace_modify(System& s, const Command& c) {
  if (s.kspace.style.empty()) c.fail("kspace_modify: no kspace_style yet");
  if (c.args() == 0) c.fail("kspace_modify: expected order N or mesh X Y Z");
  for (std::size_t i = 1; i <= c.args();) {
    const std::string& key = c.words[i];
    if (key == "order") {
      const long order = c.integer(i + 1, "order");
      if (order < 2 || order > 7) c.fail("kspace_modify: the PPPM order must be in 2..7");
      s.kspace.order = static_cast<int>(order);
      i += 2;
    } else if (key == "mesh") {
      for (std::size_t d = 0; d < 3; ++d) {
        const long m = c.integer(i + 1 + d, "mesh size");
        if (m < 0 || m > 4096) c.fail("kspace_modify: mesh sizes must be in 0..4096 (0: chosen)");
        s.kspace.mesh[d] = static_cast<int>(m);
      }
      i += 4;
    } else {
      c.fail("kspace_modify: unknown keyword '" + key + "' (use order or mesh)");
    }
  }
}

void neighbor(System& s, const Command& c) {
  c.expect_args(2, 2, "neighbor SKIN bin");
  const double skin = c.number(1, "skin");
  if (skin < 0) c.fail("neighbor: the skin must not be negative");
  if (c.words[2] != "bin")
    c.fail("neighbor: only the 'bin' style is supported, got '" + c.words[2] + "'");
  s.run.neighbor.skin = skin;
}

void neigh_modify(System& s, const Command& c) {
  if (c.args() == 0 || c.args() % 2 != 0)
    c.fail("neigh_modify: expected keyword value pairs (every, delay, check)");
  NeighborSettings& n = s.run.neighbor;
  for (std::size_t i = 1; i < c.args(); i += 2) {
    const std::string& key = c.words[i];
    if (key == "every") {
      n.every = static_cast<int>(c.integer(i + 1, "every"));
      if (n.every < 1) c.fail("neigh_modify: every must be at least 1");
    } else if (key == "delay") {
      n.delay = static_cast<int>(non_negative(c, i + 1, "delay"));
    } else if (key == "check") {
      const std::string& v = c.words[i + 1];
      if (v != "yes" && v != "no") c.fail("neigh_modify: check must be yes or no");
      n.check = v == "yes";
    } else {
      c.fail("neigh_modify: unknown keyword '" + key + "' (use every, delay or check)");
    }
  }
}

void fix(System& s, const Command& c) {
  c.expect_args(3, 3, "fix ID all nve");
  need_group_all(c, 2);
  if (c.words[3] != "nve")
    c.fail("fix: only the 'nve' style is supported, got '" + c.words[3] + "'");
  s.run.nve = true;
}

void thermo_style(System& s, const Command& c) {
  const std::string& style = c.word(1, "style");
  if (style == "one") {
    c.expect_args(1, 1, "thermo_style one");
    s.run.thermo_keywords = RunSettings{}.thermo_keywords;
    return;
  }
  if (style != "custom")
    c.fail("thermo_style: only 'one' and 'custom' are supported, got '" + style + "'");
  if (c.args() < 2) c.fail("thermo_style: custom needs at least one keyword");
  std::vector<std::string> keys(c.words.begin() + 2, c.words.end());
  for (const std::string& k : keys) {
    if (!thermo_keyword_known(k)) {
      c.fail("thermo_style: unknown keyword '" + k +
             "' (supported: " + thermo_keywords_supported() + ")");
    }
  }
  s.run.thermo_keywords = keys;
}

void dump(System& s, const Command& c) {
  if (c.args() >= 3 && c.words[3] == "custom") {
    if (c.args() < 6)
      c.fail("dump: custom needs at least one column: dump ID all custom N FILE id fx fy fz ...");
  } else {
    c.expect_args(5, 5, "dump ID all atom|xyz N FILE");
  }
  need_group_all(c, 2);
  DumpSettings d;
  d.id = c.words[1];
  d.style = c.words[3];
  if (d.style != "atom" && d.style != "xyz" && d.style != "custom") {
    c.fail("dump: only the atom, xyz and custom styles are supported, got '" + d.style + "'");
  }
  static const std::vector<std::string> kColumns{"id", "type", "q",  "x",  "y",  "z",
                                                 "vx", "vy",   "vz", "fx", "fy", "fz"};
  for (std::size_t i = 6; i <= c.args(); ++i) {
    if (std::find(kColumns.begin(), kColumns.end(), c.words[i]) == kColumns.end()) {
      c.fail("dump: unknown custom column '" + c.words[i] +
             "' (use id type q x y z vx vy vz fx fy fz)");
    }
    d.columns.push_back(c.words[i]);
  }
  d.every = c.integer(4, "interval");
  if (d.every < 1) c.fail("dump: the interval must be at least 1");
  d.file = c.words[5];
  d.where = c.file + ":" + std::to_string(c.line);
  for (const DumpSettings& other : s.run.dumps) {
    if (other.id == d.id) c.fail("dump: a dump with ID '" + d.id + "' already exists");
  }
  s.run.dumps.push_back(d);
}

}  // namespace

bool apply_run_setting(System& s, const Command& c) {
  const std::string& n = c.name();
  if (n == "kspace_style") {
    kspace_style(s, c);
  } else if (n == "kspace_modify") {
    kspace_modify(s, c);
  } else if (n == "neighbor") {
    neighbor(s, c);
  } else if (n == "neigh_modify") {
    neigh_modify(s, c);
  } else if (n == "timestep") {
    c.expect_args(1, 1, "timestep DT");
    s.run.timestep = c.number(1, "timestep");
    if (!(s.run.timestep > 0)) c.fail("timestep: must be positive");
  } else if (n == "fix") {
    fix(s, c);
  } else if (n == "thermo") {
    c.expect_args(1, 1, "thermo N");
    s.run.thermo_every = non_negative(c, 1, "interval");
  } else if (n == "thermo_style") {
    thermo_style(s, c);
  } else if (n == "thermo_modify") {
    c.expect_args(3, 3, "thermo_modify format float FORMAT");
    if (c.words[1] != "format" || c.words[2] != "float")
      c.fail("thermo_modify: only 'format float FORMAT' is supported");
    if (!thermo_float_format_ok(c.words[3]))
      c.fail("thermo_modify: '" + c.words[3] +
             "' is not one printf conversion of a number (such as %20.15g)");
    s.run.thermo_float = c.words[3];
  } else if (n == "dump") {
    dump(s, c);
  } else if (n == "restart") {
    const long every = non_negative(c, 1, "interval");
    if (every == 0) {
      c.expect_args(1, 1, "restart 0");
    } else {
      c.expect_args(2, 2, "restart N FILE");
      s.run.restart_file = c.words[2];
    }
    s.run.restart_every = every;
  } else if (n == "undump") {
    c.expect_args(1, 1, "undump ID");
    auto& dumps = s.run.dumps;
    const auto it = std::find_if(dumps.begin(), dumps.end(),
                                 [&](const DumpSettings& d) { return d.id == c.words[1]; });
    if (it == dumps.end()) c.fail("undump: no dump with ID '" + c.words[1] + "'");
    dumps.erase(it);
  } else {
    return false;
  }
  return true;
}

}  // namespace md
