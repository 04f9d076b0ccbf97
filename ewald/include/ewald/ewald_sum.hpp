// Classic Ewald reciprocal-space sum over the k-vectors k = 2π (nx/Lx, ny/Ly, nz/Lz) with
// |n_d| ≤ kmax_d and |k|² ≤ k²_max, one of each ±k pair (the sum over both is twice it).
//
// exp(i k·r) of every atom is a product of three one-dimensional phases exp(i 2π n_d x_d / L_d),
// tabulated for n = 0..kmax_d by the recursion exp(i(n+1)θ) = exp(inθ) exp(iθ): one sin and cos
// per atom and dimension instead of one per atom and k-vector. The vectors (nx, ±ny, ±nz) share
// |k| and their phase products, so they are summed as a group of up to four in one pass over the
// atoms (and a second pass for the forces).
// Cost: O(N Σ_d kmax_d) for the tables, then O(N) per group for S(k) and again for the forces.
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

#include "ewald/coulomb.hpp"
#include "ewald/parameters.hpp"
#include "ewald/phase_tables.hpp"

namespace ewald {

// The vectors (nx, sy·ny, sz·nz) of one |n| per axis, nx, ny, nz ≥ 0, that lie in the half space;
// slot s = 2·(sy < 0) + (sz < 0) is a member when bit s of `slots` is set, and a member weighs
// w = 2 exp(−k²/4g²)/k² (the four share |k|). k and k² follow from n and the box: 16 bytes a
// group, since every member of a large job holds them all (80,317 vectors at 57,344 ions).
struct KGroup {
  std::int16_t nx, ny, nz;
  std::uint8_t slots;
  double w;
  bool member(int slot) const { return (slots >> slot & 1) != 0; }
  double weight(int slot) const { return member(slot) ? w : 0.0; }
  // k = 2π (nx/Lx, ny/Ly, nz/Lz), the + + slot's, and |k|².
  Vec3 k(const Vec3& box) const {
    return {2 * M_PI / box[0] * nx, 2 * M_PI / box[1] * ny, 2 * M_PI / box[2] * nz};
  }
  double k2(const Vec3& box) const {
    const Vec3 v = k(box);
    return v[0] * v[0] + v[1] * v[1] + v[2] * v[2];
  }
};

// The groups of a setting, and how many vectors they hold.
std::vector<KGroup> k_groups(const EwaldParameters& p, const Vec3& box);
std::size_t k_vector_count(const std::vector<KGroup>& groups);

// The reciprocal-space energy and virial of groups [begin, end), and their forces added to f.
// Every atom's position is needed (S(k) sums over all of them). `tables`: the phase tables' memory,
// kept by the caller from step to step (allocated again only when too small).
Energy kspace(const Positions& x, const Charges& q, const std::vector<KGroup>& groups,
              std::size_t begin, std::size_t end, double g, const Vec3& box, double qqr2e,
              const Forces& f, detail::PhaseTables& tables);

}  // namespace ewald
