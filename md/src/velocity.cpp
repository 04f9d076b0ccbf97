// `velocity all create T SEED [dist uniform|gaussian] [mom yes|no] [loop all]`: velocities drawn
// atom by atom in id order from one stream (LAMMPS's `loop all`, so any number of ranks gives the
// same velocities), each component scaled by 1/sqrt(mass), the centre-of-mass motion removed
// (mom yes, the default), and the whole set scaled to temperature T with 3N − 3 degrees of freedom.
#include <cmath>

#include "md/random.hpp"
#include "md/system.hpp"

namespace md {

double ParkMiller::uniform() {
  constexpr long a = 16807, m = 2147483647, q = 127773, r = 2836;  // q = m / a, r = m % a
  const long k = seed_ / q;
  seed_ = a * (seed_ - k * q) - r * k;
  if (seed_ < 0) seed_ += m;
  return static_cast<double>(seed_) / static_cast<double>(m);
}

double ParkMiller::gaussian() {
  if (saved_) {
    saved_ = false;
    return second_;
  }
  double v1, v2, rsq;
  do {
    v1 = 2 * uniform() - 1;
    v2 = 2 * uniform() - 1;
    rsq = v1 * v1 + v2 * v2;
  } while (rsq >= 1 || rsq == 0);
  const double fac = std::sqrt(-2 * std::log(rsq) / rsq);
  second_ = v1 * fac;
  saved_ = true;
  return v2 * fac;
}

void velocity(System& s, const Command& c) {
  need_box(s, c);
  if (c.word(1, "group") != "all")
    c.fail("velocity: only the group 'all' is supported, got '" + c.words[1] + "'");
  if (c.word(2, "style") != "create")
    c.fail("velocity: only the 'create' style is supported, got '" + c.words[2] + "'");
  const double temperature = c.number(3, "temperature");
  if (!(temperature >= 0)) c.fail("velocity: the temperature must not be negative");
  const long seed = c.integer(4, "seed");
  if (seed <= 0 || seed >= 2147483647) c.fail("velocity: the seed must be in 1..2147483646");
  bool gaussian = false, zero_momentum = true;
  if (c.args() % 2 != 0) c.fail("velocity: expected keyword value pairs after the seed");
  for (std::size_t i = 5; i < c.args(); i += 2) {
    const std::string &key = c.words[i], &value = c.words[i + 1];
    if (key == "dist" && (value == "uniform" || value == "gaussian")) {
      gaussian = value == "gaussian";
    } else if (key == "mom" && (value == "yes" || value == "no")) {
      zero_momentum = value == "yes";
    } else if ((key == "rot" && value == "no") || (key == "loop" && value == "all")) {
      // the defaults; rot yes and the other loop modes are not supported
    } else {
      c.fail("velocity: unsupported keyword '" + key + " " + value +
             "' (use dist uniform|gaussian, mom yes|no, rot no, loop all)");
    }
  }
  for (int t = 1; t <= s.ntypes; ++t) {
    if (s.mass[static_cast<std::size_t>(t)] <= 0)
      c.fail("velocity: no mass set for atom type " + std::to_string(t));
  }
  if (!s.keeps_atoms || s.atoms.empty()) return;
  ParkMiller random(seed);
  Vec3 momentum{0, 0, 0};
  double total_mass = 0;
  for (Atom& a : s.atoms) {
    const double m = s.mass[static_cast<std::size_t>(a.type)];
    for (double& v : a.v) {
      v = (gaussian ? random.gaussian() : random.uniform() - 0.5) / std::sqrt(m);
    }
    for (std::size_t d = 0; d < 3; ++d) momentum[d] += m * a.v[d];
    total_mass += m;
  }
  double twice_ke = 0;
  for (Atom& a : s.atoms) {
    const double m = s.mass[static_cast<std::size_t>(a.type)];
    for (std::size_t d = 0; d < 3; ++d) {
      if (zero_momentum) a.v[d] -= momentum[d] / total_mass;
      twice_ke += m * a.v[d] * a.v[d];
    }
  }
  const double dof = 3.0 * static_cast<double>(s.atoms.size()) - 3;
  const double current = dof > 0 ? twice_ke * s.units->mvv2e / (dof * s.units->boltz) : 0;
  const double factor = current > 0 ? std::sqrt(temperature / current) : 0;
  for (Atom& a : s.atoms) {
    for (double& v : a.v) v *= factor;
  }
}

}  // namespace md
