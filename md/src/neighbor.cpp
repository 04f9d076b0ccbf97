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
  std::vector<std::size_t> identity(x.extent(0));
  for (std::size_t i = 0; i < identity.size(); ++i) identity[i] = i;
  build(x, lo, len, row_begin, row_end, 0, x.extent(0), identity);
}

void NeighborList::build(const Positions& x, const Vec3& lo, const Vec3& len, std::size_t row_begin,
                         std::size_t row_end, std::size_t candidate_begin, std::size_t candidate_end,
                         const std::vector<std::size_t>& global) {
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
  }
  for (std::size_t i = candidate_begin; i < candidate_end; ++i) ++start[flat(cell_of[i]) + 1];
  for (std::size_t c = 0; c < ncells; ++c) start[c + 1] += start[c];
  std::vector<int> sorted(candidate_end - candidate_begin);
  {
    std::vector<std::size_t> fill(start.begin(), start.end() - 1);
    for (std::size_t i = candidate_begin; i < candidate_end; ++i) sorted[fill[flat(cell_of[i])]++] = static_cast<int>(i);
  }
  const std::array<std::vector<int>, 3> around{offsets_for(cells[0]), offsets_for(cells[1]), offsets_for(cells[2])};
  shifts = Kokkos::View<double[27][3]>("image shifts");
  for (int code = 0; code < kImages; ++code) {
    const int m[3] = {code / 9 - 1, code / 3 % 3 - 1, code % 3 - 1};
    for (std::size_t d = 0; d < 3; ++d) shifts(std::size_t(code), d) = m[d] * len[d];
  }
  const double cut2 = list_cut * list_cut;
  std::vector<std::size_t> offs{0};
  std::vector<int> list;
  for (std::size_t i = row_begin; i < row_end; ++i) {
    for (int ox : around[0]) {
      for (int oy : around[1]) {
        for (int oz : around[2]) {
          const int o[3] = {ox, oy, oz};
          std::array<int, 3> c{};
          // Images to try per axis: the one the cell offset wraps to, or all three when the axis
          // has fewer than three cells (then one cell holds several images of a neighbour).
          int image_lo[3], image_hi[3];
          for (std::size_t d = 0; d < 3; ++d) {
            const int raw = cell_of[i][d] + o[d];
            c[d] = (raw + cells[d]) % cells[d];
            if (cells[d] < 3) {
              image_lo[d] = -1, image_hi[d] = 1;
            } else {
              image_lo[d] = image_hi[d] = raw < 0 ? -1 : (raw >= cells[d] ? 1 : 0);
            }
          }
          const std::size_t k = flat(c);
          for (std::size_t s = start[k]; s < start[k + 1]; ++s) {
            const auto j = static_cast<std::size_t>(sorted[s]);
            if (global[j] == global[i] || !owns_pair(global[i], global[j])) continue;
            for (int mx = image_lo[0]; mx <= image_hi[0]; ++mx) {
              for (int my = image_lo[1]; my <= image_hi[1]; ++my) {
                for (int mz = image_lo[2]; mz <= image_hi[2]; ++mz) {
                  // x_i − (x_j + m L): the image of j displaced by m boxes
                  const double dx = x(i, 0) - x(j, 0) - mx * len[0];
                  const double dy = x(i, 1) - x(j, 1) - my * len[1];
                  const double dz = x(i, 2) - x(j, 2) - mz * len[2];
                  if (dx * dx + dy * dy + dz * dz >= cut2) continue;
                  const int code = (mx + 1) * 9 + (my + 1) * 3 + (mz + 1);  // shifts(code) = m L
                  list.push_back(static_cast<int>(j) * kImages + code);
                }
              }
            }
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
