// PPPM parameters from a requested relative accuracy, chosen as LAMMPS chooses them (ik
// differentiation):
//
//   g (α)       first as for Ewald (parameters.hpp), from the real-space error alone
//   mesh n_d    the least n ≥ L_d g + 1, with only the factors 2, 3 and 5, whose estimated k-space
//               error along d is within the accuracy (Deserno–Holm):
//                 e_d = q2 (h g)^P sqrt(g L √(2π) Σ_{m<P} a_{P,m} (h g)^{2m} / N) / L²,  h = L / n
//   then g      adjusted so that the real-space and k-space estimates are equal
//   errors      real: 2 q2 exp(−g² rc²) / sqrt(N rc V);  k-space: sqrt((e_x² + e_y² + e_z²)/3)
// where P is the interpolation order (2..7) and a_{P,m} Deserno and Holm's coefficients.
#pragma once

#include <array>
#include <cstddef>

namespace ewald {

struct PppmParameters {
  double g = 0;
  std::array<int, 3> mesh{};
  int order = 5;
  double error_real = 0, error_kspace = 0;  // estimated absolute RMS force errors
};

// `mesh` entries > 0 are taken as given instead of chosen.
PppmParameters choose_pppm(double accuracy_relative, double qqr2e, double sum_q2,
                           std::size_t natoms, double cutoff, const std::array<double, 3>& box,
                           int order, const std::array<int, 3>& mesh);

}  // namespace ewald
