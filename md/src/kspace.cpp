// The k-space solvers of a deck's kspace_style, as Kspace: thin adapters over ewald/'s classic
// Ewald sum (each member takes an even share of the k-vector groups) and PPPM solver (members
// hold pencils of the mesh on a 2D grid), with their parameters chosen from the deck's accuracy
// and LAMMPS's wording in the log.
#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <utility>

#include "ccl/collectives.hpp"
#include "ewald/ewald_sum.hpp"
#include "ewald/owned_ewald.hpp"
#include "ewald/pppm.hpp"
#include "md/blocks.hpp"
#include "md/kspace.hpp"

namespace md {

namespace {

class EwaldKspace : public Kspace {
 public:
  EwaldKspace(const System& s, double sum_q2, const ccl::Group& group, std::FILE* log)
      : group_(group), box_(s.length()) {
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
    return ewald::kspace(x, q, groups_, k_begin_, k_end_, params_.g, box_, qqr2e_, f, tables_);
  }

  // The structure factors of this member's atoms, summed over the members in one combine with
  // the extra values behind them, then the forces on its atoms from the total.
  ewald::Energy compute_owned(const ewald::Positions& x, const ewald::Charges& q,
                              std::span<const std::size_t> starts, const ewald::Forces& f,
                              std::span<double> extra) override {
    if (!owned_) owned_.emplace(groups_, params_.g, box_, qqr2e_);
    const auto me = static_cast<std::size_t>(group_.rank());
    const std::size_t first = starts[me], last = starts[me + 1], n = owned_->factor_count();
    factors_.resize(n + extra.size());
    owned_->sum_factors(x, q, first, last, std::span<double>(factors_.data(), n));
    std::copy(extra.begin(), extra.end(), factors_.begin() + std::ptrdiff_t(n));
    ccl::combine(group_, factors_, factors_, ccl::sum);
    std::copy(factors_.begin() + std::ptrdiff_t(n), factors_.end(), extra.begin());
    return owned_->forces(q, std::span<const double>(factors_.data(), n), f);
  }

 private:
  ccl::Group group_;
  Vec3 box_;
  double qqr2e_ = 0;
  ewald::EwaldParameters params_;
  std::vector<ewald::KGroup> groups_;  // shared out among the members
  std::size_t k_begin_ = 0, k_end_ = 0;
  ewald::detail::PhaseTables tables_;       // kept from step to step: no allocation per step
  std::optional<ewald::OwnedEwald> owned_;  // owner-computes, made on first use
  std::vector<double> factors_;             // its combine buffer
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
      : pppm_(params, s.length(), s.lo, s.units->qqr2e, grid), group_(grid.group()) {
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

  // The mesh stays in pencils, as for the other decompositions: every member spreads the charges
  // that reach its pencil (positions are everywhere) and takes the forces of the atoms its pencil
  // reaches; each such force goes to the atom's owner (indexv, four values an atom, about
  // N/P (1 + stencil overlap) atoms a member), and the energy shares ride in one combine with
  // the extra values. No member handles the whole mesh or all forces.
  ewald::Energy compute_owned(const ewald::Positions& x, const ewald::Charges& q,
                              std::span<const std::size_t> starts, const ewald::Forces& f,
                              std::span<double> extra) override {
    const std::size_t n = x.extent(0), members = starts.size() - 1;
    if (share_.extent(0) < n) share_ = ewald::Forces("pppm force share", n);
    const ewald::Energy mine = pppm_.compute(x, q, share_);
    // The reached atoms' forces, by owner (atoms come in index order, so owners in order too).
    send_.clear();
    send_counts_.assign(members, 0);
    recv_counts_.assign(members, 0);
    std::size_t owner = 0;
    for (const std::size_t i : pppm_.atoms_reached()) {
      while (i >= starts[owner + 1]) ++owner;
      send_.insert(send_.end(), {double(i), share_(i, 0), share_(i, 1), share_(i, 2)});
      send_counts_[owner] += 4;
      for (std::size_t d = 0; d < 3; ++d) share_(i, d) = 0;  // ready for the next step
    }
    ccl::index(group_, send_counts_, recv_counts_);
    std::size_t total = 0;
    for (const std::size_t c : recv_counts_) total += c;
    recv_.resize(total);
    ccl::indexv(group_, send_, send_counts_, recv_, recv_counts_);
    const std::size_t first = starts[static_cast<std::size_t>(group_.rank())];  // f's row 0
    for (std::size_t k = 0; k < total; k += 4) {
      const auto i = static_cast<std::size_t>(recv_[k]) - first;
      for (std::size_t d = 0; d < 3; ++d) f(i, d) += recv_[k + 1 + d];
    }
    sums_.assign({mine.energy, mine.virial});
    sums_.insert(sums_.end(), extra.begin(), extra.end());
    ccl::combine(group_, sums_, sums_, ccl::sum);
    std::copy(sums_.begin() + 2, sums_.end(), extra.begin());
    return {sums_[0], sums_[1]};
  }

 private:
  ewald::Pppm pppm_;
  ccl::Group group_;
  ewald::Forces share_;  // this member's force shares on every atom, zero but where reached
  std::vector<double> send_, recv_, sums_;  // kept from step to step, as are the counts
  std::vector<std::size_t> send_counts_, recv_counts_;
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
