// Classic Ewald as a Kspace: each member takes an even share of the k-vector groups.
#include <algorithm>
#include <cmath>

#include "ewald/ewald_sum.hpp"
#include "md/kspace.hpp"

namespace md {

namespace {

class EwaldKspace : public Kspace {
 public:
  EwaldKspace(const System& s, double sum_q2, const ccl::Group& group, std::FILE* log) : box_(s.length()) {
    const Vec3& len = box_;
    params_ = ewald::choose_ewald(s.kspace.accuracy, s.units->qqr2e, sum_q2, static_cast<std::size_t>(s.natoms),
                                  s.pair.cutoff_coul, len);
    // About (2 kx + 1)(2 ky + 1)(2 kz + 1) / 2 vectors: refuse what would not finish.
    const double vectors = 0.5 * (2.0 * params_.kmax[0] + 1) * (2.0 * params_.kmax[1] + 1) * (2.0 * params_.kmax[2] + 1);
    if (vectors > 2e7) {
      char text[200];
      std::snprintf(text, sizeof text, ": kspace_style ewald: accuracy %g needs about %.2g k-vectors (use pppm, or a larger accuracy)",
                    s.kspace.accuracy, vectors);
      throw DeckError(s.kspace.where + text);
    }
    groups_ = ewald::k_groups(params_, len);
    qqr2e_ = s.units->qqr2e;
    const auto p = static_cast<std::size_t>(group.size()), r = static_cast<std::size_t>(group.rank());
    k_begin_ = groups_.size() * r / p;
    k_end_ = groups_.size() * (r + 1) / p;
    if (log == nullptr) return;
    const double error = std::hypot(params_.error_real, params_.error_kspace);
    std::fprintf(log, "Ewald initialization ...\n");
    std::fprintf(log, "  G vector (1/distance) = %.10g\n", params_.g);
    std::fprintf(log, "  estimated absolute RMS force accuracy = %.8g\n", error);
    std::fprintf(log, "  estimated relative force accuracy = %.8g\n", error / qqr2e_);
    std::fprintf(log, "  KSpace vectors: actual max1d max3d = %zu %d %d\n", ewald::k_vector_count(groups_),
                 std::max({params_.kmax[0], params_.kmax[1], params_.kmax[2]}),
                 4 * params_.kmax[0] * params_.kmax[1] * params_.kmax[2]);
    std::fprintf(log, "                  kxmax kymax kzmax  = %d %d %d\n", params_.kmax[0], params_.kmax[1],
                 params_.kmax[2]);
  }

  double g() const override { return params_.g; }

  ewald::Energy compute(const ewald::Positions& x, const ewald::Charges& q, const ewald::Forces& f) override {
    return ewald::kspace(x, q, groups_, k_begin_, k_end_, params_.g, box_, qqr2e_, f);
  }

 private:
  Vec3 box_;
  double qqr2e_ = 0;
  ewald::EwaldParameters params_;
  std::vector<ewald::KGroup> groups_;  // shared out among the members
  std::size_t k_begin_ = 0, k_end_ = 0;
};

}  // namespace

std::unique_ptr<Kspace> make_kspace(const System& s, double sum_q2, const ccl::Group& group, std::FILE* log) {
  if (s.kspace.style == "ewald") return std::make_unique<EwaldKspace>(s, sum_q2, group, log);
  return make_pppm(s, sum_q2, group, log);
}

}  // namespace md
