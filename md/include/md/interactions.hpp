// Forces, energies and virial of the deck's pair and kspace styles: the pair style over a half
// neighbour list, the k-space share, and the self and background terms. A decomposition decides
// which rows and which k-space share a member computes, and adds the members' shares up.
#pragma once

#include <cstdio>
#include <memory>
#include <span>

#include "ccl/group.hpp"
#include "md/kspace.hpp"
#include "md/neighbor.hpp"
#include "md/pair.hpp"
#include "md/system.hpp"
#include "md/timers.hpp"

namespace md {

struct Terms {
  double ecoul = 0;   // real-space Coulomb (the pair style's share)
  double elong = 0;   // k-space, self and background
  double evdwl = 0;   // short-range (lj or born)
  double virial = 0;  // Σ r·F over all terms
};

class Interactions {
 public:
  // Checks the settings (DeckErrors naming the deck line), chooses the k-space parameters and
  // writes them, and a warning for a charged system, to `log` (null on all but one member).
  // sum_q and sum_q2 are Σ q and Σ q² over all atoms.
  Interactions(const System& s, const ccl::Group& group, double sum_q, double sum_q2,
               std::FILE* log);

  // Rebuilds the neighbour list (arguments as NeighborList::build; x wrapped into the box).
  void build_neighbors(const Positions& x, std::size_t row_begin, std::size_t row_end);
  void build_neighbors(const Positions& x, std::size_t row_begin, std::size_t row_end,
                       std::size_t candidate_begin, std::size_t candidate_end,
                       const std::vector<std::size_t>& global);
  const NeighborList& neighbors() const { return list_; }
  // A list of its own (empty, with this system's cut-off and skin), built and used explicitly.
  NeighborList new_list() const { return NeighborList(pair_->max_cutoff(), skin_); }
  // The same holding every partner of each row (owner-computes).
  NeighborList new_full_list() const { return NeighborList(pair_->max_cutoff(), skin_, true); }
  void build(NeighborList& list, const Positions& x, std::size_t row_begin,
             std::size_t row_end) const {
    list.build(x, lo_, len_, row_begin, row_end);
  }
  void build(NeighborList& list, const Positions& x, std::size_t row_begin, std::size_t row_end,
             std::size_t candidate_begin, std::size_t candidate_end,
             const std::vector<std::size_t>& global) const {
    list.build(x, lo_, len_, row_begin, row_end, candidate_begin, candidate_end, global);
  }

  // This member's pair share: the pairs of its neighbour list, forces added into f.
  Terms pair_share(const Positions& x, const Charges& q, const Types& type, const Forces& f,
                   Timers& timers) const;
  Terms pair_share(const Positions& x, const Charges& q, const Types& type,
                   const NeighborList& list, const Forces& f, Timers& timers) const;
  // This member's k-space share over all atoms (and on member 0 the self and background terms),
  // forces added into f.
  Terms kspace_share(const Positions& x, const Charges& q, const Forces& f, Timers& timers);
  // Owner-computes: the rows' own forces from a full list (half of each pair's energy and
  // virial), into f, which holds the rows' atoms only.
  Terms pair_owned(const Positions& x, const Charges& q, const Types& type,
                   const NeighborList& full_list, const Forces& f, Timers& timers) const;
  // Owner-computes: the k-space forces on this member's atoms, which are all f holds
  // (Kspace::compute_owned), and the
  // system's terms, the same on every member: `pair` holds this member's pair terms, summed over
  // the members in the k-space's own exchange.
  Terms kspace_owned(const Positions& x, const Charges& q, std::span<const std::size_t> starts,
                     const Forces& f, const Terms& pair, Timers& timers);

 private:
  bool first_member_;
  Vec3 lo_, len_;
  double volume_, qqr2e_, sum_q_, sum_q2_, skin_;
  std::unique_ptr<Kspace> kspace_;
  std::unique_ptr<PairStyle> pair_;
  NeighborList list_;
};

}  // namespace md
