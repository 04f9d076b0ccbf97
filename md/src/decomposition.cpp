#include "md/decomposition.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "ccl/collectives.hpp"
#include "md/force2d.hpp"
#include "md/owner.hpp"
#include "md/replicated.hpp"
#include "md/ring.hpp"

namespace md {

Decomposition::Decomposition(const System& s, const ccl::Group& group)
    : group_(group), lo_(s.lo), len_(s.length()), mass_(s.mass) {}

std::vector<Atom> Decomposition::distribute(
    const System& s, const std::vector<std::pair<std::size_t, std::size_t>>& ranges) {
  owned_counts_.clear();
  std::vector<Atom> send;
  for (const auto& [first, last] : ranges) {
    owned_counts_.push_back(last - first);
    if (group_.rank() == 0)
      send.insert(send.end(), s.atoms.begin() + std::ptrdiff_t(first),
                  s.atoms.begin() + std::ptrdiff_t(last));
  }
  std::vector<Atom> mine(owned_counts_[std::size_t(group_.rank())]);
  ccl::scatterv(group_, send, mine, owned_counts_, 0);
  id_.clear(), type_.clear(), q_.clear(), v_.clear();
  for (const Atom& a : mine) {
    id_.push_back(a.id);
    type_.push_back(a.type);
    q_.push_back(a.q);
    v_.insert(v_.end(), a.v.begin(), a.v.end());
  }
  return mine;
}

std::pair<double, double> Decomposition::charge_sums() const {
  double mine[2] = {0, 0}, all[2];
  for (double q : q_) {
    mine[0] += q;
    mine[1] += q * q;
  }
  ccl::combine(group_, std::span<const double>(mine, 2), std::span<double>(all, 2), ccl::sum);
  return {all[0], all[1]};
}

void Decomposition::wrap_owned(double* x) const {
  for (std::size_t i = 0; i < owned(); ++i) {
    for (std::size_t d = 0; d < 3; ++d) {
      double& c = x[3 * i + d];
      c -= len_[d] * std::floor((c - lo_[d]) / len_[d]);
      if (c >= lo_[d] + len_[d]) c -= len_[d];  // rounding of a point just below lo
    }
  }
}

Terms Decomposition::add_kspace_and_combine(Interactions& in, const Positions& x, const Charges& q,
                                            const Forces& f, const Terms& pair,
                                            Timers& timers) const {
  const std::size_t n = x.extent(0);
  const Terms kspace = in.kspace_share(x, q, f, timers);
  f(n, 0) = pair.ecoul;
  f(n, 1) = kspace.elong;
  f(n, 2) = pair.evdwl;
  f(n + 1, 0) = pair.virial + kspace.virial;
  const std::span<double> all(f.data(), 3 * (n + 2));
  ccl::combine(group_, all, all, ccl::sum);
  timers.stamp(Section::comm);
  return Terms{f(n, 0), f(n, 1), f(n, 2), f(n + 1, 0)};
}

ccl::ValueIndex<double> Decomposition::largest_move() const {
  const double *x = x_owned(), *f = f_owned();
  ccl::ValueIndex<double> mine{0.0, 0};
  for (std::size_t i = 0; i < owned(); ++i) {
    double r2 = 0;
    bool finite = true;
    for (std::size_t d = 0; d < 3; ++d) {
      const double dx = x[3 * i + d] - x_at_build_[3 * i + d];
      r2 += dx * dx;
      finite = finite && std::isfinite(x[3 * i + d]) && std::isfinite(f[3 * i + d]);
    }
    const double distance = finite ? std::sqrt(r2) : std::numeric_limits<double>::infinity();
    if (distance > mine.value) mine = {distance, static_cast<int>(id_[i])};
  }
  return ccl::combine_value(group_, mine, ccl::maxloc);
}

double Decomposition::kinetic_energy(const System& s) const {
  double twice = 0;
  for (std::size_t i = 0; i < owned(); ++i) {
    const double m = mass_[static_cast<std::size_t>(type_[i])];
    twice +=
        m * (v_[3 * i] * v_[3 * i] + v_[3 * i + 1] * v_[3 * i + 1] + v_[3 * i + 2] * v_[3 * i + 2]);
  }
  double total = 0;
  const double mine = 0.5 * twice * s.units->mvv2e;
  ccl::reduce(group_, std::span<const double>(&mine, 1), std::span<double>(&total, 1), ccl::sum, 0);
  return total;
}

std::vector<Atom> Decomposition::gather_atoms() const {
  const double *x = x_owned(), *f = f_owned();
  std::vector<Atom> mine(owned());
  for (std::size_t i = 0; i < owned(); ++i) {
    mine[i] = Atom{id_[i],
                   type_[i],
                   q_[i],
                   {x[3 * i], x[3 * i + 1], x[3 * i + 2]},
                   {v_[3 * i], v_[3 * i + 1], v_[3 * i + 2]},
                   {f[3 * i], f[3 * i + 1], f[3 * i + 2]}};
  }
  std::size_t total = 0;
  for (std::size_t c : owned_counts_) total += c;
  std::vector<Atom> all(group_.rank() == 0 ? total : 0);
  ccl::gatherv(group_, mine, all, owned_counts_, 0);
  std::sort(all.begin(), all.end(), [](const Atom& a, const Atom& b) { return a.id < b.id; });
  return all;
}

std::unique_ptr<Decomposition> make_decomposition(const std::string& kind, const System& s,
                                                  const ccl::Group& group, int grid_rows,
                                                  int grid_cols, bool mpi_allgather,
                                                  std::FILE* log) {
  if (kind == "force2d") return std::make_unique<Force2d>(s, group, grid_rows, grid_cols, log);
  if (kind == "ring") return std::make_unique<Ring>(s, group, log);
  if (kind == "owner") return std::make_unique<Owner>(s, group, log);
  return std::make_unique<Replicated>(s, group, log, mpi_allgather);
}

}  // namespace md
