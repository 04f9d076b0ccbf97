// Classic Ewald for the owner-computes scheme (the QCDOC seed's): every member holds every
// position but computes forces on its own atoms only. A member sums the structure factors S(k)
// of its own atoms; the members' sums are added (one combine of the 2·N_k values, which the
// caller makes); each member then takes the k-space forces on its own atoms from the total, and
// the energy and virial of the whole system, the same on every member.
//
//   S_w(k) = Σ_{i owned by w} q_i e^{ik·r_i},   S(k) = Σ_w S_w(k)
//   F_i    = 2 C (2π/V) Σ_k w_k q_i k (sin(k·r_i) Re S − cos(k·r_i) Im S)
// Cost per member: O(n Σ_d kmax_d) for the phase tables of its n atoms, O(n N_k) for S_w and
// again for the forces; the combine moves 2·N_k values. The tables are kept from step to step.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "ewald/coulomb.hpp"
#include "ewald/ewald_sum.hpp"
#include "ewald/phase_tables.hpp"

namespace ewald {

class OwnedEwald {
 public:
  // groups: the caller's, which must outlive this (not copied: a large system's are megabytes).
  OwnedEwald(const std::vector<KGroup>& groups, double g, const Vec3& box, double qqr2e);

  // Values of S(k) per member: Re and Im of each k-vector (2·N_k).
  std::size_t factor_count() const { return 2 * vectors_; }
  // S(k) of atoms [first, last) of x into factors (factor_count() values).
  void sum_factors(const Positions& x, const Charges& q, std::size_t first, std::size_t last,
                   std::span<double> factors);
  // Forces on the atoms of the last sum_factors (at the positions it saw: it keeps their phase
  // tables), added into f, which holds just those atoms (row 0: the first), from the summed
  // factors; the energy and virial of the whole system.
  Energy forces(const Charges& q, std::span<const double> factors, const Forces& f);

 private:
  const std::vector<KGroup>& groups_;
  std::size_t vectors_ = 0;
  double g_, qqr2e_;
  Vec3 box_;
  int nmax_[3] = {0, 0, 0};
  detail::PhaseTables tables_;  // of the owned atoms, kept from step to step
};

}  // namespace ewald
