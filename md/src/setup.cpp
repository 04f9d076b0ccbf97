// The deck's setup commands: units, the box, the atoms and the interactions.
#include <cmath>

#include "md/system.hpp"

namespace md {

namespace {

void need_box(const System& s, const Command& c) {
  if (!s.box_created) c.fail(c.name() + ": no box yet (use create_box first)");
}

int type_arg(const System& s, const Command& c, std::size_t i) {
  const long t = c.integer(i, "atom type");
  if (t < 1 || t > s.ntypes) {
    c.fail(c.name() + ": atom type " + std::to_string(t) + " is not in 1.." + std::to_string(s.ntypes));
  }
  return static_cast<int>(t);
}

void region(System& s, const Command& c) {
  const std::string& id = c.word(1, "region ID");
  if (c.word(2, "style") != "block") c.fail("region: only the 'block' style is supported");
  bool lattice_units = true;
  for (std::size_t i = 9; i <= c.args(); i += 2) {
    if (c.words[i] != "units") c.fail("region: unknown keyword '" + c.words[i] + "' (use units box|lattice)");
    const std::string& u = c.word(i + 1, "units box|lattice");
    if (u != "box" && u != "lattice") c.fail("region: units must be box or lattice, got '" + u + "'");
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
  if (s.units == nullptr) c.fail("create_box: no units yet (use 'units metal' or 'units real' first)");
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
  if (!s.lattice) c.fail("create_atoms: no lattice defined");
  const int t = type_arg(s, c, 1);
  Region where{s.lo, s.hi};
  std::size_t i = 3;
  const std::string& style = c.word(2, "style (box or region)");
  if (style == "region") {
    const auto it = s.regions.find(c.word(3, "region ID"));
    if (it == s.regions.end()) c.fail("create_atoms: no region '" + c.words[3] + "'");
    where = it->second;
    i = 4;
  } else if (style != "box") {
    c.fail("create_atoms: style must be box or region, got '" + style + "'");
  }
  std::vector<int> basis_type(s.lattice->basis.size(), t);
  for (; i <= c.args(); i += 3) {
    if (c.words[i] != "basis") c.fail("create_atoms: unknown keyword '" + c.words[i] + "' (use basis)");
    const long b = c.integer(i + 1, "basis index");
    if (b < 1 || b > static_cast<long>(basis_type.size())) {
      c.fail("create_atoms: basis index " + std::to_string(b) + " is not in 1.." + std::to_string(basis_type.size()));
    }
    basis_type[static_cast<std::size_t>(b - 1)] = type_arg(s, c, i + 2);
  }
  const Vec3 a = s.lattice->spacing();
  const Vec3 len = s.length();
  std::array<long, 3> first{}, last{};
  for (std::size_t d = 0; d < 3; ++d) {
    first[d] = static_cast<long>(std::floor(where.lo[d] / a[d])) - 1;
    last[d] = static_cast<long>(std::ceil(where.hi[d] / a[d])) + 1;
  }
  const double cells = double(last[0] - first[0]) * double(last[1] - first[1]) * double(last[2] - first[2]);
  if (cells * double(basis_type.size()) > 1e8) c.fail("create_atoms: more than 1e8 lattice points to try");
  auto inside = [&](const Vec3& p) {
    for (std::size_t d = 0; d < 3; ++d) {
      const double eps = 1e-10 * len[d];
      if (p[d] < where.lo[d] - eps || p[d] >= where.hi[d] - eps) return false;
      if (p[d] < s.lo[d] - eps || p[d] >= s.hi[d] - eps) return false;
    }
    return true;
  };
  for (long ix = first[0]; ix <= last[0]; ++ix) {
    for (long iy = first[1]; iy <= last[1]; ++iy) {
      for (long iz = first[2]; iz <= last[2]; ++iz) {
        for (std::size_t b = 0; b < basis_type.size(); ++b) {
          const Vec3& f = s.lattice->basis[b];
          Vec3 p{(double(ix) + f[0]) * a[0], (double(iy) + f[1]) * a[1], (double(iz) + f[2]) * a[2]};
          if (!inside(p)) continue;
          for (std::size_t d = 0; d < 3; ++d) p[d] = std::max(p[d], s.lo[d]);
          s.x.push_back(p);
          s.v.push_back({0, 0, 0});
          s.type.push_back(basis_type[b]);
          s.q.push_back(0);
          s.id.push_back(static_cast<long>(s.x.size()));
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
  for (std::size_t i = 0; i < s.natoms(); ++i) {
    if (s.type[i] == t) s.q[i] = q;
  }
}

void pair_style(System& s, const Command& c) {
  const std::string& style = c.word(1, "style");
  if (style != "coul/long") c.fail("pair_style: unknown style '" + style + "' (use coul/long)");
  c.expect_args(2, 2, "pair_style coul/long CUTOFF");
  s.pair.style = style;
  s.pair.cutoff_coul = c.number(2, "cut-off");
  if (!(s.pair.cutoff_coul > 0)) c.fail("pair_style: the cut-off must be positive");
  s.pair.where = c.file + ":" + std::to_string(c.line);
}

void pair_coeff(System& s, const Command& c) {
  need_box(s, c);
  if (s.pair.style.empty()) c.fail("pair_coeff: no pair_style yet");
  c.expect_args(2, 2, "pair_coeff I J (coul/long takes no coefficients)");
  for (std::size_t i = 1; i <= 2; ++i) {
    if (c.words[i] != "*") type_arg(s, c, i);
  }
}

void kspace_style(System& s, const Command& c) {
  const std::string& style = c.word(1, "style");
  if (style != "ewald") c.fail("kspace_style: unknown style '" + style + "' (use ewald)");
  c.expect_args(2, 2, "kspace_style ewald ACCURACY");
  s.kspace.style = style;
  s.kspace.accuracy = c.number(2, "accuracy");
  if (!(s.kspace.accuracy > 0) || s.kspace.accuracy >= 1) c.fail("kspace_style: the accuracy must be in (0, 1)");
  s.kspace.where = c.file + ":" + std::to_string(c.line);
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
    if (c.words[1] != "charge") c.fail("atom_style: only 'charge' is supported, got '" + c.words[1] + "'");
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
    const int t = type_arg(s, c, 1);
    const double m = c.number(2, "mass");
    if (!(m > 0)) c.fail("mass: must be positive");
    s.mass[static_cast<std::size_t>(t)] = m;
  } else if (n == "set") {
    set(s, c);
  } else if (n == "pair_style") {
    pair_style(s, c);
  } else if (n == "pair_coeff") {
    pair_coeff(s, c);
  } else if (n == "kspace_style") {
    kspace_style(s, c);
  } else {
    return false;
  }
  return true;
}

}  // namespace md
