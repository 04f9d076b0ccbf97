// Classic Ewald reciprocal-space sum over the k-vectors k = 2π (nx/Lx, ny/Ly, nz/Lz) with
// |n_d| ≤ kmax_d and |k|² ≤ k²_max, one of each ±k pair (the sum over both is twice it).
//
// exp(i k·r) of every atom is a product of three one-dimensional phases exp(i 2π n_d x_d / L_d),
// tabulated for n = 0..kmax_d by the recursion exp(i(n+1)θ) = exp(inθ) exp(iθ): one sin and cos
// per atom and dimension instead of one per atom and k-vector. Vectors come ordered by (nx, ny),
// so the x·y product is formed once per (nx, ny) column.
// Cost: O(N Σ_d kmax_d) for the tables, then O(N) complex products per k-vector for S(k) and
// again for the forces.
#pragma once

#include <vector>

#include "ewald/coulomb.hpp"
#include "ewald/parameters.hpp"

namespace ewald {

struct KVector {
  int nx, ny, nz;   // integer indices, nx ≥ 0
  double kx, ky, kz;
  double weight;  // 2 · exp(−k²/4g²)/k² (both ±k)
};

// The half-space k-vectors of a setting, ordered by nx, then ny, then nz.
std::vector<KVector> k_vectors(const EwaldParameters& p, const Vec3& box);

// The reciprocal-space energy and virial of k-vectors [k_begin, k_end), and their forces added to
// f. Every atom's position is needed (S(k) sums over all of them).
Energy kspace(const Positions& x, const Charges& q, const std::vector<KVector>& ks, std::size_t k_begin,
              std::size_t k_end, double g, const Vec3& box, double qqr2e, const Forces& f);

}  // namespace ewald
