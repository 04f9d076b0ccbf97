#include "md/interactions.hpp"

#include <cstdio>

namespace md {

namespace {

// This member's share [begin, end) of n items split evenly over the group.
std::pair<std::size_t, std::size_t> share(std::size_t n, const ccl::Group& g) {
  const auto p = static_cast<std::size_t>(g.size()), r = static_cast<std::size_t>(g.rank());
  return {n * r / p, n * (r + 1) / p};
}

}  // namespace

Interactions::Interactions(const System& s, const ccl::Group& group, std::FILE* log) : group_(group) {
  if (s.pair.style.empty()) throw DeckError("deck: no pair_style before run");
  if (s.kspace.style.empty()) throw DeckError(s.pair.where + ": pair_style coul/long needs a kspace_style");
  const Vec3 len = s.length();
  for (double l : len) {
    if (s.pair.cutoff_coul > l / 2) {
      char text[160];
      std::snprintf(text, sizeof text, ": pair_style: the cut-off %g is larger than half the box (%g)",
                    s.pair.cutoff_coul, l / 2);
      throw DeckError(s.pair.where + text);
    }
  }
  for (double q : s.q) {
    sum_q_ += q;
    sum_q2_ += q * q;
  }
  params_ = ewald::choose_ewald(s.kspace.accuracy, s.units->qqr2e, sum_q2_, s.natoms(), s.pair.cutoff_coul, len);
  kvectors_ = ewald::k_vectors(params_, len);
  if (log != nullptr && group.rank() == 0) {
    if (std::abs(sum_q_) > 1e-8 * std::max(1.0, std::sqrt(sum_q2_))) {
      std::fprintf(log, "WARNING: %s: the system's net charge is %g; a neutralising background is used\n",
                   s.kspace.where.c_str(), sum_q_);
    }
    std::fprintf(log, "Ewald initialization ...\n");
    std::fprintf(log, "  G vector (1/distance) = %.10g\n", params_.g);
    std::fprintf(log, "  estimated absolute RMS force accuracy = %.8g\n",
                 std::hypot(params_.error_real, params_.error_kspace));
    std::fprintf(log, "  estimated relative force accuracy = %.8g\n",
                 std::hypot(params_.error_real, params_.error_kspace) / s.units->qqr2e);
    std::fprintf(log, "  KSpace vectors: actual max1d max3d = %zu %d %d\n", kvectors_.size(),
                 std::max({params_.kmax[0], params_.kmax[1], params_.kmax[2]}),
                 4 * params_.kmax[0] * params_.kmax[1] * params_.kmax[2]);
    std::fprintf(log, "                  kxmax kymax kzmax  = %d %d %d\n", params_.kmax[0], params_.kmax[1],
                 params_.kmax[2]);
  }
}

Terms Interactions::compute(const System& s, std::vector<double>& f) const {
  const std::size_t n = s.natoms();
  ewald::Positions x("x", n);
  ewald::Charges q("q", n);
  ewald::Forces mine("f", n);
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t d = 0; d < 3; ++d) x(i, d) = s.x[i][d];
    q(i) = s.q[i];
  }
  const Vec3 len = s.length();
  const double C = s.units->qqr2e;
  const auto [i0, i1] = share(n, group_);
  const ewald::Energy real = ewald::real_space(x, q, len, s.pair.cutoff_coul, params_.g, C, i0, i1, mine);
  const auto [k0, k1] = share(kvectors_.size(), group_);
  const ewald::Energy kspace = ewald::kspace(x, q, kvectors_, k0, k1, params_.g, s.volume(), C, mine);
  // Self and background terms are whole-system: member 0 adds them once.
  const ewald::Energy self = group_.rank() == 0 ? ewald::self_and_background(sum_q_, sum_q2_, s.volume(), params_.g, C)
                                                 : ewald::Energy{};
  std::vector<double> partial(3 * n + 3);
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t d = 0; d < 3; ++d) partial[3 * i + d] = mine(i, d);
  }
  partial[3 * n] = real.energy;
  partial[3 * n + 1] = kspace.energy + self.energy;
  partial[3 * n + 2] = real.virial + kspace.virial + self.virial;
  std::vector<double> total(partial.size());
  ccl::combine(group_, std::span<const double>(partial), std::span<double>(total), ccl::sum);
  f.assign(total.begin(), total.begin() + static_cast<std::ptrdiff_t>(3 * n));
  Terms t;
  t.ecoul = total[3 * n];
  t.elong = total[3 * n + 1];
  t.virial = total[3 * n + 2];
  return t;
}

}  // namespace md
