#include "ccl/grids/qcdoc_plan.hpp"

#include <algorithm>

namespace ccl::grids {

int QcdocPlan::distance(int d, int delta) const {
  const int t = torus_.dim(d);
  const int m = ((delta % t) + t) % t;
  return std::min(m, t - m);
}

bool QcdocPlan::antipodal(int d, int delta) const {
  const int t = torus_.dim(d);
  return t % 2 == 0 && ((delta % t) + t) % t == t / 2;
}

QcdocPlan::QcdocPlan(const Cartesian& torus) : torus_(torus) {
  const int k = torus_.ndims();
  int active = 0;
  for (int d = 0; d < k; ++d) {
    if (torus_.dim(d) > 1) {
      ++active;
      group_steps_ = std::max(group_steps_, torus_.dim(d) / 2);
    }
  }
  links_ = 2 * active;
  arrivals_.assign(static_cast<std::size_t>(active * group_steps_), {});
  blocks_.assign(arrivals_.size(), 0);
  // Every origin other than the receiver itself, by its displacement; the receiver is taken as
  // the origin of coordinates, so the displacement of origin o is −coords(o), read the short way.
  for (int o = 1; o < torus_.size(); ++o) {
    std::vector<int> displacement = torus_.coords(o);
    for (int d = 0; d < k; ++d) {
      int& x = displacement[static_cast<std::size_t>(d)];
      x = -x;
      const int t = torus_.dim(d);
      x = ((x % t) + t) % t;
      if (x > t / 2) x -= t;  // (−t/2, t/2]: antipodal ones read as +t/2
    }
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
    for (int d = 0; d < k; ++d) {
      const int x = displacement[static_cast<std::size_t>(d)];
      if (x == 0 || distance(d, x) != smallest) continue;
      if (antipodal(d, x)) {
        through.push_back(Link{d, +1});
        through.push_back(Link{d, -1});
      } else {
        through.push_back(Link{d, x > 0 ? +1 : -1});
      }
    }
    int ties = 0;
    for (int d = 0; d < k; ++d) {
      const int x = displacement[static_cast<std::size_t>(d)];
      if (x != 0 && distance(d, x) == smallest) ++ties;
    }
    const auto den = static_cast<std::uint32_t>(2 * ties);
    std::uint32_t first = 0;
    for (const Link& l : through) {
      const std::uint32_t units = antipodal(l.dim, displacement[static_cast<std::size_t>(l.dim)]) ? 1 : 2;
      arrivals_[step].push_back(Piece{displacement, l, first, units, den});
      first += units;
    }
    ++blocks_[step];
  }
}

}  // namespace ccl::grids
