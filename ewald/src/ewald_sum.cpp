#include "ewald/ewald_sum.hpp"

#include <cmath>

namespace ewald {

std::vector<KVector> k_vectors(const EwaldParameters& p, const Vec3& box) {
  std::vector<KVector> out;
  const double ux = 2 * M_PI / box[0], uy = 2 * M_PI / box[1], uz = 2 * M_PI / box[2];
  const double g2 = p.g * p.g;
  for (int nx = 0; nx <= p.kmax[0]; ++nx) {
    for (int ny = nx == 0 ? 0 : -p.kmax[1]; ny <= p.kmax[1]; ++ny) {
      for (int nz = (nx == 0 && ny == 0) ? 1 : -p.kmax[2]; nz <= p.kmax[2]; ++nz) {
        const double kx = ux * nx, ky = uy * ny, kz = uz * nz;
        const double k2 = kx * kx + ky * ky + kz * kz;
        if (k2 > p.k2max * (1 + 1e-12)) continue;
        out.push_back({kx, ky, kz, 2 * std::exp(-k2 / (4 * g2)) / k2});
      }
    }
  }
  return out;
}

Energy kspace(const Positions& x, const Charges& q, const std::vector<KVector>& ks, std::size_t k_begin,
              std::size_t k_end, double g, double volume, double qqr2e, const Forces& f) {
  using Host = Kokkos::DefaultHostExecutionSpace;
  const std::size_t n = x.extent(0);
  const double c = qqr2e * 2 * M_PI / volume;
  Energy out;
  for (std::size_t k = k_begin; k < k_end; ++k) {
    const KVector kv = ks[k];
    double re = 0, im = 0;
    Kokkos::parallel_reduce(
        "ewald::structure_factor", Kokkos::RangePolicy<Host>(0, n),
        KOKKOS_LAMBDA(std::size_t j, double& r, double& i) {
          const double phase = kv.kx * x(j, 0) + kv.ky * x(j, 1) + kv.kz * x(j, 2);
          r += q(j) * std::cos(phase);
          i += q(j) * std::sin(phase);
        },
        re, im);
    const double s2 = re * re + im * im;
    const double k2 = kv.kx * kv.kx + kv.ky * kv.ky + kv.kz * kv.kz;
    out.energy += c * kv.weight * s2;
    out.virial += c * kv.weight * s2 * (1 - k2 / (2 * g * g));
    // F_i = 2 C (2π/V) w q_i k (sin(k·r_i) Re S − cos(k·r_i) Im S), w counting ±k.
    const double fc = 2 * c * kv.weight;
    Kokkos::parallel_for(
        "ewald::kspace_forces", Kokkos::RangePolicy<Host>(0, n), KOKKOS_LAMBDA(std::size_t i) {
          const double phase = kv.kx * x(i, 0) + kv.ky * x(i, 1) + kv.kz * x(i, 2);
          const double a = fc * q(i) * (std::sin(phase) * re - std::cos(phase) * im);
          f(i, 0) += a * kv.kx;
          f(i, 1) += a * kv.ky;
          f(i, 2) += a * kv.kz;
        });
  }
  return out;
}

}  // namespace ewald
