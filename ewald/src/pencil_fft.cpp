#include "ewald/pencil_fft.hpp"

#include <fftw3.h>

#include <algorithm>
#include <stdexcept>

#include "ccl/ccl.hpp"

namespace ewald {

namespace {

int block_lo(int n, int parts, int i) { return static_cast<int>(static_cast<long>(n) * i / parts); }

// Lines along `axis` in the pencil layout where that axis is the fastest: count and length.
fftw_plan plan_lines(int length, int lines, int sign, Complex* data) {
  auto* d = reinterpret_cast<fftw_complex*>(data);
  return fftw_plan_many_dft(1, &length, lines, d, nullptr, 1, length, d, nullptr, 1, length, sign, FFTW_ESTIMATE | FFTW_UNALIGNED);
}

}  // namespace

PencilFft::PencilFft(const ccl::grids::Grid2D& grid, std::array<int, 3> n)
    : row_(grid.row_group()),
      column_(grid.column_group()),
      n_(n),
      r_(grid.column_group().rank()),
      c_(grid.row_group().rank()),
      rows_(grid.column_group().size()),
      cols_(grid.row_group().size()) {
  for (int d = 0; d < 3; ++d) {
    if (n[std::size_t(d)] < std::max(rows_, cols_)) throw std::invalid_argument("PencilFft: mesh smaller than the grid");
  }
  auto block = [&](int axis, int parts, int i, MeshBox& b) {
    b.lo[std::size_t(axis)] = block_lo(n[std::size_t(axis)], parts, i);
    b.hi[std::size_t(axis)] = block_lo(n[std::size_t(axis)], parts, i + 1);
  };
  x_box_ = MeshBox{{0, 0, 0}, n};
  block(1, rows_, r_, x_box_);
  block(2, cols_, c_, x_box_);
  y_box_ = MeshBox{{0, 0, 0}, n};
  block(0, rows_, r_, y_box_);
  block(2, cols_, c_, y_box_);
  z_box_ = MeshBox{{0, 0, 0}, n};
  block(0, rows_, r_, z_box_);
  block(1, cols_, c_, z_box_);
  std::size_t most = std::max({x_box_.points(), y_box_.points(), z_box_.points()});
  buffer_.resize(most);
  const MeshBox* boxes[3] = {&x_box_, &y_box_, &z_box_};
  for (int axis = 0; axis < 3; ++axis) {
    const MeshBox& b = *boxes[axis];
    const int lines = static_cast<int>(b.points() / std::size_t(n[std::size_t(axis)]));
    plans_[std::size_t(2 * axis)] = plan_lines(n[std::size_t(axis)], lines, FFTW_FORWARD, buffer_.data());
    plans_[std::size_t(2 * axis + 1)] = plan_lines(n[std::size_t(axis)], lines, FFTW_BACKWARD, buffer_.data());
  }
}

PencilFft::~PencilFft() {
  for (void* p : plans_) {
    if (p != nullptr) fftw_destroy_plan(static_cast<fftw_plan>(p));
  }
}

void PencilFft::fft_lines(std::vector<Complex>& data, int axis, int sign) {
  auto plan = static_cast<fftw_plan>(plans_[std::size_t(2 * axis + (sign == FFTW_FORWARD ? 0 : 1))]);
  auto* d = reinterpret_cast<fftw_complex*>(data.data());
  fftw_execute_dft(plan, d, d);
}

// x-pencils [z][y][x] ⇄ y-pencils [z][x][y] within the grid column (members r' = 0..R−1).
void PencilFft::x_to_y(std::vector<Complex>& data, bool reverse) {
  const int nz = x_box_.size(2), ny_mine = x_box_.size(1), nx_mine = y_box_.size(0);
  std::vector<std::size_t> counts_send(static_cast<std::size_t>(rows_)), counts_recv(static_cast<std::size_t>(rows_));
  for (int p = 0; p < rows_; ++p) {
    const int nx_p = block_lo(n_[0], rows_, p + 1) - block_lo(n_[0], rows_, p);
    const int ny_p = block_lo(n_[1], rows_, p + 1) - block_lo(n_[1], rows_, p);
    // forward: to p goes (z, my y-block, p's x-block); from p comes (z, p's y-block, my x-block)
    counts_send[std::size_t(p)] = std::size_t(nz) * std::size_t(reverse ? ny_p * nx_mine : ny_mine * nx_p);
    counts_recv[std::size_t(p)] = std::size_t(nz) * std::size_t(reverse ? ny_mine * nx_p : ny_p * nx_mine);
  }
  exchange_.resize(std::max(x_box_.points(), y_box_.points()));
  std::vector<Complex>& packed = exchange_;
  std::size_t k = 0;
  for (int p = 0; p < rows_; ++p) {
    const int x0 = block_lo(n_[0], rows_, p), x1 = block_lo(n_[0], rows_, p + 1);
    const int y0 = block_lo(n_[1], rows_, p), y1 = block_lo(n_[1], rows_, p + 1);
    for (int z = 0; z < nz; ++z) {
      if (!reverse) {  // from [z][y][x]: my y rows, p's x columns
        for (int y = 0; y < ny_mine; ++y) {
          for (int x = x0; x < x1; ++x) packed[k++] = data[(std::size_t(z) * ny_mine + y) * n_[0] + x];
        }
      } else {  // from [z][x][y]: my x rows, p's y columns
        for (int x = 0; x < nx_mine; ++x) {
          for (int y = y0; y < y1; ++y) packed[k++] = data[(std::size_t(z) * nx_mine + x) * n_[1] + y];
        }
      }
    }
  }
  std::vector<Complex> received(reverse ? x_box_.points() : y_box_.points());
  ccl::indexv(column_, std::span<const Complex>(packed.data(), k), counts_send, received, counts_recv);
  data.resize(received.size());
  k = 0;
  for (int p = 0; p < rows_; ++p) {
    const int x0 = block_lo(n_[0], rows_, p), x1 = block_lo(n_[0], rows_, p + 1);
    const int y0 = block_lo(n_[1], rows_, p), y1 = block_lo(n_[1], rows_, p + 1);
    for (int z = 0; z < nz; ++z) {
      if (!reverse) {  // into [z][x][y]: p's y rows
        for (int y = y0; y < y1; ++y) {
          for (int x = 0; x < nx_mine; ++x) data[(std::size_t(z) * nx_mine + x) * n_[1] + y] = received[k++];
        }
      } else {  // into [z][y][x]: p's x columns
        for (int x = x0; x < x1; ++x) {
          for (int y = 0; y < ny_mine; ++y) data[(std::size_t(z) * ny_mine + y) * n_[0] + x] = received[k++];
        }
      }
    }
  }
}

// y-pencils [z][x][y] ⇄ z-pencils [x][y][z] within the grid row (members c' = 0..C−1).
void PencilFft::y_to_z(std::vector<Complex>& data, bool reverse) {
  const int nx = y_box_.size(0), nz_mine = y_box_.size(2), ny_mine = z_box_.size(1);
  std::vector<std::size_t> counts_send(static_cast<std::size_t>(cols_)), counts_recv(static_cast<std::size_t>(cols_));
  for (int p = 0; p < cols_; ++p) {
    const int ny_p = block_lo(n_[1], cols_, p + 1) - block_lo(n_[1], cols_, p);
    const int nz_p = block_lo(n_[2], cols_, p + 1) - block_lo(n_[2], cols_, p);
    counts_send[std::size_t(p)] = std::size_t(nx) * std::size_t(reverse ? nz_p * ny_mine : nz_mine * ny_p);
    counts_recv[std::size_t(p)] = std::size_t(nx) * std::size_t(reverse ? nz_mine * ny_p : nz_p * ny_mine);
  }
  exchange_.resize(std::max(y_box_.points(), z_box_.points()));
  std::vector<Complex>& packed = exchange_;
  std::size_t k = 0;
  for (int p = 0; p < cols_; ++p) {
    const int y0 = block_lo(n_[1], cols_, p), y1 = block_lo(n_[1], cols_, p + 1);
    const int z0 = block_lo(n_[2], cols_, p), z1 = block_lo(n_[2], cols_, p + 1);
    if (!reverse) {  // from [z][x][y]: my z planes, p's y columns; packed (z, x, y)
      for (int z = 0; z < nz_mine; ++z) {
        for (int x = 0; x < nx; ++x) {
          for (int y = y0; y < y1; ++y) packed[k++] = data[(std::size_t(z) * nx + x) * n_[1] + y];
        }
      }
    } else {  // from [x][y][z]: p's z range; packed (z, x, y)
      for (int z = z0; z < z1; ++z) {
        for (int x = 0; x < nx; ++x) {
          for (int y = 0; y < ny_mine; ++y) packed[k++] = data[(std::size_t(x) * ny_mine + y) * n_[2] + z];
        }
      }
    }
  }
  std::vector<Complex> received(reverse ? y_box_.points() : z_box_.points());
  ccl::indexv(row_, std::span<const Complex>(packed.data(), k), counts_send, received, counts_recv);
  data.resize(received.size());
  k = 0;
  for (int p = 0; p < cols_; ++p) {
    const int y0 = block_lo(n_[1], cols_, p), y1 = block_lo(n_[1], cols_, p + 1);
    const int z0 = block_lo(n_[2], cols_, p), z1 = block_lo(n_[2], cols_, p + 1);
    if (!reverse) {  // into [x][y][z]: p's z range
      for (int z = z0; z < z1; ++z) {
        for (int x = 0; x < nx; ++x) {
          for (int y = 0; y < ny_mine; ++y) data[(std::size_t(x) * ny_mine + y) * n_[2] + z] = received[k++];
        }
      }
    } else {  // into [z][x][y]: p's y columns
      for (int z = 0; z < nz_mine; ++z) {
        for (int x = 0; x < nx; ++x) {
          for (int y = y0; y < y1; ++y) data[(std::size_t(z) * nx + x) * n_[1] + y] = received[k++];
        }
      }
    }
  }
}

void PencilFft::forward(std::vector<Complex>& data) {
  fft_lines(data, 0, FFTW_FORWARD);
  x_to_y(data, false);
  fft_lines(data, 1, FFTW_FORWARD);
  y_to_z(data, false);
  fft_lines(data, 2, FFTW_FORWARD);
}

void PencilFft::backward(std::vector<Complex>& data) {
  fft_lines(data, 2, FFTW_BACKWARD);
  y_to_z(data, true);
  fft_lines(data, 1, FFTW_BACKWARD);
  x_to_y(data, true);
  fft_lines(data, 0, FFTW_BACKWARD);
}

}  // namespace ewald
