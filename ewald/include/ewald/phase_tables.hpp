// exp(i k·r) of atoms, built from one-dimensional phase tables (ewald_sum.hpp says how): shared by
// the classic Ewald sum over every atom and the owner-computes sum over a member's own atoms.
#pragma once

#include <Kokkos_Core.hpp>

#include <cmath>
#include <cstddef>
#include <vector>

#include "ewald/coulomb.hpp"
#include "ewald/work_meter.hpp"

namespace ewald::detail {

using Host = Kokkos::DefaultHostExecutionSpace;
using Table = Kokkos::View<double**>;  // (n, atom)

// cos and sin of n·θ_i, θ_i = 2π x_i / L, for n = 0..nmax and atoms [first, last) of x (column
// i − first), by recursion. The tables are reallocated only when they are too small: a step
// reuses the last step's memory.
inline void phase_table(const Positions& x, std::size_t first, std::size_t last, std::size_t d,
                        double length, int nmax, Table& c, Table& s) {
  const std::size_t n = last - first, rows = std::size_t(nmax) + 1;
  if (c.extent(0) < rows || c.extent(1) < n) {
    c = Table(Kokkos::ViewAllocateWithoutInitializing("cos n theta"), rows, n);
    s = Table(Kokkos::ViewAllocateWithoutInitializing("sin n theta"), rows, n);
  }
  const double scale = 2 * M_PI / length;
  const Table cc = c, ss = s;
  Kokkos::parallel_for(
      "ewald::phase_table", Kokkos::RangePolicy<Host>(0, n), KOKKOS_LAMBDA(std::size_t i) {
        const double theta = scale * x(first + i, d), c1 = std::cos(theta), s1 = std::sin(theta);
        cc(0, i) = 1;
        ss(0, i) = 0;
        for (std::size_t m = 1; m < rows; ++m) {
          cc(m, i) = cc(m - 1, i) * c1 - ss(m - 1, i) * s1;
          ss(m, i) = ss(m - 1, i) * c1 + cc(m - 1, i) * s1;
        }
      });
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

namespace ewald::detail {

// Phase tables of atoms [first, first + n): column i is atom first + i.
struct PhaseTables {
  Table c[3], s[3];
  std::size_t first = 0, n = 0;
  std::vector<Sums> sums;  // per k-group, between classic Ewald's two passes: kept like the tables
  // Builds them for atoms [first, last) of x, up to nmax[d] along each axis.
  void build(const Positions& x, std::size_t from, std::size_t last, const Vec3& box,
             const int nmax[3]) {
    first = from;
    n = last - from;
    const WorkRegion region(Kernel::phase, double(n) * (nmax[0] + nmax[1] + nmax[2] + 3));
    for (std::size_t d = 0; d < 3; ++d) phase_table(x, from, last, d, box[d], nmax[d], c[d], s[d]);
  }
};

// Re S and Im S of the four slots of the group (mx, my, mz) over the tables' atoms.
inline Sums group_factors(const PhaseTables& t, const Charges& q, std::size_t mx, std::size_t my,
                          std::size_t mz) {
  const Table cx = t.c[0], sx = t.s[0], cy = t.c[1], sy = t.s[1], cz = t.c[2], sz = t.s[2];
  const std::size_t first = t.first;
  Sums total;
  Kokkos::parallel_reduce(
      "ewald::structure_factors", Kokkos::RangePolicy<Host>(0, t.n),
      KOKKOS_LAMBDA(std::size_t i, Sums & sum) {
        const Phases e =
            slot_phases(cx(mx, i), sx(mx, i), cy(my, i), sy(my, i), cz(mz, i), sz(mz, i));
        const double qi = q(first + i);
        for (int slot = 0; slot < 4; ++slot) {
          sum.v[2 * slot] += qi * e.re[slot];
          sum.v[2 * slot + 1] += qi * e.im[slot];
        }
      },
      Kokkos::Sum<Sums>(total));
  return total;
}

// Adds the group's forces on the tables' atoms into f: F_i = q_i k Σ_slots (sin·coef_re −
// cos·coef_im), coef = 2 C (2π/V) w S of each slot, k = (kx, ±ky, ±kz). Row f_first of f is
// atom 0 (f holds all atoms), or the tables' first atom (f holds just theirs).
inline void group_forces(const PhaseTables& t, const Charges& q, std::size_t mx, std::size_t my,
                         std::size_t mz, const double coef_re[4], const double coef_im[4],
                         double kx, double ky, double kz, const Forces& f,
                         std::size_t f_first = 0) {
  const Table cx = t.c[0], sx = t.s[0], cy = t.c[1], sy = t.s[1], cz = t.c[2], sz = t.s[2];
  const std::size_t first = t.first, row = t.first - f_first;
  const double re[4] = {coef_re[0], coef_re[1], coef_re[2], coef_re[3]};
  const double im[4] = {coef_im[0], coef_im[1], coef_im[2], coef_im[3]};
  Kokkos::parallel_for(
      "ewald::kspace_forces", Kokkos::RangePolicy<Host>(0, t.n), KOKKOS_LAMBDA(std::size_t i) {
        const Phases e =
            slot_phases(cx(mx, i), sx(mx, i), cy(my, i), sy(my, i), cz(mz, i), sz(mz, i));
        const double qi = q(first + i);
        double a[4];
        for (int slot = 0; slot < 4; ++slot)
          a[slot] = qi * (e.im[slot] * re[slot] - e.re[slot] * im[slot]);
        f(row + i, 0) += kx * (a[0] + a[1] + a[2] + a[3]);
        f(row + i, 1) += ky * (a[0] + a[1] - a[2] - a[3]);
        f(row + i, 2) += kz * (a[0] - a[1] + a[2] - a[3]);
      });
}
}  // namespace ewald::detail
