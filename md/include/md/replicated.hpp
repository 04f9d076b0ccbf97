// The replicated-data decomposition: every member holds every position; member w owns the w-th
// of P contiguous blocks of atoms and takes the same share of the pair rows and of the k-space.
//
//   each step  the owned blocks are concatenated (concatv: the torus allgather when the members
//              form a torus) and each member's forces and energies combined (combine, 3N + 6
//              values): O(N) words per member per step, whatever P.
#pragma once

#include "md/decomposition.hpp"

namespace md {

class Replicated : public Decomposition {
 public:
  // mpi_allgather: positions go by MPI_Allgather(v) on MPI_COMM_WORLD (group must be the world),
  // the MPI library's own algorithm, as the peer of ccl's concat in benchmarks.
  Replicated(const System& s, const ccl::Group& group, std::FILE* log, bool mpi_allgather = false);

  double* x_owned() override { return x_.data() + 3 * first_; }
  const double* x_owned() const override { return x_.data() + 3 * first_; }
  const double* f_owned() const override { return f_.data() + 3 * first_; }
  void exchange_positions() override;
  void rebuild_neighbors() override;
  Terms compute_forces(Timers& timers) override;
  long neighbor_pairs() const override { return static_cast<long>(in_->neighbors().pairs()); }
  long neighbor_builds() const override { return in_->neighbors().builds(); }
  MpiCalls mpi_calls() const override { return mpi_calls_; }
  void reset_mpi_calls() override { mpi_calls_ = {}; }

  // All atoms, in id order (tests read and move them).
  Positions& positions() { return x_; }
  const Forces& forces() const { return f_; }
  std::size_t natoms() const { return natoms_; }

 protected:
  // build_lists false: the derived decomposition builds its own lists and f_ holds the owned
  // atoms' forces only (owner.hpp).
  Replicated(const System& s, const ccl::Group& group, std::FILE* log, bool mpi_allgather,
             bool build_lists);
  std::size_t natoms_, first_ = 0;
  Positions x_;  // all atoms
  Forces
      f_;  // all atoms, plus two rows that carry the energy terms in the combine (owner: its own)
  Charges q_all_;
  Types type_all_;
  std::unique_ptr<Interactions> in_;

 private:
  std::vector<std::size_t> counts(std::size_t per_atom) const;
  void exchange_with_mpi(std::span<const double> mine, std::span<double> all, bool equal_blocks);
  void allgatherv_with_mpi(std::span<const double> mine, std::span<double> all);
  bool mpi_allgather_;
  MpiCalls mpi_calls_;
};

}  // namespace md
