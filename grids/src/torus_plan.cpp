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

namespace {

// Receiver node 0 minus origin o, read the short way round each ring.
std::vector<int> displacement_of(const Cartesian& torus, int o) {
  std::vector<int> x = torus.coords(o);
  for (int d = 0; d < torus.ndims(); ++d) {
    const int t = torus.dim(d);
    int& c = x[static_cast<std::size_t>(d)];
    c = ((-c % t) + t) % t;
    if (c > t / 2) c -= t;  // (−t/2, t/2]: antipodal ones read as +t/2
  }
  return x;
}

}  // namespace

std::vector<std::vector<int>> TorusPlan::displacements() const {
  std::vector<std::vector<int>> out;
  for (int o = 1; o < torus_.size(); ++o) out.push_back(displacement_of(torus_, o));
  return out;
}

std::vector<int> TorusPlan::displacement(const Piece& p) const {
  return displacement_of(torus_, static_cast<int>(p.origin));
}

int TorusPlan::origin_of(int receiver, const Piece& p) const {
  std::vector<int> c = torus_.coords(receiver);
  const std::vector<int> o = torus_.coords(static_cast<int>(p.origin));
  for (std::size_t d = 0; d < c.size(); ++d) c[d] += o[d];
  return torus_.rank(c);  // wraps round each ring
}

}  // namespace ccl::grids
