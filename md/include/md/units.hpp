// LAMMPS unit systems: the constants that turn the deck's units into energies, forces and
// pressures (values as LAMMPS defines them, so that the same deck gives the same numbers).
#pragma once

#include <string>

namespace md {

struct Units {
  std::string name;
  double boltz;     // Boltzmann constant, energy / K
  double mvv2e;     // mass · velocity² → energy
  double ftm2v;     // force / mass · time → velocity
  double qqr2e;     // q² / distance → energy (Coulomb's constant)
  double nktv2p;    // energy / volume → pressure
  double timestep;  // the default timestep
  double ns;        // one time unit in ns (for ns/day)
};

// "metal" (eV, Å, ps, bar) or "real" (kcal/mol, Å, fs, atm); nullptr for any other name.
const Units* units_named(const std::string& name);

}  // namespace md
