// The systolic ring: member r owns the r-th of P contiguous blocks of atoms; a travelling copy of
// each block, with the forces gathered on it so far, moves around the ring one member per pass
// (shift by +1), so that in P passes every block meets every other once:
//
//   pass s     member r holds its own block and visiting block (r − s) mod P; it computes the
//              pairs between them (each pair once over the ring, by the neighbour list's
//              half-stencil rule; pass 0 is the block with itself), then shifts the visitor on
//   after P    each travelling copy is home, carrying the forces the other members put on it
//
// P shifts of N/P atoms (positions and forces) per step: O(N) words per member, like concat, but
// in P equal steps that each overlap with a share of the pair work. The k-space takes every
// position (concat) and its forces are combined, as in the replicated decomposition.
#pragma once

#include "md/decomposition.hpp"

namespace md {

class Ring : public Decomposition {
 public:
  Ring(const System& s, const ccl::Group& group, std::FILE* log);

  double* x_owned() override { return local_.x.data(); }
  const double* x_owned() const override { return local_.x.data(); }
  const double* f_owned() const override { return own_f_.data(); }
  void exchange_positions() override;
  void rebuild_neighbors() override;
  Terms compute_forces(Timers& timers) override;
  long neighbor_pairs() const override;
  long neighbor_builds() const override { return lists_.front().builds(); }

 private:
  // One trip of the visitors around the ring: visit(pass, block) with the visitor in place.
  template <class Visit>
  void ring_pass(Visit&& visit);

  std::size_t natoms_, first_ = 0, most_ = 0;  // most_: the largest block
  int me_, members_;
  AtomArrays local_;  // own block, then the visitor (most_ rows)
  AtomArrays all_;    // every atom, for the k-space
  std::vector<std::size_t> local_global_;
  std::vector<NeighborList> lists_;  // one per pass
  std::vector<double> own_f_, travel_, arriving_;
  std::unique_ptr<Interactions> in_;
};

}  // namespace md
