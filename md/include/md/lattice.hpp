// A LAMMPS `lattice`: a unit cell (orthogonal here) with basis atoms in fractional coordinates,
// scaled by the lattice constant (in metal and real units the scale is the constant in Å).
//
//   lattice sc|bcc|fcc|diamond SCALE
//   lattice custom SCALE [a1 x y z] [a2 x y z] [a3 x y z] basis x y z [basis x y z ...]
#pragma once

#include <array>
#include <vector>

#include "md/deck.hpp"

namespace md {

using Vec3 = std::array<double, 3>;

struct Lattice {
  double scale = 0;
  Vec3 cell{1, 1, 1};       // edge lengths of the unit cell, in units of scale (a1, a2, a3)
  std::vector<Vec3> basis;  // fractional positions in the cell
  Vec3 spacing() const { return {scale * cell[0], scale * cell[1], scale * cell[2]}; }
};

Lattice parse_lattice(const Command& c);

}  // namespace md
