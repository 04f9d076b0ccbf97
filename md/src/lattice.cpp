#include "md/lattice.hpp"

#include <cmath>

namespace md {

namespace {

std::vector<Vec3> named_basis(const std::string& style) {
  if (style == "sc") return {{0, 0, 0}};
  if (style == "bcc") return {{0, 0, 0}, {0.5, 0.5, 0.5}};
  if (style == "fcc") return {{0, 0, 0}, {0.5, 0.5, 0}, {0.5, 0, 0.5}, {0, 0.5, 0.5}};
  if (style == "diamond") {
    return {{0, 0, 0},          {0, 0.5, 0.5},      {0.5, 0, 0.5},      {0.5, 0.5, 0},
            {0.25, 0.25, 0.25}, {0.25, 0.75, 0.75}, {0.75, 0.25, 0.75}, {0.75, 0.75, 0.25}};
  }
  return {};
}

}  // namespace

Lattice parse_lattice(const Command& c) {
  const std::string& style = c.word(1, "style (sc, bcc, fcc, diamond or custom)");
  Lattice l;
  l.scale = c.number(2, "scale (the lattice constant)");
  if (!(l.scale > 0)) c.fail("lattice: the scale must be positive");
  if (style != "custom") {
    l.basis = named_basis(style);
    if (l.basis.empty())
      c.fail("lattice: unknown style '" + style + "' (use sc, bcc, fcc, diamond or custom)");
    if (c.args() != 2) c.fail("lattice: '" + style + "' takes only a scale");
    return l;
  }
  for (std::size_t i = 3; i <= c.args();) {
    const std::string& key = c.words[i];
    if (key == "a1" || key == "a2" || key == "a3") {
      const int axis = key[1] - '1';
      const Vec3 v{c.number(i + 1, key + " x"), c.number(i + 2, key + " y"),
                   c.number(i + 3, key + " z")};
      for (int d = 0; d < 3; ++d) {
        if (d != axis && v[static_cast<std::size_t>(d)] != 0) {
          c.fail("lattice: " + key +
                 " must lie along its axis (only orthogonal cells are supported)");
        }
      }
      if (!(v[static_cast<std::size_t>(axis)] > 0))
        c.fail("lattice: " + key + " must have a positive length");
      l.cell[static_cast<std::size_t>(axis)] = v[static_cast<std::size_t>(axis)];
      i += 4;
    } else if (key == "basis") {
      const Vec3 b{c.number(i + 1, "basis x"), c.number(i + 2, "basis y"),
                   c.number(i + 3, "basis z")};
      for (double f : b) {
        if (f < 0 || f >= 1) c.fail("lattice: basis coordinates must lie in [0, 1)");
      }
      l.basis.push_back(b);
      i += 4;
    } else {
      c.fail("lattice: unknown keyword '" + key + "' (use a1, a2, a3, basis)");
    }
  }
  if (l.basis.empty()) c.fail("lattice: custom needs at least one 'basis x y z'");
  return l;
}

}  // namespace md
