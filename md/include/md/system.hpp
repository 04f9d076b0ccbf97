// What a deck's setup commands build: units, the periodic box, atom types and the atoms, the
// interaction settings, and the run's settings. Atoms are held on the host, identical on every
// rank after setup (replicated data); kernels view them through Kokkos.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "md/deck.hpp"
#include "md/lattice.hpp"
#include "md/units.hpp"

namespace md {

struct Region {
  Vec3 lo, hi;  // in box units
};

struct PairSettings {
  std::string style;          // "coul/long" (more styles: see setup.cpp)
  double cutoff_coul = 0;     // real-space cut-off of the Coulomb term
  std::string where;          // file:line of pair_style, for later errors
};

struct KspaceSettings {
  std::string style;  // "ewald"
  double accuracy = 0;  // relative force accuracy
  std::string where;
};

struct System {
  const Units* units = nullptr;
  std::optional<Lattice> lattice;
  std::map<std::string, Region> regions;
  bool box_created = false;
  Vec3 lo{}, hi{};
  int ntypes = 0;
  std::vector<double> mass;  // per type, index 1..ntypes (0 when unset)
  // atoms
  std::vector<Vec3> x, v;
  std::vector<int> type;
  std::vector<double> q;
  std::vector<long> id;
  PairSettings pair;
  KspaceSettings kspace;

  Vec3 length() const { return {hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]}; }
  double volume() const { const Vec3 l = length(); return l[0] * l[1] * l[2]; }
  std::size_t natoms() const { return x.size(); }
};

// Applies one setup command to the system; fails with file:line on bad input. Returns false for
// a command that is not a setup command (run, thermo output...), which the caller handles.
bool apply_setup(System& s, const Command& c);

}  // namespace md
