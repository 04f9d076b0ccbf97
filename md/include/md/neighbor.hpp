// Neighbour lists built by cell binning: the pairs (i, j, image) closer than the list cut-off
// (the interaction cut-off plus a skin), for a range of rows i. A half list holds each pair in one
// of its atoms' rows (the one whose partner lies ahead: a half stencil, so rows hold equal shares
// wherever they are). An entry records which
// periodic image of j it is (a shift of −L, 0 or +L per axis), so a force kernel subtracts the
// shift instead of rounding; every image within reach is listed, as ghost atoms would be.
//
// Cells are at least half the list cut-off wide, so a row's neighbours lie within two cells per
// axis: a stencil of up to 5³ cells, less those whose nearest point is beyond the cut-off (an axis
// with fewer than five cells is searched whole, in every image). Building costs O(N) to bin plus
// O(rows × stencil × atoms per cell) — about 2.5× the sphere's volume searched; the list stays
// valid until some atom has moved more than half the skin (Decomposition::largest_move).
#pragma once

#include <Kokkos_Core.hpp>

#include <array>
#include <cstddef>
#include <vector>

namespace md {

using Vec3 = std::array<double, 3>;
using Positions = Kokkos::View<double* [3]>;

class NeighborList {
 public:
  NeighborList() = default;
  // full: every row holds all its partners (each pair twice when both atoms are rows), as the
  // owner-computes scheme needs; else the half list above.
  NeighborList(double cutoff, double skin, bool full = false)
      : cutoff_(cutoff), skin_(skin), full_(full) {}

  // Rows [row_begin, row_end) of the atoms x (all of them, wrapped into [lo, lo + len)), their
  // neighbours among all atoms.
  void build(const Positions& x, const Vec3& lo, const Vec3& len, std::size_t row_begin,
             std::size_t row_end);
  // The same with the neighbours taken from [candidate_begin, candidate_end) only; global[k] is
  // local atom k's index in the whole system, which orders atoms within a cell (an atom
  // present twice, as a row and as a candidate, does not pair with itself).
  void build(const Positions& x, const Vec3& lo, const Vec3& len, std::size_t row_begin,
             std::size_t row_end, std::size_t candidate_begin, std::size_t candidate_end,
             const std::vector<std::size_t>& global);

  std::size_t row_begin() const { return row_begin_; }
  std::size_t rows() const { return offsets.extent(0) == 0 ? 0 : offsets.extent(0) - 1; }
  std::size_t pairs() const { return neighbors.extent(0); }
  long builds() const { return builds_; }

  // Row r (atom row_begin + r) has entries neighbors(offsets(r)) .. neighbors(offsets(r+1) - 1),
  // each j · 27 + image: the pair's separation is x_i − x_j − shifts(image, ·).
  Kokkos::View<std::size_t*> offsets;
  Kokkos::View<int*> neighbors;
  Kokkos::View<double[27][3]> shifts;
  static constexpr int kImages = 27;

 private:
  double cutoff_ = 0, skin_ = 0;
  bool full_ = false;
  std::size_t row_begin_ = 0;
  long builds_ = 0;
};

}  // namespace md
