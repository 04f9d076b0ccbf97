#include "md/pair.hpp"

#include <cmath>
#include <vector>

#include "ewald/work_meter.hpp"

namespace md {

namespace {

constexpr int kIntervals = 2048;

// E and F/r of the real-space Coulomb term for C q_i q_j = 1.
KOKKOS_INLINE_FUNCTION void coulomb_terms(double r2, double g, double& e, double& fpair) {
  const double r = std::sqrt(r2);
  e = std::erfc(g * r) / r;
  fpair = (e + 2 * g / std::sqrt(M_PI) * std::exp(-g * g * r2)) / r2;
}

// E and F/r of a short-range term (offset included).
KOKKOS_INLINE_FUNCTION void short_terms(PairKind kind, const ShortRange& s, double r2, double& e,
                                        double& fpair) {
  const double r6inv = 1 / (r2 * r2 * r2);
  if (kind == PairKind::lj_cut_coul_long) {
    e = r6inv * (s.p[2] * r6inv - s.p[3]) - s.offset;
    fpair = r6inv * (s.p[0] * r6inv - s.p[1]) / r2;
  } else {
    const double r = std::sqrt(r2);
    const double repulsion = s.p[0] * std::exp((s.p[2] - r) / s.p[1]);
    e = repulsion - s.p[3] * r6inv + s.p[4] * r6inv / r2 - s.offset;
    fpair = (repulsion * r / s.p[1] - 6 * s.p[3] * r6inv + 8 * s.p[4] * r6inv / r2) / r2;
  }
}

// Cubic Hermite pieces of E and F/r over [s0 + k ds, s0 + (k + 1) ds], k < intervals, into out(k,
// 0..7).
template <class Terms, class Table>
void tabulate(Terms terms, double s0, double ds, int intervals, Table out) {
  auto slope_of_fpair = [&](double s) {
    const double h = 1e-5 * s;
    double e, up, down;
    terms(s + h, e, up);
    terms(s - h, e, down);
    return (up - down) / (2 * h);
  };
  for (int k = 0; k < intervals; ++k) {
    const double sa = s0 + k * ds, sb = sa + ds;
    double ea, fa, eb, fb;
    terms(sa, ea, fa);
    terms(sb, eb, fb);
    const double values[2][2] = {{ea, eb}, {fa, fb}};
    const double slopes[2][2] = {{-0.5 * fa * ds, -0.5 * fb * ds},
                                 {slope_of_fpair(sa) * ds, slope_of_fpair(sb) * ds}};
    for (int which = 0; which < 2; ++which) {
      const double v0 = values[which][0], v1 = values[which][1], d0 = slopes[which][0],
                   d1 = slopes[which][1];
      out(std::size_t(k), std::size_t(4 * which + 0)) = v0;
      out(std::size_t(k), std::size_t(4 * which + 1)) = d0;
      out(std::size_t(k), std::size_t(4 * which + 2)) = 3 * (v1 - v0) - 2 * d0 - d1;
      out(std::size_t(k), std::size_t(4 * which + 3)) = 2 * (v0 - v1) + d0 + d1;
    }
  }
}

// The LJ coefficients of (i, j): given, or mixed from (i, i) and (j, j).
PairCoeff lj_coefficients(const PairSettings& p, int i, int j, int width, double global_cut) {
  const auto at = [&](int a, int b) -> const PairCoeff& {
    return p.coeff[std::size_t(a) * std::size_t(width) + std::size_t(b)];
  };
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

}  // namespace

PairStyle::PairStyle(const System& s, double g)
    : kind_(s.pair.kind),
      cut_coul2_(s.pair.cutoff_coul * s.pair.cutoff_coul),
      g_(g),
      qqr2e_(s.units->qqr2e),
      max_cutoff_(s.pair.cutoff_coul),
      width_(s.ntypes + 1),
      table_("pair coefficients", std::size_t(s.ntypes + 1) * std::size_t(s.ntypes + 1)) {
  if (kind_ != PairKind::coul_long) {
    const PairSettings& p = s.pair;
    if (p.coeff.size() != table_.extent(0))
      throw DeckError(p.where + ": pair_style " + p.style + ": no pair_coeff given");
    for (int i = 1; i < width_; ++i) {
      for (int j = 1; j < width_; ++j) {
        const PairCoeff c = kind_ == PairKind::lj_cut_coul_long
                                ? lj_coefficients(p, i, j, width_, p.cutoff_short)
                                : p.coeff[std::size_t(i) * std::size_t(width_) + std::size_t(j)];
        if (!c.set) {
          throw DeckError(p.where + ": pair_style " + p.style + ": no coefficients for types " +
                          std::to_string(i) + " " + std::to_string(j) +
                          " (give them with pair_coeff)");
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
        } else {
          for (std::size_t k = 0; k < 5; ++k) sr.p[k] = c.values[k];
        }
        if (p.shift) {
          double e, fpair;
          short_terms(kind_, sr, sr.cut2, e, fpair);
          sr.offset = e;
        }
        table_(std::size_t(i) * std::size_t(width_) + std::size_t(j)) = sr;
      }
    }
  }
  build_tables();
}

void PairStyle::build_tables() {
  const double s_end = max_cutoff_ * max_cutoff_;
  s0_ = s_end / 16;  // r = rc / 4
  const double ds = (s_end - s0_) / kIntervals;
  inv_ds_ = 1 / ds;
  intervals_ = kIntervals;
  coulomb_table_ = Kokkos::View<double* [8]>("coulomb table", kIntervals);
  const double g = g_;
  tabulate([g](double s, double& e, double& f) { coulomb_terms(s, g, e, f); }, s0_, ds, kIntervals,
           coulomb_table_);
  // One table per unordered pair of types that has a short-range term: coefficients are
  // symmetric, and every simulated rank of a large SMPI job holds its own tables.
  short_ = Kokkos::View<ShortLookup*>("short-range lookup", table_.extent(0));
  const auto w = std::size_t(width_);
  std::vector<std::size_t> firsts;  // per table, its pair i·width + j, i <= j
  for (std::size_t i = 1; i < w; ++i) {
    for (std::size_t j = i; j < w; ++j) {
      if (table_(i * w + j).cut2 == 0) continue;
      short_(i * w + j) = short_(j * w + i) = ShortLookup{table_(i * w + j).cut2, firsts.size()};
      firsts.push_back(i * w + j);
    }
  }
  if (kind_ == PairKind::coul_long) return;
  short_table_ = Kokkos::View<double** [8]>("short-range tables", firsts.size(), kIntervals);
  for (std::size_t t = 0; t < firsts.size(); ++t) {
    const ShortRange sr = table_(firsts[t]);
    const PairKind kind = kind_;
    tabulate([&](double s, double& e, double& f) { short_terms(kind, sr, s, e, f); }, s0_, ds,
             kIntervals, Kokkos::subview(short_table_, t, Kokkos::ALL, Kokkos::ALL));
  }
}

PairEnergy PairStyle::compute(const Positions& x, const Charges& q, const Types& type,
                              const NeighborList& list, const Forces& f, bool rows_only) const {
  const auto offsets = list.offsets;
  const auto neighbors = list.neighbors;
  const auto table = table_;
  const auto lookups = short_;
  const auto coulomb = coulomb_table_;
  const auto shorts = short_table_;
  const std::size_t first = list.row_begin();
  const std::size_t f_first = rows_only ? first : 0;  // f's row 0: all atoms, or the list's rows
  const auto shifts = list.shifts;
  const double cut_coul2 = cut_coul2_, g = g_, qqr2e = qqr2e_;
  const double s0 = s0_, inv_ds = inv_ds_;
  const int last = intervals_ - 1;
  const int width = width_;
  const PairKind kind = kind_;
  const bool has_short = kind_ != PairKind::coul_long;
  double ecoul = 0, evdwl = 0, virial = 0;
  const ewald::WorkRegion region(ewald::Kernel::pair, double(neighbors.extent(0)));
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
        double e_coul = 0, e_short = 0, virial = 0;  // this row's sums, kept in registers
        for (std::size_t k = offsets(row); k < offsets(row + 1); ++k) {
          const int entry = neighbors(k);
          const auto j = static_cast<std::size_t>(entry / NeighborList::kImages);
          const auto image = static_cast<std::size_t>(entry % NeighborList::kImages);
          const double dx = xi - x(j, 0) - shifts(image, 0), dy = yi - x(j, 1) - shifts(image, 1),
                       dz = zi - x(j, 2) - shifts(image, 2);
          const double r2 = dx * dx + dy * dy + dz * dz;
          const std::size_t pair = ti + std::size_t(type(j));
          const ShortLookup lookup = has_short ? lookups(pair) : ShortLookup{};
          const bool in_coul = r2 < cut_coul2, in_short = r2 < lookup.cut2;
          if (!in_coul && !in_short) continue;
          double fpair = 0;
          if (r2 >= s0) {
            const double u = (r2 - s0) * inv_ds;
            const int cell = u < last ? static_cast<int>(u) : last;
            const double t = u - cell;
            const auto c = std::size_t(cell);
            if (in_coul) {
              const double qq = qi * q(j);
              e_coul += qq * (coulomb(c, 0) +
                              t * (coulomb(c, 1) + t * (coulomb(c, 2) + t * coulomb(c, 3))));
              fpair += qq * (coulomb(c, 4) +
                             t * (coulomb(c, 5) + t * (coulomb(c, 6) + t * coulomb(c, 7))));
            }
            if (in_short) {
              const std::size_t tb = lookup.table;
              e_short += shorts(tb, c, 0) +
                         t * (shorts(tb, c, 1) + t * (shorts(tb, c, 2) + t * shorts(tb, c, 3)));
              fpair += shorts(tb, c, 4) +
                       t * (shorts(tb, c, 5) + t * (shorts(tb, c, 6) + t * shorts(tb, c, 7)));
            }
          } else {
            double e, fp;
            if (in_coul) {
              const double qq = qi * q(j);
              coulomb_terms(r2, g, e, fp);
              e_coul += qq * e;
              fpair += qq * fp;
            }
            if (in_short) {
              short_terms(kind, table(pair), r2, e, fp);
              e_short += e;
              fpair += fp;
            }
          }
          fx += dx * fpair;
          fy += dy * fpair;
          fz += dz * fpair;
          if (!rows_only) {
            f(j, 0) -= dx * fpair;
            f(j, 1) -= dy * fpair;
            f(j, 2) -= dz * fpair;
          }
          virial += r2 * fpair;
        }
        f(i - f_first, 0) += fx;
        f(i - f_first, 1) += fy;
        f(i - f_first, 2) += fz;
        ec += e_coul;
        ev += e_short;
        w += virial;
      },
      ecoul, evdwl, virial);
  const double share = rows_only ? 0.5 : 1.0;
  return {share * ecoul, share * evdwl, share * virial};
}

}  // namespace md
