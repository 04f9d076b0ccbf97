// The replicated-data decomposition: every member holds every position; each owns (integrates)
// a contiguous block of atoms in id order and computes a share of the interactions.
//
//   start     the holder scatters the atoms (scatterv); a prefix of the block sizes places each
//             block; charges, types and ids are concatenated once (concatv)
//   each step the owned positions are concatenated (concatv: the torus allgather when the
//             members form a torus), forces and energies are combined (combine)
//   thermo    owned kinetic energies reduced to member 0 (reduce)
//   dumps/end the owned atoms gathered to member 0 (gatherv)
#pragma once

#include <vector>

#include "ccl/ccl.hpp"
#include "md/interactions.hpp"
#include "md/system.hpp"

namespace md {

class Replicated {
 public:
  // Distributes the holder's atoms (s.atoms on member 0) over the group.
  Replicated(const System& s, const ccl::Group& group);

  std::size_t natoms() const { return natoms_; }
  std::size_t first() const { return first_; }   // the owned block: [first, first + count)
  std::size_t count() const { return count_; }

  // All positions from the owned blocks.
  void exchange_positions();
  // Wraps every position into the box (every member does the same, so owned blocks stay equal).
  void wrap(const System& s);
  // Every member's share computed and combined: f holds the total forces on every member.
  Terms compute_forces(Interactions& in, Timers& timers);
  // Σ ½ m v² of the owned atoms, summed to member 0 (its value elsewhere is meaningless).
  double kinetic_energy(const System& s) const;
  // The owned atoms' records, gathered in id order to member 0 (empty elsewhere).
  std::vector<Atom> gather_atoms() const;

  Positions x;            // all atoms
  Forces f;               // all atoms, plus two rows that carry the energy terms in the combine
  Forces v;               // owned atoms
  Charges q;              // all atoms
  Types type;             // all atoms
  std::vector<long> id;   // all atoms

 private:
  std::vector<std::size_t> counts(std::size_t per_atom) const;
  ccl::Group group_;
  std::size_t natoms_, first_ = 0, count_ = 0;
  std::vector<double> mass_;  // per type
};

}  // namespace md
