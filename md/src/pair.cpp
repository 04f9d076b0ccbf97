#include "md/pair.hpp"

#include <cmath>

namespace md {

namespace {

// The LJ coefficients of (i, j): given, or mixed from (i, i) and (j, j).
PairCoeff lj_coefficients(const PairSettings& p, int i, int j, int width, double global_cut) {
  const auto at = [&](int a, int b) -> const PairCoeff& { return p.coeff[std::size_t(a) * std::size_t(width) + std::size_t(b)]; };
  if (at(i, j).set) return at(i, j);
  const PairCoeff &a = at(i, i), &b = at(j, j);
  if (!a.set || !b.set) return {};
  PairCoeff out;
  out.set = true;
  const double ca = a.cutoff > 0 ? a.cutoff : global_cut, cb = b.cutoff > 0 ? b.cutoff : global_cut;
  if (p.mix == "geometric") {
    out.values = {std::sqrt(a.values[0] * b.values[0]), std::sqrt(a.values[1] * b.values[1])};
    out.cutoff = std::sqrt(ca * cb);
  } else {
    out.values = {std::sqrt(a.values[0] * b.values[0]), 0.5 * (a.values[1] + b.values[1])};
    out.cutoff = 0.5 * (ca + cb);
  }
  return out;
}

double lj_energy(const ShortRange& s, double r2) {
  const double r6inv = 1 / (r2 * r2 * r2);
  return r6inv * (s.p[2] * r6inv - s.p[3]);
}

double born_energy(const ShortRange& s, double r2) {
  const double r = std::sqrt(r2), r6inv = 1 / (r2 * r2 * r2);
  return s.p[0] * std::exp((s.p[2] - r) / s.p[1]) - s.p[3] * r6inv + s.p[4] * r6inv / r2;
}

}  // namespace

PairStyle::PairStyle(const System& s, double g)
    : kind_(s.pair.kind),
      cut_coul2_(s.pair.cutoff_coul * s.pair.cutoff_coul),
      g_(g),
      qqr2e_(s.units->qqr2e),
      max_cutoff_(s.pair.cutoff_coul),
      width_(s.ntypes + 1),
      table_("pair coefficients", std::size_t(s.ntypes + 1) * std::size_t(s.ntypes + 1)) {
  if (kind_ == PairKind::coul_long) return;
  const PairSettings& p = s.pair;
  if (p.coeff.size() != table_.extent(0)) throw DeckError(p.where + ": pair_style " + p.style + ": no pair_coeff given");
  for (int i = 1; i < width_; ++i) {
    for (int j = 1; j < width_; ++j) {
      const PairCoeff c = kind_ == PairKind::lj_cut_coul_long
                              ? lj_coefficients(p, i, j, width_, p.cutoff_short)
                              : p.coeff[std::size_t(i) * std::size_t(width_) + std::size_t(j)];
      if (!c.set) {
        throw DeckError(p.where + ": pair_style " + p.style + ": no coefficients for types " + std::to_string(i) +
                        " " + std::to_string(j) + " (give them with pair_coeff)");
      }
      ShortRange sr;
      const double cut = c.cutoff > 0 ? c.cutoff : p.cutoff_short;
      sr.cut2 = cut * cut;
      max_cutoff_ = std::max(max_cutoff_, cut);
      if (kind_ == PairKind::lj_cut_coul_long) {
        const double eps = c.values[0], s6 = std::pow(c.values[1], 6);
        sr.p[0] = 48 * eps * s6 * s6;
        sr.p[1] = 24 * eps * s6;
        sr.p[2] = 4 * eps * s6 * s6;
        sr.p[3] = 4 * eps * s6;
        if (p.shift) sr.offset = lj_energy(sr, sr.cut2);
      } else {
        for (std::size_t k = 0; k < 5; ++k) sr.p[k] = c.values[k];
        if (p.shift) sr.offset = born_energy(sr, sr.cut2);
      }
      table_(std::size_t(i) * std::size_t(width_) + std::size_t(j)) = sr;
    }
  }
}

PairEnergy PairStyle::compute(const Positions& x, const Charges& q, const Types& type, const Vec3& len,
                              const NeighborList& list, const Forces& f) const {
  const auto offsets = list.offsets;
  const auto neighbors = list.neighbors;
  const auto table = table_;
  const std::size_t first = list.row_begin();
  const double lx = len[0], ly = len[1], lz = len[2];
  const double cut_coul2 = cut_coul2_, g = g_, qqr2e = qqr2e_;
  const double two_g_over_sqrt_pi = 2 * g / std::sqrt(M_PI);
  const int width = width_;
  const PairKind kind = kind_;
  double ecoul = 0, evdwl = 0, virial = 0;
  // Serial host space: a pair adds to the forces of both atoms, which a threaded space would do
  // with a scatter view.
  Kokkos::parallel_reduce(
      "md::pair", Kokkos::RangePolicy<Kokkos::DefaultHostExecutionSpace>(0, list.rows()),
      KOKKOS_LAMBDA(std::size_t row, double& ec, double& ev, double& w) {
        const std::size_t i = first + row;
        const double xi = x(i, 0), yi = x(i, 1), zi = x(i, 2);
        const double qi = qqr2e * q(i);
        const std::size_t ti = std::size_t(type(i)) * std::size_t(width);
        double fx = 0, fy = 0, fz = 0;
        for (std::size_t k = offsets(row); k < offsets(row + 1); ++k) {
          const auto j = static_cast<std::size_t>(neighbors(k));
          double dx = xi - x(j, 0), dy = yi - x(j, 1), dz = zi - x(j, 2);
          dx -= lx * std::nearbyint(dx / lx);
          dy -= ly * std::nearbyint(dy / ly);
          dz -= lz * std::nearbyint(dz / lz);
          const double r2 = dx * dx + dy * dy + dz * dz;
          double rf = 0;  // r·F of the pair
          if (r2 < cut_coul2) {
            const double r = std::sqrt(r2);
            const double qq = qi * q(j);
            const double screened = qq * std::erfc(g * r) / r;
            rf += screened + qq * two_g_over_sqrt_pi * std::exp(-g * g * r2);
            ec += screened;
          }
          const ShortRange& s = table(ti + std::size_t(type(j)));
          if (r2 < s.cut2) {
            const double r6inv = 1 / (r2 * r2 * r2);
            if (kind == PairKind::lj_cut_coul_long) {
              rf += r6inv * (s.p[0] * r6inv - s.p[1]);
              ev += r6inv * (s.p[2] * r6inv - s.p[3]) - s.offset;
            } else {
              const double r = std::sqrt(r2);
              const double repulsion = s.p[0] * std::exp((s.p[2] - r) / s.p[1]);
              rf += repulsion * r / s.p[1] - 6 * s.p[3] * r6inv + 8 * s.p[4] * r6inv / r2;
              ev += repulsion - s.p[3] * r6inv + s.p[4] * r6inv / r2 - s.offset;
            }
          }
          if (rf == 0) continue;
          const double fpair = rf / r2;
          fx += dx * fpair;
          fy += dy * fpair;
          fz += dz * fpair;
          f(j, 0) -= dx * fpair;
          f(j, 1) -= dy * fpair;
          f(j, 2) -= dz * fpair;
          w += rf;
        }
        f(i, 0) += fx;
        f(i, 1) += fy;
        f(i, 2) += fz;
      },
      ecoul, evdwl, virial);
  return {ecoul, evdwl, virial};
}

}  // namespace md
