// Test harness for the MD library: a system built from deck text, its atoms displaced at random
// (so that forces do not vanish by symmetry), and its forces and energies computed with the
// replicated decomposition over the world group.
#pragma once

#include <memory>
#include <random>
#include <string>

#include "ccl/ccl.hpp"
#include "md/replicated.hpp"
#include "md/system.hpp"

namespace md_test {

// Rock salt (a = 5.64 Å) of cells³ conventional cells, charges ±1, then `extra` commands.
inline std::string rock_salt_deck(int cells, const std::string& extra) {
  const std::string n = std::to_string(cells);
  return "units metal\natom_style charge\nboundary p p p\n"
         "lattice custom 5.64 a1 1 0 0 a2 0 1 0 a3 0 0 1 basis 0 0 0 basis 0.5 0.5 0 basis 0.5 0 "
         "0.5 "
         "basis 0 0.5 0.5 basis 0.5 0 0 basis 0 0.5 0 basis 0 0 0.5 basis 0.5 0.5 0.5\n"
         "region box block 0 " +
         n + " 0 " + n + " 0 " + n +
         "\ncreate_box 2 box\n"
         "create_atoms 1 box basis 5 2 basis 6 2 basis 7 2 basis 8 2\n"
         "mass 1 22.98976928\nmass 2 35.453\nset type 1 charge 1.0\nset type 2 charge -1.0\n" +
         extra;
}

// The system of a deck, with every atom moved by up to `jitter` Å along each axis (same seed,
// same displacements).
inline md::System system_from(const std::string& deck, double jitter, const ccl::Group& world) {
  md::System s;
  s.keeps_atoms = world.rank() == 0;
  for (const md::Command& c : md::parse_deck(deck, "test.in")) {
    if (!md::apply_setup(s, c)) c.fail("not a setup command");
  }
  std::mt19937_64 random(12345);
  std::uniform_real_distribution<double> step(-jitter, jitter);
  for (md::Atom& a : s.atoms) {
    for (double& x : a.x) x += step(random);
  }
  return s;
}

// Forces and energies of a system's current positions (all members hold all of them).
class ForceField {
 public:
  ForceField(const md::System& s, const ccl::Group& world) : rep_(s, world, nullptr) {}
  md::Terms compute() { return rep_.compute_forces(timers_); }
  double energy() {
    const md::Terms t = compute();
    return t.ecoul + t.elong + t.evdwl;
  }
  md::Positions& x() { return rep_.positions(); }
  const md::Forces& f() const { return rep_.forces(); }
  std::size_t natoms() const { return rep_.natoms(); }

 private:
  md::Replicated rep_;
  md::Timers timers_;
};

}  // namespace md_test
