#include "ewald/ewald_sum.hpp"

#include <cmath>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

#include "ewald/phase_tables.hpp"

namespace ewald {

using detail::Sums;

namespace {

// Whether (nx, ny, nz) is in the half space: nx > 0, or nx = 0 and ny > 0, or nx = ny = 0, nz > 0.
bool in_half_space(int nx, int ny, int nz) {
  return nx > 0 || (nx == 0 && (ny > 0 || (ny == 0 && nz > 0)));
}

}  // namespace

std::vector<KGroup> k_groups(const EwaldParameters& p, const Vec3& box) {
  for (int d = 0; d < 3; ++d) {
    if (p.kmax[d] > INT16_MAX) {
      throw std::runtime_error("ewald: " + std::to_string(p.kmax[d]) +
                               " k-vectors along an axis; at most 32767 are supported");
    }
  }
  std::vector<KGroup> out;
  for (int nx = 0; nx <= p.kmax[0]; ++nx) {
    for (int ny = 0; ny <= p.kmax[1]; ++ny) {
      for (int nz = 0; nz <= p.kmax[2]; ++nz) {
        KGroup grp{std::int16_t(nx), std::int16_t(ny), std::int16_t(nz), 0, 0};
        const double k2 = grp.k2(box);
        if (k2 == 0 || k2 > p.k2max * (1 + 1e-12)) continue;
        grp.w = 2 * std::exp(-k2 / (4 * p.g * p.g)) / k2;
        for (int s = 0; s < 4; ++s) {
          const int sy = s & 2 ? -1 : 1, sz = s & 1 ? -1 : 1;
          // A slot counts once: not when a zero index makes it repeat an earlier slot.
          const bool repeat = (sy < 0 && ny == 0) || (sz < 0 && nz == 0);
          if (!repeat && in_half_space(nx, sy * ny, sz * nz)) grp.slots |= std::uint8_t(1u << s);
        }
        if (grp.slots != 0) out.push_back(grp);
      }
    }
  }
  return out;
}

std::size_t k_vector_count(const std::vector<KGroup>& groups) {
  std::size_t n = 0;
  for (const KGroup& g : groups) n += std::size_t(__builtin_popcount(g.slots));
  return n;
}

Energy kspace(const Positions& x, const Charges& q, const std::vector<KGroup>& groups,
              std::size_t begin, std::size_t end, double g, const Vec3& box, double qqr2e,
              const Forces& f, detail::PhaseTables& tables) {
  Energy out;
  if (begin >= end) return out;
  const std::size_t n = x.extent(0);
  int nmax[3] = {0, 0, 0};
  for (std::size_t k = begin; k < end; ++k) {
    nmax[0] = std::max(nmax[0], int(groups[k].nx));
    nmax[1] = std::max(nmax[1], int(groups[k].ny));
    nmax[2] = std::max(nmax[2], int(groups[k].nz));
  }
  tables.build(x, 0, n, box, nmax);
  const double c_energy = qqr2e * 2 * M_PI / (box[0] * box[1] * box[2]);
  // Two passes, as the owner-computes sum makes them: every group's structure factors, then the
  // forces; the work meter charges each pass at its own rate.
  std::vector<Sums>& totals = tables.sums;
  totals.resize(end - begin);
  {
    const WorkRegion region(Kernel::factors, double(end - begin) * double(n));
    for (std::size_t k = begin; k < end; ++k) {
      totals[k - begin] =
          detail::group_factors(tables, q, std::size_t(groups[k].nx), std::size_t(groups[k].ny),
                                std::size_t(groups[k].nz));
    }
  }
  const WorkRegion region(Kernel::forces, double(end - begin) * double(n));
  for (std::size_t k = begin; k < end; ++k) {
    const KGroup grp = groups[k];
    const auto mx = std::size_t(grp.nx), my = std::size_t(grp.ny), mz = std::size_t(grp.nz);
    const Sums& total = totals[k - begin];
    const Vec3 kv = grp.k(box);
    const double k2 = grp.k2(box);
    // F_i = 2 C (2π/V) w q_i k (sin(k·r_i) Re S − cos(k·r_i) Im S), w counting ±k.
    double coef_re[4], coef_im[4];
    for (int slot = 0; slot < 4; ++slot) {
      const double re = total.v[2 * slot], im = total.v[2 * slot + 1], w = grp.weight(slot);
      const double s2 = re * re + im * im;
      out.energy += c_energy * w * s2;
      out.virial += c_energy * w * s2 * (1 - k2 / (2 * g * g));
      coef_re[slot] = 2 * c_energy * w * re;
      coef_im[slot] = 2 * c_energy * w * im;
    }
    detail::group_forces(tables, q, mx, my, mz, coef_re, coef_im, kv[0], kv[1], kv[2], f);
  }
  return out;
}

}  // namespace ewald
