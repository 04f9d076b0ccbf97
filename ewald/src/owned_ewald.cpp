#include "ewald/owned_ewald.hpp"

#include <algorithm>
#include <cmath>

#include "ewald/phase_tables.hpp"

namespace ewald {

using detail::Sums;

OwnedEwald::OwnedEwald(const std::vector<KGroup>& groups, double g, const Vec3& box, double qqr2e)
    : groups_(groups), g_(g), qqr2e_(qqr2e), box_(box) {
  vectors_ = k_vector_count(groups_);
  for (const KGroup& grp : groups_) {
    nmax_[0] = std::max(nmax_[0], int(grp.nx));
    nmax_[1] = std::max(nmax_[1], int(grp.ny));
    nmax_[2] = std::max(nmax_[2], int(grp.nz));
  }
}

void OwnedEwald::sum_factors(const Positions& x, const Charges& q, std::size_t first,
                             std::size_t last, std::span<double> factors) {
  tables_.build(x, first, last, box_, nmax_);
  const WorkRegion region(Kernel::factors, double(groups_.size()) * double(last - first));
  std::size_t v = 0;  // the groups' values follow one another, a pair per slot
  for (std::size_t k = 0; k < groups_.size(); ++k) {
    const KGroup& grp = groups_[k];
    const Sums total = detail::group_factors(tables_, q, std::size_t(grp.nx), std::size_t(grp.ny),
                                             std::size_t(grp.nz));
    for (int slot = 0; slot < 4; ++slot) {
      if (!grp.member(slot)) continue;
      factors[v++] = total.v[2 * slot];
      factors[v++] = total.v[2 * slot + 1];
    }
  }
}

Energy OwnedEwald::forces(const Charges& q, std::span<const double> factors, const Forces& f) {
  const double c_energy = qqr2e_ * 2 * M_PI / (box_[0] * box_[1] * box_[2]);
  Energy out;
  const WorkRegion region(Kernel::forces, double(groups_.size()) * double(tables_.n));
  std::size_t v = 0;
  for (std::size_t k = 0; k < groups_.size(); ++k) {
    const KGroup& grp = groups_[k];
    const Vec3 kv = grp.k(box_);
    const double k2 = grp.k2(box_);
    double coef_re[4] = {0, 0, 0, 0}, coef_im[4] = {0, 0, 0, 0};
    for (int slot = 0; slot < 4; ++slot) {
      if (!grp.member(slot)) continue;  // the values are the members', as k_vector_count counts
      const double w = grp.w;
      const double re = factors[v++], im = factors[v++];
      const double s2 = re * re + im * im;
      out.energy += c_energy * w * s2;
      out.virial += c_energy * w * s2 * (1 - k2 / (2 * g_ * g_));
      coef_re[slot] = 2 * c_energy * w * re;
      coef_im[slot] = 2 * c_energy * w * im;
    }
    detail::group_forces(tables_, q, std::size_t(grp.nx), std::size_t(grp.ny), std::size_t(grp.nz),
                         coef_re, coef_im, kv[0], kv[1], kv[2], f, tables_.first);
  }
  return out;
}

}  // namespace ewald
