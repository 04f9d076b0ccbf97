#include "ewald/coulomb.hpp"

#include <cmath>

namespace ewald {

Energy real_space(const Positions& x, const Charges& q, const Vec3& box, double cutoff, double g,
                  double qqr2e, std::size_t i_begin, std::size_t i_end, const Forces& f) {
  const std::size_t n = x.extent(0);
  const double rc2 = cutoff * cutoff;
  const double two_g_over_sqrt_pi = 2 * g / std::sqrt(M_PI);
  const double lx = box[0], ly = box[1], lz = box[2];
  Energy out;
  double e = 0, w = 0;
  // Serial host space: the kernel adds to f(j) of any j, which a parallel space would have to
  // scatter-add (Kokkos::ScatterView); the replicated decomposition splits i across ranks.
  Kokkos::parallel_reduce(
      "ewald::real_space", Kokkos::RangePolicy<Kokkos::DefaultHostExecutionSpace>(i_begin, i_end),
      KOKKOS_LAMBDA(std::size_t i, double& e_sum, double& w_sum) {
        for (std::size_t j = i + 1; j < n; ++j) {
          double dx = x(i, 0) - x(j, 0), dy = x(i, 1) - x(j, 1), dz = x(i, 2) - x(j, 2);
          dx -= lx * std::nearbyint(dx / lx);
          dy -= ly * std::nearbyint(dy / ly);
          dz -= lz * std::nearbyint(dz / lz);
          const double r2 = dx * dx + dy * dy + dz * dz;
          if (r2 >= rc2) continue;
          const double r = std::sqrt(r2);
          const double qq = qqr2e * q(i) * q(j);
          const double erfc_term = std::erfc(g * r) / r;
          const double fpair = qq * (erfc_term + two_g_over_sqrt_pi * std::exp(-g * g * r2)) / r2;
          f(i, 0) += dx * fpair;
          f(i, 1) += dy * fpair;
          f(i, 2) += dz * fpair;
          f(j, 0) -= dx * fpair;
          f(j, 1) -= dy * fpair;
          f(j, 2) -= dz * fpair;
          e_sum += qq * erfc_term;
          w_sum += r2 * fpair;
        }
      },
      e, w);
  out.energy = e;
  out.virial = w;
  return out;
}

Energy self_and_background(double sum_q, double sum_q2, double volume, double g, double qqr2e) {
  const double self = -qqr2e * g / std::sqrt(M_PI) * sum_q2;
  const double background = -qqr2e * M_PI * sum_q * sum_q / (2 * volume * g * g);
  // At fixed g the background energy goes as 1/V: its pressure is E/V, a trace of 3E. The self
  // term depends on neither positions nor volume.
  return Energy{self + background, 3 * background};
}

}  // namespace ewald
