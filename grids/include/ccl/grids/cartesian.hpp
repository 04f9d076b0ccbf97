// A Cartesian shape d0 × d1 × … × d(k−1) and the CGS address conversions: 1-D rank ↔ k-D
// coordinates, neighbours with wrap-around, and the sub-shapes left when some dimensions are
// fixed. Pure arithmetic, no communication: the group structures (Grid2D, Hypercube, Torus) are
// built on it.
//
// Order: row-major, the last dimension varying fastest, as MPI_Cart_create numbers ranks:
//
//   2x3:  rank 0 (0,0)  1 (0,1)  2 (0,2)
//         rank 3 (1,0)  4 (1,1)  5 (1,2)
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace ccl::grids {

class Cartesian {
 public:
  // Every dimension at least 1; at least one dimension. Throws ccl::Error otherwise.
  explicit Cartesian(std::vector<int> dims);

  // "4x4x2" (also "4X4X2" or "4*4*2"); throws ccl::Error naming the text when it is not one.
  static Cartesian parse(std::string_view text);
  // A shape of `ndims` dimensions for `size` members, as even as can be, largest first (what
  // MPI_Dims_create gives): 12 in 2 → 4x3, 8 in 3 → 2x2x2, 7 in 2 → 7x1.
  static Cartesian balanced(int size, int ndims);

  int ndims() const { return static_cast<int>(dims_.size()); }
  int size() const { return size_; }
  int dim(int i) const { return dims_[static_cast<std::size_t>(i)]; }
  std::span<const int> dims() const { return dims_; }
  std::string str() const;  // "4x4x2"
  // As a torus: hops between the farthest two members (Σ ⌊di/2⌋), and links per member (a + and
  // a − link in every dimension of size > 1).
  int torus_diameter() const;
  int torus_links() const;

  std::vector<int> coords(int rank) const;
  // Coordinates out of range wrap around (a torus): (−1, 0) in 2x3 is rank 3.
  int rank(std::span<const int> coords) const;
  // The member `step` places along dimension `d` from `rank`, with wrap-around.
  int neighbour(int rank, int d, int step) const;

  // Sub-shapes: `free[d]` true keeps dimension d, false fixes it. Members that agree on every
  // fixed coordinate form one sub-shape; `sub_index` numbers the sub-shapes (row-major over the
  // fixed dimensions), `sub_rank` is the member's rank inside its own (row-major over the free
  // dimensions), and `sub_shape` is the shape they all have.
  int sub_index(int rank, const std::vector<bool>& free) const;
  int sub_rank(int rank, const std::vector<bool>& free) const;
  Cartesian sub_shape(const std::vector<bool>& free) const;

  friend bool operator==(const Cartesian&, const Cartesian&) = default;

 private:
  void check_free(const std::vector<bool>& free) const;
  std::vector<int> dims_;
  int size_ = 1;
};

}  // namespace ccl::grids
