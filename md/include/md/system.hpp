// What a deck's setup commands build: units, the periodic box, atom types and the atoms, the
// interaction settings and the run's settings.
//
// Every rank applies every command, so a bad deck fails identically everywhere; only the
// configuration's holder (rank 0) stores the atoms themselves, the others count them. A run
// scatters them to their owners and gathers them back when it ends (md/run.hpp).
#pragma once

#include <array>
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

// One atom of the configuration (trivially copyable: scattered and gathered as it is).
struct Atom {
  long id;
  int type;
  double q;
  Vec3 x, v;
  Vec3 f{0, 0, 0};  // the last force computed (for dumps)
};

enum class PairKind { coul_long, lj_cut_coul_long, born_coul_long };

// The coefficients of one pair of types as the deck gives them (pair_coeff).
struct PairCoeff {
  bool set = false;
  std::vector<double> values;  // lj: epsilon sigma; born: A rho sigma C D
  double cutoff = -1;          // short-range cut-off of the pair; < 0: the global one
};

struct PairSettings {
  std::string style;  // the deck's name for it
  PairKind kind = PairKind::coul_long;
  double cutoff_coul = 0;         // real-space cut-off of the Coulomb term
  double cutoff_short = 0;        // global cut-off of the LJ or Born term
  std::string mix = "geometric";  // pair_modify mix (lj only)
  bool shift = false;             // pair_modify shift: short-range energies zero at the cut-off
  std::vector<PairCoeff> coeff;   // (ntypes+1)² entries, [i * (ntypes+1) + j], i, j ≥ 1
  std::string where;              // file:line of pair_style, for later errors
};

struct KspaceSettings {
  std::string style;                 // "ewald" or "pppm"
  double accuracy = 0;               // relative force accuracy
  int order = 5;                     // PPPM interpolation order (kspace_modify order)
  std::array<int, 3> mesh{0, 0, 0};  // PPPM mesh (kspace_modify mesh); 0: chosen from the accuracy
  std::string where;
};

struct NeighborSettings {
  double skin = 2.0;  // Å, LAMMPS's default in metal and real units
  int every = 1, delay = 0;
  bool check = true;  // rebuild only when an atom moved more than half the skin
};

struct DumpSettings {
  std::string id, style, file;  // style: atom, xyz or custom
  long every = 0;
  std::vector<std::string> columns;  // custom: id type q x y z vx vy vz fx fy fz
  std::string where;                 // file:line of the dump command
};

struct RunSettings {
  double timestep = -1;  // < 0: the units' default
  bool nve = false;      // a fix nve integrates; without one atoms do not move
  long thermo_every = 0;
  std::vector<std::string> thermo_keywords{"step", "temp", "epair", "emol", "etotal", "press"};
  std::string thermo_float = "%15.10g";  // thermo_modify format float
  NeighborSettings neighbor;
  std::vector<DumpSettings> dumps;
  long restart_every = 0;    // restart N FILE: write every N steps (0: never)
  std::string restart_file;  // '*' becomes the step
};

struct System {
  const Units* units = nullptr;
  std::optional<Lattice> lattice;
  std::map<std::string, Region> regions;
  bool box_created = false;
  Vec3 lo{}, hi{};
  int ntypes = 0;
  std::vector<double> mass;  // per type, index 1..ntypes (0 when unset)
  bool keeps_atoms = true;   // false on ranks other than the configuration's holder
  long natoms = 0;           // on every rank
  std::vector<Atom> atoms;   // in id order, on the holder only
  PairSettings pair;
  KspaceSettings kspace;
  RunSettings run;
  long step = 0;  // the current timestep; runs continue from it

  Vec3 length() const { return {hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]}; }
  double volume() const {
    const Vec3 l = length();
    return l[0] * l[1] * l[2];
  }
  double timestep() const { return run.timestep > 0 ? run.timestep : units->timestep; }
};

// Applies one setup command to the system; fails with file:line on bad input. Returns false for
// a command that is not a setup command, which the caller handles.
bool apply_setup(System& s, const Command& c);

// Applies pair_style, pair_coeff and pair_modify (md/src/pair_settings.cpp); false for others.
bool apply_pair_setting(System& s, const Command& c);

// Applies kspace_style, kspace_modify, neighbor, neigh_modify, timestep, fix, thermo,
// thermo_style and dump (md/src/run_settings.cpp); false for other commands.
bool apply_run_setting(System& s, const Command& c);

// `velocity all create T SEED [dist uniform|gaussian] [mom yes|no] [loop all]`
// (md/src/velocity.cpp).
void velocity(System& s, const Command& c);

// Fails naming `c` unless the box exists.
void need_box(const System& s, const Command& c);
// Argument i of c as an atom type in 1..ntypes.
int type_arg(const System& s, const Command& c, std::size_t i);
// Argument i of c as a type range (N, *, N*, *M, N*M) within 1..ntypes: {first, last}.
std::pair<int, int> type_range(const System& s, const Command& c, std::size_t i);

}  // namespace md
