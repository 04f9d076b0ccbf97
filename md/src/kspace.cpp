// The k-space solvers of a deck's kspace_style, as Kspace: thin adapters over ewald/'s classic
// Ewald sum (each member takes an even share of the k-vector groups) and PPPM solver (members
// hold pencils of the mesh on a 2D grid), with their parameters chosen from the deck's accuracy
// and LAMMPS's wording in the log.
#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

#include "ewald/ewald_sum.hpp"
#include "ewald/pppm.hpp"
#include "md/blocks.hpp"
#include "md/kspace.hpp"

namespace md {

namespace {

class EwaldKspace : public Kspace {
 public:
  EwaldKspace(const System& s, double sum_q2, const ccl::Group& group, std::FILE* log)
      : box_(s.length()) {
    const Vec3& len = box_;
    params_ = ewald::choose_ewald(s.kspace.accuracy, s.units->qqr2e, sum_q2,
                                  static_cast<std::size_t>(s.natoms), s.pair.cutoff_coul, len);
    // About (2 kx + 1)(2 ky + 1)(2 kz + 1) / 2 vectors: refuse what would not finish.
    const double vectors = 0.5 * (2.0 * params_.kmax[0] + 1) * (2.0 * params_.kmax[1] + 1) *
                           (2.0 * params_.kmax[2] + 1);
    if (vectors > 2e7) {
      char text[200];
      std::snprintf(text, sizeof text,
                    ": kspace_style ewald: accuracy %g needs about %.2g k-vectors (use pppm, or a "
                    "larger accuracy)",
                    s.kspace.accuracy, vectors);
      throw DeckError(s.kspace.where + text);
    }
    groups_ = ewald::k_groups(params_, len);
    qqr2e_ = s.units->qqr2e;
    const auto p = static_cast<std::size_t>(group.size()),
               r = static_cast<std::size_t>(group.rank());
    k_begin_ = groups_.size() * r / p;
    k_end_ = groups_.size() * (r + 1) / p;
    if (log == nullptr) return;
    const double error = std::hypot(params_.error_real, params_.error_kspace);
    std::fprintf(log, "Ewald initialization ...\n");
    std::fprintf(log, "  G vector (1/distance) = %.10g\n", params_.g);
    std::fprintf(log, "  estimated absolute RMS force accuracy = %.8g\n", error);
    std::fprintf(log, "  estimated relative force accuracy = %.8g\n", error / qqr2e_);
    std::fprintf(log, "  KSpace vectors: actual max1d max3d = %zu %d %d\n",
                 ewald::k_vector_count(groups_),
                 std::max({params_.kmax[0], params_.kmax[1], params_.kmax[2]}),
                 4 * params_.kmax[0] * params_.kmax[1] * params_.kmax[2]);
    std::fprintf(log, "                  kxmax kymax kzmax  = %d %d %d\n", params_.kmax[0],
                 params_.kmax[1], params_.kmax[2]);
  }

  double g() const override { return params_.g; }

  ewald::Energy compute(const ewald::Positions& x, const ewald::Charges& q,
                        const ewald::Forces& f) override {
    return ewald::kspace(x, q, groups_, k_begin_, k_end_, params_.g, box_, qqr2e_, f);
  }

 private:
  Vec3 box_;
  double qqr2e_ = 0;
  ewald::EwaldParameters params_;
  std::vector<ewald::KGroup> groups_;  // shared out among the members
  std::size_t k_begin_ = 0, k_end_ = 0;
};

// The 2D grid of members PPPM's pencils need, for a mesh this program can hold.
ccl::grids::Grid2D make_grid(const ccl::Group& group, const std::array<int, 3>& mesh,
                             const std::string& where) {
  const auto [rows, cols] = nearly_square(group.size());
  const double points = double(mesh[0]) * double(mesh[1]) * double(mesh[2]);
  if (points > double(1 << 24)) {
    throw DeckError(where + ": kspace_style pppm: a mesh of " + std::to_string(mesh[0]) + " x " +
                    std::to_string(mesh[1]) + " x " + std::to_string(mesh[2]) +
                    " is more than this program handles (2^24 points; use a larger accuracy)");
  }
  for (int n : mesh) {
    if (n < cols) {
      throw DeckError(where + ": kspace_style pppm: the mesh (" + std::to_string(mesh[0]) + " " +
                      std::to_string(mesh[1]) + " " + std::to_string(mesh[2]) +
                      ") is smaller than the " + std::to_string(rows) + " x " +
                      std::to_string(cols) + " grid of ranks");
    }
  }
  return ccl::grids::Grid2D(group, rows, cols);
}

class PppmKspace : public Kspace {
 public:
  PppmKspace(const System& s, const ewald::PppmParameters& params, ccl::grids::Grid2D grid,
             std::FILE* log)
      : pppm_(params, s.length(), s.lo, s.units->qqr2e, std::move(grid)) {
    if (log == nullptr) return;
    const double error = std::hypot(params.error_real, params.error_kspace);
    std::fprintf(log, "PPPM initialization ...\n");
    std::fprintf(log, "  G vector (1/distance) = %.10g\n", params.g);
    std::fprintf(log, "  grid = %d %d %d\n", params.mesh[0], params.mesh[1], params.mesh[2]);
    std::fprintf(log, "  stencil order = %d\n", params.order);
    std::fprintf(log, "  estimated absolute RMS force accuracy = %.8g\n", error);
    std::fprintf(log, "  estimated relative force accuracy = %.8g\n", error / s.units->qqr2e);
    std::fprintf(log, "  using double precision FFTW3, pencils on a %d x %d grid of ranks\n",
                 pppm_.grid().rows(), pppm_.grid().cols());
    std::fprintf(log, "  3d grid and FFT values/proc = %zu\n", pppm_.points_held());
  }

  double g() const override { return pppm_.parameters().g; }

  ewald::Energy compute(const ewald::Positions& x, const ewald::Charges& q,
                        const ewald::Forces& f) override {
    return pppm_.compute(x, q, f);
  }

 private:
  ewald::Pppm pppm_;
};

std::unique_ptr<Kspace> make_pppm(const System& s, double sum_q2, const ccl::Group& group,
                                  std::FILE* log) {
  const ewald::PppmParameters params = ewald::choose_pppm(
      s.kspace.accuracy, s.units->qqr2e, sum_q2, static_cast<std::size_t>(s.natoms),
      s.pair.cutoff_coul, s.length(), s.kspace.order, s.kspace.mesh);
  return std::make_unique<PppmKspace>(s, params, make_grid(group, params.mesh, s.kspace.where),
                                      log);
}

}  // namespace

std::unique_ptr<Kspace> make_kspace(const System& s, double sum_q2, const ccl::Group& group,
                                    std::FILE* log) {
  if (s.kspace.style == "ewald") return std::make_unique<EwaldKspace>(s, sum_q2, group, log);
  return make_pppm(s, sum_q2, group, log);
}

}  // namespace md
