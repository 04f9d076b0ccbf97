// Classic Ewald reciprocal-space sum over the k-vectors k = 2π (nx/Lx, ny/Ly, nz/Lz) with
// |n_d| ≤ kmax_d and |k|² ≤ k²_max, one of each ±k pair (the sum over both is twice it).
// Cost: O(N) per k-vector for the structure factor and again for the forces.
#pragma once

#include <vector>

#include "ewald/coulomb.hpp"
#include "ewald/parameters.hpp"

namespace ewald {

struct KVector {
  double kx, ky, kz;
  double weight;  // 2 · exp(−k²/4g²)/k² (both ±k)
};

// The half-space k-vectors of a setting.
std::vector<KVector> k_vectors(const EwaldParameters& p, const Vec3& box);

// The reciprocal-space energy and virial of k-vectors [k_begin, k_end), and their forces added to
// f. Every atom's position is needed (S(k) sums over all of them).
Energy kspace(const Positions& x, const Charges& q, const std::vector<KVector>& ks, std::size_t k_begin,
              std::size_t k_end, double g, double volume, double qqr2e, const Forces& f);

}  // namespace ewald
