#include "ewald/ewald_sum.hpp"

#include <cmath>
#include <cstdlib>

namespace ewald {

namespace {

using Host = Kokkos::DefaultHostExecutionSpace;
using Table = Kokkos::View<double**>;  // (n, atom)
using Array = Kokkos::View<double*>;

// cos and sin of n·θ_i, θ_i = 2π x_i / L, for n = 0..nmax, by recursion.
void phase_table(const Positions& x, std::size_t d, double length, int nmax, Table& c, Table& s) {
  const std::size_t n = x.extent(0);
  c = Table(Kokkos::ViewAllocateWithoutInitializing("cos n theta"), std::size_t(nmax) + 1, n);
  s = Table(Kokkos::ViewAllocateWithoutInitializing("sin n theta"), std::size_t(nmax) + 1, n);
  const double scale = 2 * M_PI / length;
  const Table cc = c, ss = s;
  Kokkos::parallel_for(
      "ewald::phase_table", Kokkos::RangePolicy<Host>(0, n), KOKKOS_LAMBDA(std::size_t i) {
        const double theta = scale * x(i, d), c1 = std::cos(theta), s1 = std::sin(theta);
        cc(0, i) = 1;
        ss(0, i) = 0;
        for (std::size_t m = 1; m <= std::size_t(nmax); ++m) {
          cc(m, i) = cc(m - 1, i) * c1 - ss(m - 1, i) * s1;
          ss(m, i) = ss(m - 1, i) * c1 + cc(m - 1, i) * s1;
        }
      });
}

}  // namespace

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
        out.push_back({nx, ny, nz, kx, ky, kz, 2 * std::exp(-k2 / (4 * g2)) / k2});
      }
    }
  }
  return out;
}

Energy kspace(const Positions& x, const Charges& q, const std::vector<KVector>& ks, std::size_t k_begin,
              std::size_t k_end, double g, const Vec3& box, double qqr2e, const Forces& f) {
  Energy out;
  if (k_begin >= k_end) return out;
  const std::size_t n = x.extent(0);
  int nmax[3] = {0, 0, 0};
  for (std::size_t k = k_begin; k < k_end; ++k) {
    nmax[0] = std::max(nmax[0], ks[k].nx);
    nmax[1] = std::max(nmax[1], std::abs(ks[k].ny));
    nmax[2] = std::max(nmax[2], std::abs(ks[k].nz));
  }
  Table c[3], s[3];
  for (std::size_t d = 0; d < 3; ++d) phase_table(x, d, box[d], nmax[d], c[d], s[d]);
  const Table cx = c[0], sx = s[0], cy = c[1], sy = s[1], cz = c[2], sz = s[2];
  const Array xy_re(Kokkos::ViewAllocateWithoutInitializing("exp(i(kx x + ky y))"), n);
  const Array xy_im(Kokkos::ViewAllocateWithoutInitializing("exp(i(kx x + ky y)) im"), n);
  const Array e_re(Kokkos::ViewAllocateWithoutInitializing("exp(i k r)"), n);
  const Array e_im(Kokkos::ViewAllocateWithoutInitializing("exp(i k r) im"), n);
  const double c_energy = qqr2e * 2 * M_PI / (box[0] * box[1] * box[2]);
  int column_x = -1, column_y = 0;
  for (std::size_t k = k_begin; k < k_end; ++k) {
    const KVector kv = ks[k];
    if (kv.nx != column_x || kv.ny != column_y) {
      column_x = kv.nx;
      column_y = kv.ny;
      const std::size_t mx = std::size_t(kv.nx), my = std::size_t(std::abs(kv.ny));
      const double sign_y = kv.ny < 0 ? -1 : 1;
      Kokkos::parallel_for(
          "ewald::column_phase", Kokkos::RangePolicy<Host>(0, n), KOKKOS_LAMBDA(std::size_t i) {
            const double yr = cy(my, i), yi = sign_y * sy(my, i);
            xy_re(i) = cx(mx, i) * yr - sx(mx, i) * yi;
            xy_im(i) = cx(mx, i) * yi + sx(mx, i) * yr;
          });
    }
    const std::size_t mz = std::size_t(std::abs(kv.nz));
    const double sign_z = kv.nz < 0 ? -1 : 1;
    double re = 0, im = 0;
    Kokkos::parallel_reduce(
        "ewald::structure_factor", Kokkos::RangePolicy<Host>(0, n),
        KOKKOS_LAMBDA(std::size_t i, double& r, double& m) {
          const double zr = cz(mz, i), zi = sign_z * sz(mz, i);
          const double er = xy_re(i) * zr - xy_im(i) * zi, ei = xy_re(i) * zi + xy_im(i) * zr;
          e_re(i) = er;
          e_im(i) = ei;
          r += q(i) * er;
          m += q(i) * ei;
        },
        re, im);
    const double s2 = re * re + im * im;
    const double k2 = kv.kx * kv.kx + kv.ky * kv.ky + kv.kz * kv.kz;
    out.energy += c_energy * kv.weight * s2;
    out.virial += c_energy * kv.weight * s2 * (1 - k2 / (2 * g * g));
    // F_i = 2 C (2π/V) w q_i k (sin(k·r_i) Re S − cos(k·r_i) Im S), w counting ±k.
    const double fc = 2 * c_energy * kv.weight;
    Kokkos::parallel_for(
        "ewald::kspace_forces", Kokkos::RangePolicy<Host>(0, n), KOKKOS_LAMBDA(std::size_t i) {
          const double a = fc * q(i) * (e_im(i) * re - e_re(i) * im);
          f(i, 0) += a * kv.kx;
          f(i, 1) += a * kv.ky;
          f(i, 2) += a * kv.kz;
        });
  }
  return out;
}

}  // namespace ewald
