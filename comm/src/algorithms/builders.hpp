// Schedule builders of the algorithm catalog, one per file in this folder.
#pragma once

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

}  // namespace ccl::algorithms
