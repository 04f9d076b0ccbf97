// A distributed 3D complex FFT over a 2D grid of members (R rows × C columns), by pencils:
//
//   x-pencils   member (r, c) holds all x for y-block r (of R) and z-block c (of C); FFT along x
//   ── index within the grid column (R members): x is split, y gathered ──
//   y-pencils   all y for x-block r and z-block c; FFT along y
//   ── index within the grid row (C members): y is split (C ways), z gathered ──
//   z-pencils   all z for x-block r and y-block c; FFT along z
//
// and back the same way in reverse. Each transpose is one indexv (all-to-all) within a row or a
// column, so a 3D FFT of n³ points costs 2 start-up rounds of R − 1 and C − 1 messages and
// moves n³/(R C) complex values per member twice; the 1D FFTs are FFTW's.
#pragma once

#include <array>
#include <complex>
#include <vector>

#include "ccl/grids/grid2d.hpp"

namespace ewald {

using Complex = std::complex<double>;

// Index ranges [lo, hi) along x, y, z.
struct MeshBox {
  std::array<int, 3> lo, hi;
  int size(int d) const { return hi[std::size_t(d)] - lo[std::size_t(d)]; }
  std::size_t points() const { return std::size_t(size(0)) * std::size_t(size(1)) * std::size_t(size(2)); }
};

class PencilFft {
 public:
  PencilFft(const ccl::grids::Grid2D& grid, std::array<int, 3> n);
  ~PencilFft();
  PencilFft(const PencilFft&) = delete;
  PencilFft& operator=(const PencilFft&) = delete;

  // This member's x-pencil, stored [z][y][x] (x fastest), and z-pencil, stored [x][y][z].
  const MeshBox& x_pencil() const { return x_box_; }
  const MeshBox& z_pencil() const { return z_box_; }

  // x-pencil data (real space) → z-pencil data (k-space), e^(−i k·r) and unnormalised.
  void forward(std::vector<Complex>& data);
  // z-pencil data → x-pencil data, e^(+i k·r) and unnormalised (forward then backward gives n³×).
  void backward(std::vector<Complex>& data);

 private:
  void fft_lines(std::vector<Complex>& data, int axis, int sign);
  void x_to_y(std::vector<Complex>& data, bool reverse);
  void y_to_z(std::vector<Complex>& data, bool reverse);

  const ccl::Group row_, column_;  // members sharing this member's x-block / z-block
  std::array<int, 3> n_;
  int r_, c_, rows_, cols_;
  MeshBox x_box_, y_box_, z_box_;
  std::vector<Complex> buffer_, exchange_;
  std::array<void*, 6> plans_{};  // FFTW plans: (axis, direction)
};

}  // namespace ewald
