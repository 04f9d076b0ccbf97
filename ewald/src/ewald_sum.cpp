#include "ewald/ewald_sum.hpp"

#include <cmath>
#include <cstdlib>

namespace ewald::detail {

// Re S and Im S of a group's four slots, summed over atoms (a Kokkos reduction value).
struct Sums {
  double v[8];
  KOKKOS_INLINE_FUNCTION Sums() {
    for (double& x : v) x = 0;
  }
  KOKKOS_INLINE_FUNCTION Sums& operator+=(const Sums& o) {
    for (int k = 0; k < 8; ++k) v[k] += o.v[k];
    return *this;
  }
};

}  // namespace ewald::detail

template <>
struct Kokkos::reduction_identity<ewald::detail::Sums> {
  KOKKOS_FORCEINLINE_FUNCTION static ewald::detail::Sums sum() { return {}; }
};

namespace ewald {

using detail::Sums;

namespace {

using Host = Kokkos::DefaultHostExecutionSpace;
using Table = Kokkos::View<double**>;  // (n, atom)

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

// Whether (nx, ny, nz) is in the half space: nx > 0, or nx = 0 and ny > 0, or nx = ny = 0, nz > 0.
bool in_half_space(int nx, int ny, int nz) {
  return nx > 0 || (nx == 0 && (ny > 0 || (ny == 0 && nz > 0)));
}

// exp(i k·r) of the four slots from the phases along x, y, z: (x·y or x·ȳ) · (z or z̄).
struct Phases {
  double re[4], im[4];
};
KOKKOS_INLINE_FUNCTION Phases slot_phases(double xr, double xi, double yr, double yi, double zr,
                                          double zi) {
  const double pr = xr * yr - xi * yi, pi = xr * yi + xi * yr;  // x·y
  const double mr = xr * yr + xi * yi, mi = xi * yr - xr * yi;  // x·ȳ
  Phases e;
  e.re[0] = pr * zr - pi * zi, e.im[0] = pr * zi + pi * zr;  // + +
  e.re[1] = pr * zr + pi * zi, e.im[1] = pi * zr - pr * zi;  // + −
  e.re[2] = mr * zr - mi * zi, e.im[2] = mr * zi + mi * zr;  // − +
  e.re[3] = mr * zr + mi * zi, e.im[3] = mi * zr - mr * zi;  // − −
  return e;
}

}  // namespace

std::vector<KGroup> k_groups(const EwaldParameters& p, const Vec3& box) {
  std::vector<KGroup> out;
  const double ux = 2 * M_PI / box[0], uy = 2 * M_PI / box[1], uz = 2 * M_PI / box[2];
  for (int nx = 0; nx <= p.kmax[0]; ++nx) {
    for (int ny = 0; ny <= p.kmax[1]; ++ny) {
      for (int nz = 0; nz <= p.kmax[2]; ++nz) {
        KGroup grp{nx, ny, nz, ux * nx, uy * ny, uz * nz, 0, {0, 0, 0, 0}};
        grp.k2 = grp.kx * grp.kx + grp.ky * grp.ky + grp.kz * grp.kz;
        if (grp.k2 == 0 || grp.k2 > p.k2max * (1 + 1e-12)) continue;
        const double w = 2 * std::exp(-grp.k2 / (4 * p.g * p.g)) / grp.k2;
        bool any = false;
        for (int s = 0; s < 4; ++s) {
          const int sy = s & 2 ? -1 : 1, sz = s & 1 ? -1 : 1;
          // A slot counts once: not when a zero index makes it repeat an earlier slot.
          const bool repeat = (sy < 0 && ny == 0) || (sz < 0 && nz == 0);
          if (!repeat && in_half_space(nx, sy * ny, sz * nz)) {
            grp.weight[s] = w;
            any = true;
          }
        }
        if (any) out.push_back(grp);
      }
    }
  }
  return out;
}

std::size_t k_vector_count(const std::vector<KGroup>& groups) {
  std::size_t n = 0;
  for (const KGroup& g : groups) {
    for (double w : g.weight) n += w > 0;
  }
  return n;
}

Energy kspace(const Positions& x, const Charges& q, const std::vector<KGroup>& groups,
              std::size_t begin, std::size_t end, double g, const Vec3& box, double qqr2e,
              const Forces& f) {
  Energy out;
  if (begin >= end) return out;
  const std::size_t n = x.extent(0);
  int nmax[3] = {0, 0, 0};
  for (std::size_t k = begin; k < end; ++k) {
    nmax[0] = std::max(nmax[0], groups[k].nx);
    nmax[1] = std::max(nmax[1], groups[k].ny);
    nmax[2] = std::max(nmax[2], groups[k].nz);
  }
  Table c[3], s[3];
  for (std::size_t d = 0; d < 3; ++d) phase_table(x, d, box[d], nmax[d], c[d], s[d]);
  const Table cx = c[0], sx = s[0], cy = c[1], sy = s[1], cz = c[2], sz = s[2];
  const double c_energy = qqr2e * 2 * M_PI / (box[0] * box[1] * box[2]);
  for (std::size_t k = begin; k < end; ++k) {
    const KGroup grp = groups[k];
    const auto mx = std::size_t(grp.nx), my = std::size_t(grp.ny), mz = std::size_t(grp.nz);
    Sums total;
    Kokkos::parallel_reduce(
        "ewald::structure_factors", Kokkos::RangePolicy<Host>(0, n),
        KOKKOS_LAMBDA(std::size_t i, Sums & sum) {
          const Phases e =
              slot_phases(cx(mx, i), sx(mx, i), cy(my, i), sy(my, i), cz(mz, i), sz(mz, i));
          for (int slot = 0; slot < 4; ++slot) {
            sum.v[2 * slot] += q(i) * e.re[slot];
            sum.v[2 * slot + 1] += q(i) * e.im[slot];
          }
        },
        Kokkos::Sum<Sums>(total));
    // F_i = 2 C (2π/V) w q_i k (sin(k·r_i) Re S − cos(k·r_i) Im S), w counting ±k.
    double coef_re[4], coef_im[4];
    for (int slot = 0; slot < 4; ++slot) {
      const double re = total.v[2 * slot], im = total.v[2 * slot + 1], w = grp.weight[slot];
      const double s2 = re * re + im * im;
      out.energy += c_energy * w * s2;
      out.virial += c_energy * w * s2 * (1 - grp.k2 / (2 * g * g));
      coef_re[slot] = 2 * c_energy * w * re;
      coef_im[slot] = 2 * c_energy * w * im;
    }
    const double kx = grp.kx, ky = grp.ky, kz = grp.kz;
    Kokkos::parallel_for(
        "ewald::kspace_forces", Kokkos::RangePolicy<Host>(0, n), KOKKOS_LAMBDA(std::size_t i) {
          const Phases e =
              slot_phases(cx(mx, i), sx(mx, i), cy(my, i), sy(my, i), cz(mz, i), sz(mz, i));
          double a[4];
          for (int slot = 0; slot < 4; ++slot)
            a[slot] = q(i) * (e.im[slot] * coef_re[slot] - e.re[slot] * coef_im[slot]);
          f(i, 0) += kx * (a[0] + a[1] + a[2] + a[3]);
          f(i, 1) += ky * (a[0] + a[1] - a[2] - a[3]);
          f(i, 2) += kz * (a[0] - a[1] + a[2] - a[3]);
        });
  }
  return out;
}

}  // namespace ewald
