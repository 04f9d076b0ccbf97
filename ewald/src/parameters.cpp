#include "ewald/parameters.hpp"

#include <cmath>

namespace ewald {

namespace {

// Kolafa–Perram estimate of the RMS k-space force error along one dimension of length L with
// vectors up to n.
double kspace_rms(int n, double L, std::size_t natoms, double q2, double g) {
  if (natoms == 0) return 0;
  return 2 * q2 * g / L * std::sqrt(1 / (M_PI * n * static_cast<double>(natoms))) *
         std::exp(-M_PI * M_PI * n * n / (g * g * L * L));
}

}  // namespace

double initial_g(double a, double q2, double natoms, double cutoff, double volume) {
  const double arg = q2 > 0 ? a * std::sqrt(natoms * cutoff * volume) / (2 * q2) : 1.0;
  return arg >= 1 ? (1.35 - 0.15 * std::log(a)) / cutoff : std::sqrt(-std::log(arg)) / cutoff;
}

double real_space_error(double g, double q2, double natoms, double cutoff, double volume) {
  return natoms > 0
             ? 2 * q2 * std::exp(-g * g * cutoff * cutoff) / std::sqrt(natoms * cutoff * volume)
             : 0;
}

EwaldParameters choose_ewald(double accuracy_relative, double qqr2e, double sum_q2,
                             std::size_t natoms, double cutoff, const std::array<double, 3>& box) {
  EwaldParameters p;
  const double a = accuracy_relative * qqr2e;  // two unit charges 1 Å apart
  const double q2 = sum_q2 * qqr2e;
  const double n = static_cast<double>(natoms);
  const double volume = box[0] * box[1] * box[2];
  p.g = initial_g(a, q2, n, cutoff, volume);
  double sum_sq = 0;
  for (std::size_t d = 0; d < 3; ++d) {
    int k = 1;
    while (kspace_rms(k, box[d], natoms, q2, p.g) > a && k < 10000) ++k;
    p.kmax[d] = k;
    const double e = kspace_rms(k, box[d], natoms, q2, p.g);
    sum_sq += e * e;
    p.k2max = std::max(p.k2max, std::pow(2 * M_PI * k / box[d], 2));
  }
  p.error_kspace = std::sqrt(sum_sq / 3);
  p.error_real = real_space_error(p.g, q2, n, cutoff, volume);
  return p;
}

}  // namespace ewald
