#include "md/neighbor.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace md {

namespace {

// The distinct cell offsets along one dimension of n cells: {-1, 0, 1} unless wrapping makes
// some of them the same cell.
std::vector<int> offsets_for(int n) {
  if (n == 1) return {0};
  if (n == 2) return {0, 1};
  return {-1, 0, 1};
}

// Whether row i holds the pair (i, j): each pair exactly once, and every row about half of its
// neighbours whatever the atom order (the rule "j > i" alone would load the first rows most).
bool owns_pair(std::size_t i, std::size_t j) { return j > i ? (i + j) % 2 == 0 : (j < i && (i + j) % 2 == 1); }

}  // namespace

void NeighborList::build(const Positions& x, const Vec3& lo, const Vec3& len, std::size_t row_begin,
                         std::size_t row_end) {
  const std::size_t n = x.extent(0);
  const double list_cut = cutoff_ + skin_;
  std::array<int, 3> cells{};
  for (std::size_t d = 0; d < 3; ++d) cells[d] = std::max(1, static_cast<int>(len[d] / list_cut));
  const std::size_t ncells = std::size_t(cells[0]) * std::size_t(cells[1]) * std::size_t(cells[2]);
  // Counting sort of the atoms into cells.
  std::vector<std::array<int, 3>> cell_of(n);
  std::vector<std::size_t> start(ncells + 1, 0);
  auto flat = [&](const std::array<int, 3>& c) {
    return (std::size_t(c[0]) * std::size_t(cells[1]) + std::size_t(c[1])) * std::size_t(cells[2]) + std::size_t(c[2]);
  };
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t d = 0; d < 3; ++d) {
      const int c = static_cast<int>(std::floor((x(i, d) - lo[d]) / len[d] * cells[d]));
      cell_of[i][d] = std::clamp(c, 0, cells[d] - 1);
    }
    ++start[flat(cell_of[i]) + 1];
  }
  for (std::size_t c = 0; c < ncells; ++c) start[c + 1] += start[c];
  std::vector<int> sorted(n);
  {
    std::vector<std::size_t> fill(start.begin(), start.end() - 1);
    for (std::size_t i = 0; i < n; ++i) sorted[fill[flat(cell_of[i])]++] = static_cast<int>(i);
  }
  const std::array<std::vector<int>, 3> around{offsets_for(cells[0]), offsets_for(cells[1]), offsets_for(cells[2])};
  const double cut2 = list_cut * list_cut;
  std::vector<std::size_t> offs{0};
  std::vector<int> list;
  for (std::size_t i = row_begin; i < row_end; ++i) {
    for (int ox : around[0]) {
      for (int oy : around[1]) {
        for (int oz : around[2]) {
          std::array<int, 3> c{(cell_of[i][0] + ox + cells[0]) % cells[0], (cell_of[i][1] + oy + cells[1]) % cells[1],
                               (cell_of[i][2] + oz + cells[2]) % cells[2]};
          const std::size_t k = flat(c);
          for (std::size_t s = start[k]; s < start[k + 1]; ++s) {
            const auto j = static_cast<std::size_t>(sorted[s]);
            if (!owns_pair(i, j)) continue;
            double r2 = 0;
            for (std::size_t d = 0; d < 3; ++d) {
              double dx = x(i, d) - x(j, d);
              dx -= len[d] * std::nearbyint(dx / len[d]);
              r2 += dx * dx;
            }
            if (r2 < cut2) list.push_back(static_cast<int>(j));
          }
        }
      }
    }
    offs.push_back(list.size());
  }
  offsets = Kokkos::View<std::size_t*>("neighbor offsets", offs.size());
  neighbors = Kokkos::View<int*>("neighbors", list.size());
  std::copy(offs.begin(), offs.end(), offsets.data());
  std::copy(list.begin(), list.end(), neighbors.data());
  row_begin_ = row_begin;
  if (x_at_build_.extent(0) != n) x_at_build_ = Positions("x at build", n);
  Kokkos::deep_copy(x_at_build_, x);
  ++builds_;
}

bool NeighborList::stale(const Positions& x) const {
  if (x_at_build_.extent(0) != x.extent(0)) return true;
  const double limit2 = 0.25 * skin_ * skin_;
  int moved = 0;
  const Positions old = x_at_build_;
  Kokkos::parallel_reduce(
      "md::neighbor_stale", Kokkos::RangePolicy<Kokkos::DefaultHostExecutionSpace>(0, x.extent(0)),
      KOKKOS_LAMBDA(std::size_t i, int& any) {
        const double dx = x(i, 0) - old(i, 0), dy = x(i, 1) - old(i, 1), dz = x(i, 2) - old(i, 2);
        if (dx * dx + dy * dy + dz * dz > limit2) any = 1;
      },
      Kokkos::Max<int>(moved));
  return moved > 0;  // the Max reducer starts from the lowest int
}

}  // namespace md
