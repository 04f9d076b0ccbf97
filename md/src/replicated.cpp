#include "md/replicated.hpp"

#include <mpi.h>

#include <span>
#include <vector>

#include "ccl/collectives.hpp"
#include "ccl/environment.hpp"
#include "md/blocks.hpp"

namespace md {

std::vector<std::size_t> Replicated::counts(std::size_t per_atom) const {
  std::vector<std::size_t> out(owned_counts_);
  for (std::size_t& c : out) c *= per_atom;
  return out;
}

Replicated::Replicated(const System& s, const ccl::Group& group, std::FILE* log, bool mpi_allgather)
    : Replicated(s, group, log, mpi_allgather, true) {}

Replicated::Replicated(const System& s, const ccl::Group& group, std::FILE* log, bool mpi_allgather,
                       bool build_lists)
    : Decomposition(s, group),
      natoms_(static_cast<std::size_t>(s.natoms)),
      mpi_allgather_(mpi_allgather) {
  std::vector<std::pair<std::size_t, std::size_t>> ranges;
  for (int r = 0; r < group.size(); ++r) ranges.push_back(block_range(natoms_, group.size(), r));
  const std::vector<Atom> mine = distribute(s, ranges);
  // Where this member's block starts: the atoms of the members before it.
  const long count = static_cast<long>(owned());
  long end = 0;
  ccl::prefix(group, std::span<const long>(&count, 1), std::span<long>(&end, 1), ccl::sum);
  first_ = static_cast<std::size_t>(end) - owned();
  x_ = Positions("x", natoms_);
  // Owner-computes (no lists built here) computes its own atoms' forces only.
  f_ = Forces("f", build_lists ? natoms_ + 2 : owned());
  q_all_ = Charges("q", natoms_);
  type_all_ = Types("type", natoms_);
  for (std::size_t i = 0; i < owned(); ++i) {
    for (std::size_t d = 0; d < 3; ++d) x_(first_ + i, d) = mine[i].x[d];
    q_all_(first_ + i) = q_[i];
    type_all_(first_ + i) = type_[i];
  }
  const std::vector<std::size_t> ones = counts(1);
  ccl::concatv(group, std::span<const double>(q_all_.data() + first_, owned()),
               std::span<double>(q_all_.data(), natoms_), ones);
  ccl::concatv(group, std::span<const int>(type_all_.data() + first_, owned()),
               std::span<int>(type_all_.data(), natoms_), ones);
  const auto [sum_q, sum_q2] = charge_sums();
  in_ = std::make_unique<Interactions>(s, group, sum_q, sum_q2, log);
  if (build_lists) rebuild_neighbors();
}

void Replicated::exchange_positions() {
  const std::span<const double> mine(x_.data() + 3 * first_, 3 * owned());
  const std::span<double> all(x_.data(), 3 * natoms_);
  const bool equal_blocks = natoms_ % owned_counts_.size() == 0;
  if (mpi_allgather_) {
    exchange_with_mpi(mine, all, equal_blocks);
    return;
  }
  // Equal blocks take concat, whose algorithms include the torus allgathers.
  if (equal_blocks) {
    ccl::concat(group_, mine, all);
  } else {
    ccl::concatv(group_, mine, all, counts(3));
  }
}

namespace {

// MPI forbids a send buffer that overlaps the receive buffer (MPICH refuses it, Open MPI let it
// pass): a member's block that already sits at its place in `all` goes as MPI_IN_PLACE, one that
// overlaps elsewhere as a copy in `copy`.
const void* send_buffer(std::span<const double> mine, std::span<double> all, std::size_t place,
                        std::vector<double>& copy) {
  const bool overlaps =
      mine.data() < all.data() + all.size() && all.data() < mine.data() + mine.size();
  if (!overlaps || mine.empty()) return mine.data();
  if (mine.data() == all.data() + place) return MPI_IN_PLACE;
  copy.assign(mine.begin(), mine.end());
  return copy.data();
}

}  // namespace

void Replicated::exchange_with_mpi(std::span<const double> mine, std::span<double> all,
                                   bool equal_blocks) {
  const double started = MPI_Wtime();
  if (ccl::timing()) {
    mpi_calls_.name = equal_blocks ? "MPI_Allgather" : "MPI_Allgatherv";
    ++mpi_calls_.calls;
    mpi_calls_.bytes +=
        mine.size_bytes() * (owned_counts_.size() - 1);  // as ccl counts a concat's sends
  }
  if (equal_blocks) {
    std::vector<double> copy;
    const auto rank = static_cast<std::size_t>(group_.rank());
    const int count = static_cast<int>(mine.size());
    MPI_Allgather(send_buffer(mine, all, rank * mine.size(), copy), count, MPI_DOUBLE, all.data(),
                  count, MPI_DOUBLE, MPI_COMM_WORLD);
  } else {
    allgatherv_with_mpi(mine, all);
  }
  if (ccl::timing()) mpi_calls_.seconds += MPI_Wtime() - started;
}

void Replicated::allgatherv_with_mpi(std::span<const double> mine, std::span<double> all) {
  std::vector<int> counts, displacements;
  int at = 0;
  for (std::size_t c : this->counts(3)) {
    counts.push_back(static_cast<int>(c));
    displacements.push_back(at);
    at += static_cast<int>(c);
  }
  std::vector<double> copy;
  const auto me = static_cast<std::size_t>(group_.rank());
  const auto place = static_cast<std::size_t>(displacements[me]);
  MPI_Allgatherv(send_buffer(mine, all, place, copy), static_cast<int>(mine.size()), MPI_DOUBLE,
                 all.data(), counts.data(), displacements.data(), MPI_DOUBLE, MPI_COMM_WORLD);
}

void Replicated::rebuild_neighbors() {
  wrap_owned(x_owned());
  remember_build();
  exchange_positions();
  in_->build_neighbors(x_, first_, first_ + owned());
}

Terms Replicated::compute_forces(Timers& timers) {
  clear_forces(f_);
  const Terms pair = in_->pair_share(x_, q_all_, type_all_, f_, timers);
  return add_kspace_and_combine(*in_, x_, q_all_, f_, pair, timers);
}

}  // namespace md
