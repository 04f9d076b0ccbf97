// The deck's setup commands: units, the box, the atoms and the interactions.
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "md/system.hpp"

namespace md {

void need_box(const System& s, const Command& c) {
  if (!s.box_created) c.fail(c.name() + ": no box yet (use create_box first)");
}

int type_arg(const System& s, const Command& c, std::size_t i) {
  const long t = c.integer(i, "atom type");
  if (t < 1 || t > s.ntypes) {
    c.fail(c.name() + ": atom type " + std::to_string(t) + " is not in 1.." +
           std::to_string(s.ntypes));
  }
  return static_cast<int>(t);
}

std::pair<int, int> type_range(const System& s, const Command& c, std::size_t i) {
  const std::string& w = c.word(i, "atom type or range");
  const std::size_t star = w.find('*');
  if (star == std::string::npos) {
    const int t = type_arg(s, c, i);
    return {t, t};
  }
  auto bound = [&](const std::string& part, int fallback) {
    if (part.empty()) return fallback;
    char* end = nullptr;
    const long v = std::strtol(part.c_str(), &end, 10);
    if (*end != '\0' || v < 1 || v > s.ntypes) {
      c.fail(c.name() + ": '" + w + "' is not a type range within 1.." + std::to_string(s.ntypes));
    }
    return static_cast<int>(v);
  };
  const int first = bound(w.substr(0, star), 1), last = bound(w.substr(star + 1), s.ntypes);
  if (first > last) c.fail(c.name() + ": the type range '" + w + "' is empty");
  return {first, last};
}

namespace {

void add_atom(System& s, int type, const Vec3& x) {
  ++s.natoms;
  if (s.keeps_atoms) s.atoms.push_back(Atom{s.natoms, type, 0.0, x, {0, 0, 0}});
}

// `create_atoms T single x y z [units box|lattice]`: one atom, which must lie in the box.
void create_single(System& s, const Command& c, int type) {
  c.expect_args(5, 7, "create_atoms T single x y z [units box|lattice]");
  bool lattice_units = true;
  if (c.args() > 5) {
    if (c.words[6] != "units")
      c.fail("create_atoms: unknown keyword '" + c.words[6] + "' (use units)");
    const std::string& u = c.word(7, "units box|lattice");
    if (u != "box" && u != "lattice")
      c.fail("create_atoms: units must be box or lattice, got '" + u + "'");
    lattice_units = u == "lattice";
  }
  if (lattice_units && !s.lattice)
    c.fail("create_atoms: lattice units need a lattice command first");
  const Vec3 scale = lattice_units ? s.lattice->spacing() : Vec3{1, 1, 1};
  Vec3 p;
  for (std::size_t d = 0; d < 3; ++d) {
    p[d] = c.number(3 + d, std::string(1, "xyz"[d])) * scale[d];
    if (p[d] < s.lo[d] || p[d] >= s.hi[d]) {
      char text[200];
      std::snprintf(text, sizeof text, "create_atoms: the atom at (%g, %g, %g) is outside the box",
                    p[0], p[1], p[2]);
      c.fail(text);
    }
  }
  add_atom(s, type, p);
}

void region(System& s, const Command& c) {
  const std::string& id = c.word(1, "region ID");
  if (c.word(2, "style") != "block") c.fail("region: only the 'block' style is supported");
  bool lattice_units = true;
  for (std::size_t i = 9; i <= c.args(); i += 2) {
    if (c.words[i] != "units")
      c.fail("region: unknown keyword '" + c.words[i] + "' (use units box|lattice)");
    const std::string& u = c.word(i + 1, "units box|lattice");
    if (u != "box" && u != "lattice")
      c.fail("region: units must be box or lattice, got '" + u + "'");
    lattice_units = u == "lattice";
  }
  if (lattice_units && !s.lattice) c.fail("region: lattice units need a lattice command first");
  const Vec3 scale = lattice_units ? s.lattice->spacing() : Vec3{1, 1, 1};
  Region r;
  for (std::size_t d = 0; d < 3; ++d) {
    const std::string axis(1, "xyz"[d]);
    r.lo[d] = c.number(3 + 2 * d, axis + "lo") * scale[d];
    r.hi[d] = c.number(4 + 2 * d, axis + "hi") * scale[d];
    if (!(r.hi[d] > r.lo[d])) c.fail("region: " + axis + "hi must be greater than " + axis + "lo");
  }
  s.regions[id] = r;
}

void create_box(System& s, const Command& c) {
  c.expect_args(2, 2, "create_box N region-ID");
  if (s.box_created) c.fail("create_box: the box already exists");
  if (s.units == nullptr)
    c.fail("create_box: no units yet (use 'units metal' or 'units real' first)");
  const long n = c.integer(1, "number of atom types");
  if (n < 1 || n > 1000) c.fail("create_box: the number of atom types must be in 1..1000");
  const auto it = s.regions.find(c.words[2]);
  if (it == s.regions.end()) c.fail("create_box: no region '" + c.words[2] + "'");
  s.lo = it->second.lo;
  s.hi = it->second.hi;
  s.ntypes = static_cast<int>(n);
  s.mass.assign(static_cast<std::size_t>(n) + 1, 0.0);
  s.box_created = true;
}

// Lattice points of the box (or a region) with lo <= x < hi, one atom per basis point; `basis i t`
// gives basis atom i type t. A point within a relative 1e-10 of hi counts as hi (it is the image
// of a point at lo).
void create_atoms(System& s, const Command& c) {
  need_box(s, c);
  const int t = type_arg(s, c, 1);
  const std::string& style = c.word(2, "style (box, region or single)");
  if (style == "single") return create_single(s, c, t);
  if (!s.lattice) c.fail("create_atoms: no lattice defined");
  Region where{s.lo, s.hi};
  std::size_t i = 3;
  if (style == "region") {
    const auto it = s.regions.find(c.word(3, "region ID"));
    if (it == s.regions.end()) c.fail("create_atoms: no region '" + c.words[3] + "'");
    where = it->second;
    i = 4;
  } else if (style != "box") {
    c.fail("create_atoms: style must be box, region or single, got '" + style + "'");
  }
  std::vector<int> basis_type(s.lattice->basis.size(), t);
  for (; i <= c.args(); i += 3) {
    if (c.words[i] != "basis")
      c.fail("create_atoms: unknown keyword '" + c.words[i] + "' (use basis)");
    const long b = c.integer(i + 1, "basis index");
    if (b < 1 || b > static_cast<long>(basis_type.size())) {
      c.fail("create_atoms: basis index " + std::to_string(b) + " is not in 1.." +
             std::to_string(basis_type.size()));
    }
    basis_type[static_cast<std::size_t>(b - 1)] = type_arg(s, c, i + 2);
  }
  const Vec3 a = s.lattice->spacing();
  const Vec3 len = s.length();
  // The cell range in double first: a region far out (or unbounded, 1e308 in lattice units) has
  // cell indices that do not fit in a long, and converting them would be undefined.
  std::array<double, 3> from{}, to{};
  for (std::size_t d = 0; d < 3; ++d) {
    from[d] = std::floor(where.lo[d] / a[d]) - 1;
    to[d] = std::ceil(where.hi[d] / a[d]) + 1;
    if (!(std::abs(from[d]) < 1e15 && std::abs(to[d]) < 1e15)) {
      c.fail("create_atoms: the region reaches more than 1e15 lattice spacings from the origin");
    }
  }
  const double cells = (to[0] - from[0]) * (to[1] - from[1]) * (to[2] - from[2]);
  if (cells * double(basis_type.size()) > 1e8)
    c.fail("create_atoms: more than 1e8 lattice points to try");
  std::array<long, 3> first{}, last{};
  for (std::size_t d = 0; d < 3; ++d) {
    first[d] = static_cast<long>(from[d]);
    last[d] = static_cast<long>(to[d]);
  }
  auto inside = [&](const Vec3& p) {
    for (std::size_t d = 0; d < 3; ++d) {
      const double eps = 1e-10 * len[d];
      if (p[d] < where.lo[d] - eps || p[d] >= where.hi[d] - eps) return false;
      if (p[d] < s.lo[d] - eps || p[d] >= s.hi[d] - eps) return false;
    }
    return true;
  };
  // z outermost, x innermost, basis atoms last: LAMMPS's order, so ids (and the velocities
  // `velocity create` draws by id) name the same atoms as in LAMMPS on one rank.
  for (long iz = first[2]; iz <= last[2]; ++iz) {
    for (long iy = first[1]; iy <= last[1]; ++iy) {
      for (long ix = first[0]; ix <= last[0]; ++ix) {
        for (std::size_t b = 0; b < basis_type.size(); ++b) {
          const Vec3& f = s.lattice->basis[b];
          Vec3 p{(double(ix) + f[0]) * a[0], (double(iy) + f[1]) * a[1],
                 (double(iz) + f[2]) * a[2]};
          if (!inside(p)) continue;
          for (std::size_t d = 0; d < 3; ++d) p[d] = std::max(p[d], s.lo[d]);
          add_atom(s, basis_type[b], p);
        }
      }
    }
  }
}

void set(System& s, const Command& c) {
  need_box(s, c);
  if (c.word(1, "style") != "type") c.fail("set: only 'set type N charge Q' is supported");
  const int t = type_arg(s, c, 2);
  if (c.word(3, "keyword") != "charge") c.fail("set: only the 'charge' keyword is supported");
  const double q = c.number(4, "charge");
  c.expect_args(4, 4, "set type N charge Q");
  for (Atom& a : s.atoms) {
    if (a.type == t) a.q = q;
  }
}

}  // namespace

bool apply_setup(System& s, const Command& c) {
  const std::string& n = c.name();
  if (n == "units") {
    c.expect_args(1, 1, "units metal|real");
    if (s.box_created) c.fail("units: must come before the box is created");
    s.units = units_named(c.words[1]);
    if (s.units == nullptr) c.fail("units: unknown style '" + c.words[1] + "' (use metal or real)");
  } else if (n == "atom_style") {
    c.expect_args(1, 1, "atom_style charge");
    if (c.words[1] != "charge")
      c.fail("atom_style: only 'charge' is supported, got '" + c.words[1] + "'");
  } else if (n == "boundary") {
    c.expect_args(3, 3, "boundary p p p");
    for (std::size_t i = 1; i <= 3; ++i) {
      if (c.words[i] != "p") c.fail("boundary: only periodic boundaries (p p p) are supported");
    }
  } else if (n == "lattice") {
    s.lattice = parse_lattice(c);
  } else if (n == "region") {
    region(s, c);
  } else if (n == "create_box") {
    create_box(s, c);
  } else if (n == "create_atoms") {
    create_atoms(s, c);
  } else if (n == "mass") {
    need_box(s, c);
    c.expect_args(2, 2, "mass TYPE VALUE");
    const auto [first, last] = type_range(s, c, 1);
    const double m = c.number(2, "mass");
    if (!(m > 0)) c.fail("mass: must be positive");
    for (int t = first; t <= last; ++t) s.mass[static_cast<std::size_t>(t)] = m;
  } else if (n == "set") {
    set(s, c);
  } else if (n == "velocity") {
    velocity(s, c);
  } else {
    return apply_pair_setting(s, c) || apply_run_setting(s, c);
  }
  return true;
}

}  // namespace md
