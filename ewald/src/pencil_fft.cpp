#include "ewald/pencil_fft.hpp"

#include <fftw3.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "ccl/collectives.hpp"
#include "ccl/group.hpp"
#include "ewald/work_meter.hpp"

namespace ewald {

namespace {

int block_lo(int n, int parts, int i) {
  return static_cast<int>(static_cast<long>(n) * i / parts);
}

}  // namespace

PencilFft::PencilFft(const ccl::grids::Grid2D& grid, std::array<int, 3> n)
    : row_(grid.row_group()), column_(grid.column_group()), n_(n) {
  const int r = column_.rank(), rows = column_.size(), c = row_.rank(), cols = row_.size();
  for (int d = 0; d < 3; ++d) {
    if (n[std::size_t(d)] < std::max(rows, cols))
      throw std::invalid_argument("PencilFft: mesh smaller than the grid");
  }
  auto split = [&](MeshBox& b, int axis, int parts, int i) {
    b.lo[std::size_t(axis)] = block_lo(n[std::size_t(axis)], parts, i);
    b.hi[std::size_t(axis)] = block_lo(n[std::size_t(axis)], parts, i + 1);
  };
  // Strides of a box stored with axes slow → fast.
  auto stored = [](const MeshBox& b, int slow, int middle, int fast) {
    Layout l{b, {}};
    l.stride[std::size_t(fast)] = 1;
    l.stride[std::size_t(middle)] = std::size_t(b.size(fast));
    l.stride[std::size_t(slow)] = std::size_t(b.size(fast)) * std::size_t(b.size(middle));
    return l;
  };
  MeshBox xb{{0, 0, 0}, n}, yb{{0, 0, 0}, n}, zb{{0, 0, 0}, n};
  split(xb, 1, rows, r), split(xb, 2, cols, c);
  split(yb, 0, rows, r), split(yb, 2, cols, c);
  split(zb, 0, rows, r), split(zb, 1, cols, c);
  x_ = stored(xb, 2, 1, 0);
  y_ = rows == 1 ? x_ : stored(yb, 2, 0, 1);
  z_ = cols == 1 ? y_ : stored(zb, 0, 1, 2);
  buffer_.resize(std::max({xb.points(), yb.points(), zb.points()}));
  const Layout* stage[3] = {&x_, &y_, &z_};
  for (int axis = 0; axis < 3; ++axis) {
    const Layout& l = *stage[axis];
    fftw_iodim line{n[std::size_t(axis)], static_cast<int>(l.stride[std::size_t(axis)]),
                    static_cast<int>(l.stride[std::size_t(axis)])};
    fftw_iodim loops[2];
    int k = 0;
    for (int other = 0; other < 3; ++other) {
      if (other == axis) continue;
      const int stride = static_cast<int>(l.stride[std::size_t(other)]);
      loops[k++] = fftw_iodim{l.box.size(other), stride, stride};
    }
    auto* d = reinterpret_cast<fftw_complex*>(buffer_.data());
    for (int dir = 0; dir < 2; ++dir) {
      plans_[std::size_t(2 * axis + dir)] =
          fftw_plan_guru_dft(1, &line, 2, loops, d, d, dir == 0 ? FFTW_FORWARD : FFTW_BACKWARD,
                             FFTW_MEASURE | FFTW_UNALIGNED);
    }
  }
}

PencilFft::~PencilFft() {
  for (void* p : plans_) {
    if (p != nullptr) fftw_destroy_plan(static_cast<fftw_plan>(p));
  }
}

void PencilFft::fft_lines(std::vector<Complex>& data, int axis, int sign) {
  auto plan =
      static_cast<fftw_plan>(plans_[std::size_t(2 * axis + (sign == FFTW_FORWARD ? 0 : 1))]);
  auto* d = reinterpret_cast<fftw_complex*>(data.data());
  const Layout& stage = axis == 0 ? x_ : axis == 1 ? y_ : z_;
  const WorkRegion region(
      Kernel::fft, 5.0 * double(stage.box.points()) * std::log2(double(n_[std::size_t(axis)])));
  fftw_execute_dft(plan, d, d);
}

void PencilFft::transpose(std::vector<Complex>& data, const Layout& from, const Layout& to, int a,
                          int b, const ccl::Group& g) {
  const int members = g.size(), third = 3 - a - b;
  const auto A = std::size_t(a), B = std::size_t(b), T = std::size_t(third);
  std::vector<std::size_t> send_counts(static_cast<std::size_t>(members)),
      recv_counts(send_counts.size());
  exchange_.resize(from.box.points());
  std::size_t k = 0;
  // To member p: a in p's block of a, b in this member's block, the third axis as held.
  for (int p = 0; p < members; ++p) {
    const int a0 = block_lo(n_[A], members, p), a1 = block_lo(n_[A], members, p + 1);
    const std::size_t begin = k;
    for (int t = from.box.lo[T]; t < from.box.hi[T]; ++t) {
      for (int y = from.box.lo[B]; y < from.box.hi[B]; ++y) {
        const std::size_t base = std::size_t(t - from.box.lo[T]) * from.stride[T] +
                                 std::size_t(y - from.box.lo[B]) * from.stride[B];
        for (int x = a0; x < a1; ++x)
          exchange_[k++] = data[base + std::size_t(x - from.box.lo[A]) * from.stride[A]];
      }
    }
    send_counts[std::size_t(p)] = k - begin;
    const int b0 = block_lo(n_[B], members, p), b1 = block_lo(n_[B], members, p + 1);
    recv_counts[std::size_t(p)] =
        std::size_t(to.box.size(third)) * std::size_t(b1 - b0) * std::size_t(to.box.size(a));
  }
  received_.resize(to.box.points());
  ccl::indexv(g, std::span<const Complex>(exchange_.data(), k), send_counts, received_,
              recv_counts);
  data.resize(std::max(data.size(), to.box.points()));
  k = 0;
  // From member p: p's block of b, this member's block of a, in the order p packed them.
  for (int p = 0; p < members; ++p) {
    const int b0 = block_lo(n_[B], members, p), b1 = block_lo(n_[B], members, p + 1);
    for (int t = to.box.lo[T]; t < to.box.hi[T]; ++t) {
      for (int y = b0; y < b1; ++y) {
        const std::size_t base = std::size_t(t - to.box.lo[T]) * to.stride[T] +
                                 std::size_t(y - to.box.lo[B]) * to.stride[B];
        for (int x = to.box.lo[A]; x < to.box.hi[A]; ++x)
          data[base + std::size_t(x - to.box.lo[A]) * to.stride[A]] = received_[k++];
      }
    }
  }
}

void PencilFft::forward(std::vector<Complex>& data) {
  data.resize(buffer_.size());
  fft_lines(data, 0, FFTW_FORWARD);
  if (column_.size() > 1) transpose(data, x_, y_, 0, 1, column_);
  fft_lines(data, 1, FFTW_FORWARD);
  if (row_.size() > 1) transpose(data, y_, z_, 1, 2, row_);
  fft_lines(data, 2, FFTW_FORWARD);
}

void PencilFft::backward(std::vector<Complex>& data) {
  data.resize(buffer_.size());
  fft_lines(data, 2, FFTW_BACKWARD);
  if (row_.size() > 1) transpose(data, z_, y_, 2, 1, row_);
  fft_lines(data, 1, FFTW_BACKWARD);
  if (column_.size() > 1) transpose(data, y_, x_, 1, 0, column_);
  fft_lines(data, 0, FFTW_BACKWARD);
}

}  // namespace ewald
