#include "ccl/grids/hypercube.hpp"

#include <bit>

#include "ccl/error.hpp"

namespace ccl::grids {

namespace {

int dims_of(int size) {
  if (size < 1 || !std::has_single_bit(static_cast<unsigned>(size))) {
    throw Error("ccl::grids::Hypercube: " + std::to_string(size) +
                " members is not a power of two");
  }
  return std::countr_zero(static_cast<unsigned>(size));
}

}  // namespace

Hypercube::Hypercube(const Group& g) : group_(g), dims_(dims_of(g.size())) {}

int Hypercube::neighbour_of(int rank, int i) const {
  if (i < 0 || i >= dims_) {
    throw Error("ccl::grids::Hypercube: no dimension " + std::to_string(i) + " in a " +
                std::to_string(dims_) + "-cube");
  }
  return rank ^ (1 << i);
}

Split Hypercube::subcube_split(int dims, int rank, const std::vector<bool>& free) {
  if (static_cast<int>(free.size()) != dims) {
    throw Error("ccl::grids::Hypercube: " + std::to_string(free.size()) +
                " free/fixed flags for a " + std::to_string(dims) + "-cube");
  }
  Split s;
  int next_bit = 0;
  for (int i = 0; i < dims; ++i) {
    const int bit = (rank >> i) & 1;
    if (free[static_cast<std::size_t>(i)]) {
      s.key |= bit << next_bit++;
    } else {
      s.color |= bit << i;
    }
  }
  return s;
}

Group Hypercube::subcube(const std::vector<bool>& free) const {
  const Split s = subcube_split(dims_, group_.rank(), free);
  return form(group_, s, group_.label() + " subcube " + std::to_string(s.color));
}

std::vector<Group> Hypercube::subcube_all(sim::World& world, std::span<const Group> views,
                                          const std::vector<bool>& free) {
  const int d = dims_of(static_cast<int>(views.size()));
  return form(world, views, [&](int r) { return subcube_split(d, r, free); });
}

}  // namespace ccl::grids
