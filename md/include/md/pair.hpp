// The three pair styles, each the Ewald real-space Coulomb term plus an optional short-range one:
//
//   coulomb (r < rc_coul)   E = C q_i q_j erfc(g r)/r,   r·F = C q_i q_j (erfc(g r)/r + 2g/√π
//   e^(−g²r²)) lj/cut  (r < rc_ij)     E = 4ε((σ/r)¹² − (σ/r)⁶),    r·F = 48ε(σ/r)¹² − 24ε(σ/r)⁶
//   born    (r < rc_ij)     E = A e^((σ−r)/ρ) − C/r⁶ + D/r⁸,   r·F = (A r/ρ) e^((σ−r)/ρ) − 6C/r⁶ +
//   8D/r⁸
//
// lj pairs not given by pair_coeff mix (geometric: ε, σ and rc as geometric means; arithmetic: σ
// and rc as arithmetic means); born pairs must all be given. `pair_modify shift yes` subtracts
// each short-range energy at its cut-off.
//
// Speed: E and F/r of the Coulomb term (per unit charge product) and of each type pair's
// short-range term are tabulated in s = r² from (rc/4)² to rc², as cubic Hermite pieces through
// the exact values and slopes (dE/ds = −(F/r)/2): relative error ~1e-11, no erfc or exp per pair.
// Closer pairs take the formulas. Cost: O(pairs in the neighbour list).
#pragma once

#include <Kokkos_Core.hpp>

#include "md/neighbor.hpp"
#include "md/system.hpp"

namespace md {

using Charges = Kokkos::View<double*>;
using Types = Kokkos::View<int*>;
using Forces = Kokkos::View<double* [3]>;

// Short-range coefficients of one pair of types, in the form the formulas use.
struct ShortRange {
  double cut2 = 0;    // 0: no short-range term
  double p[5] = {};   // lj: 48εσ¹², 24εσ⁶, 4εσ¹², 4εσ⁶;  born: A, ρ, σ, C, D
  double offset = 0;  // energy at the cut-off when shifted
};

// What the pair loop reads first for a type pair: its short-range cut-off squared and which
// short-range table holds it ((i, j) and (j, i) share one).
struct ShortLookup {
  double cut2 = 0;
  std::size_t table = 0;
};

struct PairEnergy {
  double ecoul = 0, evdwl = 0, virial = 0;
};

class PairStyle {
 public:
  // Mixes and checks the coefficients (a DeckError naming pair_style's line when some are
  // missing) and builds the tables; g is the Ewald splitting parameter.
  PairStyle(const System& s, double g);

  // The largest cut-off of any term: what the neighbour list must cover.
  double max_cutoff() const { return max_cutoff_; }

  // Pairs of the list, forces added into f (on both atoms of each pair). rows_only (a full list,
  // owner-computes): forces on the rows' atoms only, which are all f holds (its row r is the
  // list's row r), and half of each pair's energy and virial, the other half being its
  // partner's row's.
  PairEnergy compute(const Positions& x, const Charges& q, const Types& type,
                     const NeighborList& list, const Forces& f, bool rows_only = false) const;

 private:
  void build_tables();

  PairKind kind_;
  double cut_coul2_, g_, qqr2e_, max_cutoff_;
  int width_;  // ntypes + 1
  Kokkos::View<ShortRange*> table_;
  Kokkos::View<ShortLookup*> short_;  // per type pair i·width + j: one read decides and finds
  // Tables: interval k of [s0, s0 + n/inv_ds) holds 8 coefficients, energy then F/r, each as
  // a + t (b + t (c + t d)), t ∈ [0, 1). Coulomb per unit C q_i q_j; short range per type pair.
  double s0_ = 0, inv_ds_ = 0;
  int intervals_ = 0;
  Kokkos::View<double* [8]> coulomb_table_;
  Kokkos::View<double** [8]> short_table_;  // (table of an unordered type pair, interval)
};

}  // namespace md
