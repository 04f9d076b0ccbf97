#include "md/neighbor.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <vector>

#include "ewald/work_meter.hpp"

namespace md {

namespace {

// Cells are at least list_cut / kReach wide, so neighbours lie within kReach cells per axis.
constexpr int kReach = 2;

// One axis's share of a stencil entry: a cell along the axis, which image of it, its offset from
// the row's cell counting images (cell + image · cells − the row's cell), and the gap between
// the two cells (0 when adjacent).
struct AxisCandidate {
  int cell, image, offset;
  double gap;
};

// The cells (and images) along one axis of `cells` cells of width w that may hold neighbours of an
// atom in cell c: the offsets −kReach..kReach with the image their wrap implies, or, when the
// axis has too few cells for those to be distinct, every cell in each of the images −1, 0, 1.
std::vector<AxisCandidate> axis_candidates(int c, int cells, double w) {
  std::vector<AxisCandidate> out;
  if (cells >= 2 * kReach + 1) {
    for (int o = -kReach; o <= kReach; ++o) {
      const int raw = c + o;
      out.push_back({(raw + cells) % cells, raw < 0 ? -1 : (raw >= cells ? 1 : 0), o,
                     std::max(0, std::abs(o) - 1) * w});
    }
  } else {
    for (int cell = 0; cell < cells; ++cell) {
      for (int m = -1; m <= 1; ++m) out.push_back({cell, m, cell + m * cells - c, 0.0});
    }
  }
  return out;
}

}  // namespace

void NeighborList::build(const Positions& x, const Vec3& lo, const Vec3& len, std::size_t row_begin,
                         std::size_t row_end) {
  std::vector<std::size_t> identity(x.extent(0));
  for (std::size_t i = 0; i < identity.size(); ++i) identity[i] = i;
  build(x, lo, len, row_begin, row_end, 0, x.extent(0), identity);
}

void NeighborList::build(const Positions& x, const Vec3& lo, const Vec3& len, std::size_t row_begin,
                         std::size_t row_end, std::size_t candidate_begin,
                         std::size_t candidate_end, const std::vector<std::size_t>& global) {
  const std::size_t n = x.extent(0);
  const double list_cut = cutoff_ + skin_;
  const double cut2 = list_cut * list_cut;
  // Cells at least list_cut / kReach wide, but no more of them than about two per candidate (a
  // dilute box would otherwise ask for more cells than memory holds); wider cells stay correct.
  std::array<double, 3> want{};
  double total = 1;
  for (std::size_t d = 0; d < 3; ++d) {
    want[d] = std::max(1.0, std::floor(len[d] * kReach / list_cut));
    total *= want[d];
  }
  const double limit = std::max(125.0, 2.0 * double(candidate_end - candidate_begin));
  const double shrink = total > limit ? std::cbrt(total / limit) : 1.0;
  std::array<int, 3> cells{};
  Vec3 width{};
  for (std::size_t d = 0; d < 3; ++d) {
    cells[d] = static_cast<int>(std::max(1.0, std::floor(want[d] / shrink)));
    width[d] = len[d] / cells[d];
  }
  const std::size_t ncells = std::size_t(cells[0]) * std::size_t(cells[1]) * std::size_t(cells[2]);
  auto cell_along = [&](std::size_t i, std::size_t d) {
    return std::clamp(static_cast<int>(std::floor((x(i, d) - lo[d]) / width[d])), 0, cells[d] - 1);
  };
  auto flat = [&](int cx, int cy, int cz) {
    return (std::size_t(cx) * std::size_t(cells[1]) + std::size_t(cy)) * std::size_t(cells[2]) +
           std::size_t(cz);
  };
  // Counting sort of the candidates into cells; their positions copied in cell order.
  std::vector<std::size_t> cell_of(n), start(ncells + 1, 0);
  std::optional<ewald::WorkRegion> bin(std::in_place, ewald::Kernel::neighbor_bin,
                                       double(candidate_end - candidate_begin));
  for (std::size_t i = candidate_begin; i < candidate_end; ++i) {
    cell_of[i] = flat(cell_along(i, 0), cell_along(i, 1), cell_along(i, 2));
    ++start[cell_of[i] + 1];
  }
  for (std::size_t c = 0; c < ncells; ++c) start[c + 1] += start[c];
  const std::size_t m = candidate_end - candidate_begin;
  std::vector<int> sorted(m);
  std::vector<double> sorted_x(3 * m);
  {
    std::vector<std::size_t> fill(start.begin(), start.end() - 1);
    for (std::size_t i = candidate_begin; i < candidate_end; ++i) {
      const std::size_t slot = fill[cell_of[i]]++;
      sorted[slot] = static_cast<int>(i);
      for (std::size_t d = 0; d < 3; ++d) sorted_x[3 * slot + d] = x(i, d);
    }
  }
  bin.reset();
  shifts = Kokkos::View<double[27][3]>("image shifts");
  for (int code = 0; code < kImages; ++code) {
    const int mm[3] = {code / 9 - 1, code / 3 % 3 - 1, code % 3 - 1};
    for (std::size_t d = 0; d < 3; ++d) shifts(std::size_t(code), d) = mm[d] * len[d];
  }
  std::vector<std::size_t> offs{0};
  std::vector<int> list;
  list.reserve(pairs());  // the last build's size: a good guess
  ewald::WorkRegion checks(ewald::Kernel::neighbor);
  for (std::size_t i = row_begin; i < row_end; ++i) {
    const std::size_t gi = global[i];
    const std::array<std::vector<AxisCandidate>, 3> around{
        axis_candidates(cell_along(i, 0), cells[0], width[0]),
        axis_candidates(cell_along(i, 1), cells[1], width[1]),
        axis_candidates(cell_along(i, 2), cells[2], width[2])};
    const double xi = x(i, 0), yi = x(i, 1), zi = x(i, 2);
    for (const AxisCandidate& ax : around[0]) {
      for (const AxisCandidate& ay : around[1]) {
        if (ax.gap * ax.gap + ay.gap * ay.gap >= cut2) continue;
        for (const AxisCandidate& az : around[2]) {
          if (ax.gap * ax.gap + ay.gap * ay.gap + az.gap * az.gap >= cut2) continue;
          // Each pair once: the row holds partners whose cell (with its image) lies ahead of its
          // own, by offset (z, y, x) compared lexicographically; in its own cell, those of higher
          // global index. The rule is the same seen from either atom, whoever holds which.
          const int ahead = az.offset != 0 ? az.offset : (ay.offset != 0 ? ay.offset : ax.offset);
          if (ahead < 0 && !full_) continue;
          // x_i − (x_j + m L): the image of j displaced by m boxes
          const double sx = xi - ax.image * len[0], sy = yi - ay.image * len[1],
                       sz = zi - az.image * len[2];
          const int code =
              (ax.image + 1) * 9 + (ay.image + 1) * 3 + (az.image + 1);  // shifts(code) = m L
          const std::size_t k = flat(ax.cell, ay.cell, az.cell);
          checks.add(double(start[k + 1] - start[k]));
          for (std::size_t slot = start[k]; slot < start[k + 1]; ++slot) {
            const std::size_t gj = global[std::size_t(sorted[slot])];
            if (ahead == 0 && (full_ ? gj == gi : gj <= gi)) continue;  // also skips itself
            const double dx = sx - sorted_x[3 * slot], dy = sy - sorted_x[3 * slot + 1],
                         dz = sz - sorted_x[3 * slot + 2];
            if (dx * dx + dy * dy + dz * dz >= cut2) continue;
            list.push_back(sorted[slot] * kImages + code);
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
  ++builds_;
}

}  // namespace md
