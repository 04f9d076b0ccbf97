// Ewald parameters from a requested relative accuracy, with the Kolafa–Perram error estimates
// (as LAMMPS chooses them, so that the same deck gives the same α and k-space):
//
//   absolute accuracy  a = accuracy · C        (C: the force between two unit charges 1 Å apart)
//   g (α)   = sqrt(−ln(a √(N rc V) / (2 q2))) / rc,   or (1.35 − 0.15 ln a) / rc when that log
//             argument is ≥ 1;  q2 = C Σ q_i²
//   kmax_d  = the least n with  2 q2 g / L_d · sqrt(1 / (π n N)) · exp(−π² n² / (g² L_d²)) ≤ a
//   |k|²max = max_d (2π kmax_d / L_d)²
//   errors  real: 2 q2 exp(−g² rc²) / sqrt(N rc V);  k-space: the rms of the three above
#pragma once

#include <array>
#include <cstddef>

namespace ewald {

struct EwaldParameters {
  double g = 0;
  std::array<int, 3> kmax{};
  double k2max = 0;
  double error_real = 0, error_kspace = 0;  // estimated absolute RMS force errors
};

// g from the accuracy alone (the first line above); a = accuracy · C, q2 = C Σ q_i².
double initial_g(double a, double q2, double natoms, double cutoff, double volume);
// The Kolafa–Perram real-space RMS force error at g.
double real_space_error(double g, double q2, double natoms, double cutoff, double volume);

EwaldParameters choose_ewald(double accuracy_relative, double qqr2e, double sum_q2,
                             std::size_t natoms, double cutoff, const std::array<double, 3>& box);

}  // namespace ewald
