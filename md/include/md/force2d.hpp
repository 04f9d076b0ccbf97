// The force decomposition (Plimpton): members on an R × C grid. Atoms are split (in id order)
// into R row blocks X_r and, independently, into C column blocks Y_c; member (r, c) owns the c-th
// part of X_r and computes the pairs between X_r and Y_c, each pair once over the grid (by the
// parity rule of the neighbour list).
//
//   positions  owned parts → X_r by concatv within the grid row; the pieces Y_c ∩ X_r → Y_c by
//              concatv within the grid column: O(N/R + N/C) words per member
//   forces     Y_c forces combined within the column, folded into X_r, X_r forces combined
//              within the row ("force reductions along rows")
//   k-space    takes every position (concatv over all members) and shares the k-space as in the
//              replicated decomposition; its forces and all energies are combined over all.
// So the pair part — O(N × neighbours) work — moves O(N/√P) words per member; the k-space keeps
// the replicated O(N) exchange.
#pragma once

#include "ccl/grids/grid2d.hpp"
#include "md/decomposition.hpp"

namespace md {

class Force2d : public Decomposition {
 public:
  // rows × cols must be the group's size (0, 0: the most nearly square grid).
  Force2d(const System& s, const ccl::Group& group, int rows, int cols, std::FILE* log);

  double* x_owned() override { return own_x_.data(); }
  const double* x_owned() const override { return own_x_.data(); }
  const double* f_owned() const override { return own_f_.data(); }
  void exchange_positions() override;
  void rebuild_neighbors() override;
  Terms compute_forces(Timers& timers) override;
  long neighbor_pairs() const override { return static_cast<long>(in_->neighbors().pairs()); }
  long neighbor_builds() const override { return in_->neighbors().builds(); }

 private:
  ccl::grids::Grid2D grid_;
  std::size_t natoms_;
  std::pair<std::size_t, std::size_t> row_block_, column_block_, own_;  // [first, last) ids
  std::vector<std::size_t> row_counts_, column_counts_;  // per member of the row / column group
  std::pair<std::size_t, std::size_t> column_piece_;     // Y_c ∩ X_r
  std::size_t world_offset_ = 0;                         // this member's block in world order
  std::vector<double> own_x_, own_f_;
  AtomArrays local_;                       // X_r then Y_c
  std::vector<std::size_t> local_global_;  // local atom → its index in id order
  AtomArrays all_;  // every atom, in world-rank order of the owners (for the k-space)
  std::unique_ptr<Interactions> in_;
};

}  // namespace md
