// The owner-computes decomposition (the QCDOC seed's scheme): member w owns the w-th of P
// contiguous blocks of atoms, receives every position, and computes the total force on its own
// atoms itself.
//
//   each step  the owned blocks are concatenated (concat: the torus allgather when the members
//              form a torus); real space over a full neighbour list of the owned rows (every
//              partner and image: no Newton's-third-law halving across members, no force
//              combine); k-space with Ewald from the structure factors, each member summing its
//              own atoms' and one combine of 2·N_k values adding them, or with PPPM from the
//              mesh pencils, whose forces go to their atoms' owners (indexv). The members' pair
//              terms ride in that combine. Positions are the only O(N) words a member receives.
#pragma once

#include <vector>

#include "md/replicated.hpp"

namespace md {

class Owner : public Replicated {
 public:
  Owner(const System& s, const ccl::Group& group, std::FILE* log);

  void rebuild_neighbors() override;
  Terms compute_forces(Timers& timers) override;
  const double* f_owned() const override { return f_.data(); }  // f_ holds the owned atoms only
  long neighbor_pairs() const override { return static_cast<long>(full_.pairs()); }
  long neighbor_builds() const override { return full_.builds(); }

 private:
  NeighborList full_;                // every partner of each owned atom
  std::vector<std::size_t> starts_;  // member w owns atoms [starts_[w], starts_[w + 1])
};

}  // namespace md
