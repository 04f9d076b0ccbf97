// Schedule builders of the algorithm catalog, one per file in this folder.
#pragma once

#include <vector>

#include "ccl/schedule.hpp"
#include "ccl/shape.hpp"

namespace ccl::algorithms {

Schedule bcast_binomial(const Shape& s);
Schedule reduce_binomial(const Shape& s);
Schedule combine_recursive_doubling(const Shape& s);
Schedule scatter_binomial(const Shape& s);
Schedule gather_binomial(const Shape& s);
Schedule concat_bruck(const Shape& s);
Schedule index_pairwise(const Shape& s);
Schedule prefix_recursive_doubling(const Shape& s);
Schedule shift_direct(const Shape& s);
Schedule sync_dissemination(const Shape& s);

// Shared helpers.
inline int lowest_bit(int v) { return v & -v; }
inline int mod(int a, int n) { return ((a % n) + n) % n; }

// Byte offsets of blocks in relative order (relative block j is member (j + root) mod n):
// entry j is the size of relative blocks [0, j); n + 1 entries.
inline std::vector<std::size_t> relative_offsets(const BlockLayout& abs, int root, int n) {
  std::vector<std::size_t> rel(static_cast<std::size_t>(n) + 1, 0);
  for (int j = 0; j < n; ++j) {
    rel[static_cast<std::size_t>(j) + 1] = rel[static_cast<std::size_t>(j)] + abs.bytes(mod(j + root, n));
  }
  return rel;
}

}  // namespace ccl::algorithms
