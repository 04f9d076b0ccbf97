// Forces, energies and virial of the whole system under the deck's pair and kspace styles,
// computed with the replicated-data decomposition: every member holds every position, takes a
// share of the real-space rows and of the k-vectors, and the forces and energies are combined.
#pragma once

#include <string>
#include <vector>

#include "ccl/ccl.hpp"
#include "ewald/coulomb.hpp"
#include "ewald/ewald_sum.hpp"
#include "md/system.hpp"

namespace md {

struct Terms {
  double ecoul = 0;  // real-space Coulomb (the pair style's share)
  double elong = 0;  // k-space, self and background
  double evdwl = 0;
  double virial = 0;  // Σ r·F over all terms
};

class Interactions {
 public:
  // Chooses the Ewald parameters for the system (fails naming the deck line on a bad setting) and
  // writes what it chose to `log` (rank 0 only).
  Interactions(const System& s, const ccl::Group& group, std::FILE* log);

  // Forces into f (natoms × 3, overwritten on every member) and the energy terms.
  Terms compute(const System& s, std::vector<double>& f) const;

 private:
  ccl::Group group_;
  double sum_q_ = 0, sum_q2_ = 0;  // the charges' sum and sum of squares (fixed during a run)
  ewald::EwaldParameters params_;
  std::vector<ewald::KVector> kvectors_;
};

}  // namespace md
