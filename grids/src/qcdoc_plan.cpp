#include "ccl/grids/qcdoc_plan.hpp"

#include <algorithm>

namespace ccl::grids {

QcdocPlan::QcdocPlan(const Cartesian& torus) : TorusPlan(torus) {
  const int k = torus_.ndims();
  for (int d = 0; d < k; ++d) {
    if (torus_.dim(d) > 1) group_steps_ = std::max(group_steps_, torus_.dim(d) / 2);
  }
  arrivals_.assign(static_cast<std::size_t>(links_ / 2 * group_steps_), {});
  blocks_.assign(arrivals_.size(), 0);
  const std::vector<std::vector<int>> all = displacements();
  for (std::size_t o = 1; o <= all.size(); ++o) {
    const std::vector<int>& displacement = all[o - 1];
    int nonzero = 0, smallest = 0;
    for (int d = 0; d < k; ++d) {
      const int a = distance(d, displacement[static_cast<std::size_t>(d)]);
      if (a == 0) continue;
      ++nonzero;
      smallest = smallest == 0 ? a : std::min(smallest, a);
    }
    const std::size_t step = static_cast<std::size_t>((nonzero - 1) * group_steps_ + smallest - 1);
    // Shares: each dimension tied for the smallest distance gets 2 units of 2·ties, split in
    // halves between both directions when antipodal.
    std::vector<Link> through;
    int ties = 0;
    for (int d = 0; d < k; ++d) {
      const int x = displacement[static_cast<std::size_t>(d)];
      if (x == 0 || distance(d, x) != smallest) continue;
      ++ties;
      if (antipodal(d, x)) {
        through.push_back(Link{d, +1});
        through.push_back(Link{d, -1});
      } else {
        through.push_back(Link{d, x > 0 ? +1 : -1});
      }
    }
    const auto den = static_cast<std::uint32_t>(2 * ties);
    std::uint32_t first = 0;
    for (const Link& l : through) {
      const std::uint32_t units =
          antipodal(l.dim, displacement[static_cast<std::size_t>(l.dim)]) ? 1 : 2;
      arrivals_[step].push_back(Piece{static_cast<std::uint32_t>(o), l, first, units, den});
      first += units;
    }
    ++blocks_[step];
  }
}

}  // namespace ccl::grids
