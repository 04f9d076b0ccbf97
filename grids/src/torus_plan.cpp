#include "ccl/grids/torus_plan.hpp"

#include <algorithm>

namespace ccl::grids {

TorusPlan::TorusPlan(const Cartesian& torus) : torus_(torus), links_(torus.torus_links()) {}

int TorusPlan::distance(int d, int delta) const {
  const int t = torus_.dim(d);
  const int m = ((delta % t) + t) % t;
  return std::min(m, t - m);
}

bool TorusPlan::antipodal(int d, int delta) const {
  const int t = torus_.dim(d);
  return t % 2 == 0 && ((delta % t) + t) % t == t / 2;
}

std::vector<std::vector<int>> TorusPlan::displacements() const {
  // The receiver is taken as the origin of coordinates: origin o is at −coords(o), read the
  // short way round.
  std::vector<std::vector<int>> out;
  for (int o = 1; o < torus_.size(); ++o) {
    std::vector<int> x = torus_.coords(o);
    for (int d = 0; d < torus_.ndims(); ++d) {
      const int t = torus_.dim(d);
      int& c = x[static_cast<std::size_t>(d)];
      c = ((-c % t) + t) % t;
      if (c > t / 2) c -= t;  // (−t/2, t/2]: antipodal ones read as +t/2
    }
    out.push_back(std::move(x));
  }
  return out;
}

}  // namespace ccl::grids
