#include "md/replicated.hpp"

#include <cmath>

namespace md {

std::vector<std::size_t> Replicated::counts(std::size_t per_atom) const {
  const auto p = static_cast<std::size_t>(group_.size());
  std::vector<std::size_t> out(p);
  for (std::size_t r = 0; r < p; ++r) out[r] = per_atom * (natoms_ * (r + 1) / p - natoms_ * r / p);
  return out;
}

Replicated::Replicated(const System& s, const ccl::Group& group)
    : group_(group), natoms_(static_cast<std::size_t>(s.natoms)), mass_(s.mass) {
  const std::vector<std::size_t> blocks = counts(1);
  count_ = blocks[static_cast<std::size_t>(group.rank())];
  std::vector<Atom> mine(count_);
  ccl::scatterv(group, s.atoms, mine, blocks, 0);
  const long owned = static_cast<long>(count_);
  long end = 0;  // atoms up to and including this member's block
  ccl::prefix(group, std::span<const long>(&owned, 1), std::span<long>(&end, 1), ccl::sum);
  first_ = static_cast<std::size_t>(end) - count_;
  x = Positions("x", natoms_);
  f = Forces("f", natoms_ + 2);
  v = Forces("v", count_);
  q = Charges("q", natoms_);
  type = Types("type", natoms_);
  id.resize(natoms_);
  for (std::size_t i = 0; i < count_; ++i) {
    const Atom& a = mine[i];
    for (std::size_t d = 0; d < 3; ++d) {
      x(first_ + i, d) = a.x[d];
      v(i, d) = a.v[d];
    }
    q(first_ + i) = a.q;
    type(first_ + i) = a.type;
    id[first_ + i] = a.id;
  }
  const std::vector<std::size_t> ones = counts(1);
  ccl::concatv(group, std::span<const double>(q.data() + first_, count_), std::span<double>(q.data(), natoms_), ones);
  ccl::concatv(group, std::span<const int>(type.data() + first_, count_), std::span<int>(type.data(), natoms_), ones);
  ccl::concatv(group, std::span<const long>(id.data() + first_, count_), std::span<long>(id.data(), natoms_), ones);
  exchange_positions();
}

void Replicated::exchange_positions() {
  ccl::concatv(group_, std::span<const double>(x.data() + 3 * first_, 3 * count_), std::span<double>(x.data(), 3 * natoms_),
               counts(3));
}

void Replicated::wrap(const System& s) {
  const Vec3 len = s.length();
  for (std::size_t i = 0; i < natoms_; ++i) {
    for (std::size_t d = 0; d < 3; ++d) {
      double& c = x(i, d);
      c -= len[d] * std::floor((c - s.lo[d]) / len[d]);
      if (c >= s.hi[d]) c -= len[d];  // rounding of a point just below lo
    }
  }
}

Terms Replicated::compute_forces(Interactions& in, Timers& timers) {
  const Terms t = in.compute_share(x, q, type, f, timers);
  f(natoms_, 0) = t.ecoul;
  f(natoms_, 1) = t.elong;
  f(natoms_, 2) = t.evdwl;
  f(natoms_ + 1, 0) = t.virial;
  ccl::combine(group_, std::span<double>(f.data(), 3 * (natoms_ + 2)), std::span<double>(f.data(), 3 * (natoms_ + 2)),
               ccl::sum);
  timers.stamp(Section::comm);
  return Terms{f(natoms_, 0), f(natoms_, 1), f(natoms_, 2), f(natoms_ + 1, 0)};
}

double Replicated::kinetic_energy(const System& s) const {
  double twice = 0;
  for (std::size_t i = 0; i < count_; ++i) {
    const double m = mass_[static_cast<std::size_t>(type(first_ + i))];
    twice += m * (v(i, 0) * v(i, 0) + v(i, 1) * v(i, 1) + v(i, 2) * v(i, 2));
  }
  double total = 0;
  const double mine = 0.5 * twice * s.units->mvv2e;
  ccl::reduce(group_, std::span<const double>(&mine, 1), std::span<double>(&total, 1), ccl::sum, 0);
  return total;
}

std::vector<Atom> Replicated::gather_atoms() const {
  std::vector<Atom> mine(count_);
  for (std::size_t i = 0; i < count_; ++i) {
    const std::size_t g = first_ + i;
    mine[i] = Atom{id[g], type(g), q(g), {x(g, 0), x(g, 1), x(g, 2)}, {v(i, 0), v(i, 1), v(i, 2)}};
  }
  std::vector<Atom> all(group_.rank() == 0 ? natoms_ : 0);
  ccl::gatherv(group_, mine, all, counts(1), 0);
  return all;
}

}  // namespace md
