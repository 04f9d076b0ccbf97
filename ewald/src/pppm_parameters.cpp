#include "ewald/pppm_parameters.hpp"

#include "ewald/parameters.hpp"

#include <cmath>

namespace ewald {

namespace {

// Deserno and Holm's coefficients of the ik-differentiated PPPM error, a[P][m], P = 1..7.
constexpr double kA[8][7] = {
    {},
    {2.0 / 3.0},
    {1.0 / 50.0, 5.0 / 294.0},
    {1.0 / 588.0, 7.0 / 1440.0, 21.0 / 3872.0},
    {1.0 / 4320.0, 3.0 / 1936.0, 7601.0 / 2271360.0, 143.0 / 28800.0},
    {1.0 / 23232.0, 7601.0 / 13628160.0, 143.0 / 69120.0, 517231.0 / 106536960.0,
     106640677.0 / 11737571328.0},
    {691.0 / 68140800.0, 13.0 / 57600.0, 47021.0 / 35512320.0, 9694607.0 / 2095994880.0,
     733191589.0 / 59609088000.0, 326190917.0 / 11700633600.0},
    {1.0 / 345600.0, 3617.0 / 35512320.0, 745739.0 / 838397952.0, 56399353.0 / 12773376000.0,
     25091609.0 / 1560084480.0, 1755948832039.0 / 36229939200000.0, 4887769399.0 / 37838389248.0},
};

double kspace_error_1d(double h, double length, double g, int order, double q2, double natoms) {
  double sum = 0;
  for (int m = 0; m < order; ++m) sum += kA[order][m] * std::pow(h * g, 2.0 * m);
  return q2 * std::pow(h * g, order) * std::sqrt(g * length * std::sqrt(2 * M_PI) * sum / natoms) /
         (length * length);
}

double kspace_error(const std::array<int, 3>& mesh, const std::array<double, 3>& box, double g,
                    int order, double q2, double natoms) {
  double sum = 0;
  for (std::size_t d = 0; d < 3; ++d) {
    const double e = kspace_error_1d(box[d] / mesh[d], box[d], g, order, q2, natoms);
    sum += e * e;
  }
  return std::sqrt(sum / 3);
}

bool only_2_3_5(int n) {
  for (int p : {2, 3, 5}) {
    while (n % p == 0) n /= p;
  }
  return n == 1;
}

}  // namespace

PppmParameters choose_pppm(double accuracy_relative, double qqr2e, double sum_q2,
                           std::size_t natoms, double cutoff, const std::array<double, 3>& box,
                           int order, const std::array<int, 3>& mesh) {
  PppmParameters p;
  p.order = order;
  const double a = accuracy_relative * qqr2e;
  const double q2 = sum_q2 * qqr2e;
  const double n = std::max<double>(1, static_cast<double>(natoms));
  const double volume = box[0] * box[1] * box[2];
  p.g = initial_g(a, q2, n, cutoff, volume);
  for (std::size_t d = 0; d < 3; ++d) {
    if (mesh[d] > 0) {
      p.mesh[d] = mesh[d];
      continue;
    }
    int m = std::max(2, static_cast<int>(box[d] * p.g) + 1);
    while (q2 > 0 && kspace_error_1d(box[d] / m, box[d], p.g, order, q2, n) > a && m < 4096) ++m;
    while (!only_2_3_5(m)) ++m;
    p.mesh[d] = m;
  }
  if (q2 > 0) {
    // The real-space error falls with g and the k-space error rises: bisect (in log g) for equal.
    double lo = p.g / 10, hi = p.g * 10;
    for (int it = 0; it < 200; ++it) {
      const double mid = std::sqrt(lo * hi);
      const double f = real_space_error(mid, q2, n, cutoff, volume) -
                       kspace_error(p.mesh, box, mid, order, q2, n);
      (f > 0 ? lo : hi) = mid;
    }
    p.g = std::sqrt(lo * hi);
  }
  p.error_real = real_space_error(p.g, q2, n, cutoff, volume);
  p.error_kspace = kspace_error(p.mesh, box, p.g, order, q2, n);
  return p;
}

}  // namespace ewald
