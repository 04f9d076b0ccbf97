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
// moves n³/(R C) complex values per member twice; the 1D FFTs are FFTW's, strided over the
// layout at hand. A transpose within a group of one member is skipped: the data keeps its layout
// and the next FFT runs along the other axis by stride (on one member, a plain 3D FFT).
#pragma once

#include <algorithm>
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
  std::size_t points() const {
    return std::size_t(size(0)) * std::size_t(size(1)) * std::size_t(size(2));
  }
};

class PencilFft {
 public:
  PencilFft(const ccl::grids::Grid2D& grid, std::array<int, 3> n);
  ~PencilFft();
  PencilFft(const PencilFft&) = delete;
  PencilFft& operator=(const PencilFft&) = delete;

  // This member's x-pencil, stored [z][y][x] (x fastest), and z-pencil, whose layout depends on
  // the grid: k_index gives the place of point (x, y, z) (mesh indices within the z-pencil).
  const MeshBox& x_pencil() const { return x_.box; }
  const MeshBox& z_pencil() const { return z_.box; }
  std::size_t k_index(int x, int y, int z) const {
    return std::size_t(x - z_.box.lo[0]) * z_.stride[0] +
           std::size_t(y - z_.box.lo[1]) * z_.stride[1] +
           std::size_t(z - z_.box.lo[2]) * z_.stride[2];
  }
  // Calls visit(x, y, z, place) for every point of the z-pencil, in storage order.
  template <class Visit>
  void for_each_k_point(Visit&& visit) const {
    int axes[3] = {0, 1, 2};  // slowest first
    std::sort(axes, axes + 3,
              [&](int a, int b) { return z_.stride[std::size_t(a)] > z_.stride[std::size_t(b)]; });
    int at[3];
    for (at[axes[0]] = z_.box.lo[std::size_t(axes[0])];
         at[axes[0]] < z_.box.hi[std::size_t(axes[0])]; ++at[axes[0]]) {
      for (at[axes[1]] = z_.box.lo[std::size_t(axes[1])];
           at[axes[1]] < z_.box.hi[std::size_t(axes[1])]; ++at[axes[1]]) {
        at[axes[2]] = z_.box.lo[std::size_t(axes[2])];
        std::size_t place = k_index(at[0], at[1], at[2]);
        const std::size_t step = z_.stride[std::size_t(axes[2])];
        for (; at[axes[2]] < z_.box.hi[std::size_t(axes[2])]; ++at[axes[2]], place += step)
          visit(at[0], at[1], at[2], place);
      }
    }
  }

  // x-pencil data (real space) → z-pencil data (k-space), e^(−i k·r) and unnormalised.
  void forward(std::vector<Complex>& data);
  // z-pencil data → x-pencil data, e^(+i k·r) and unnormalised (forward then backward gives n³×).
  void backward(std::vector<Complex>& data);

 private:
  // A pencil and where its point (x, y, z) is stored: Σ (index − lo) · stride.
  struct Layout {
    MeshBox box;
    std::array<std::size_t, 3> stride;
  };
  void fft_lines(std::vector<Complex>& data, int axis, int sign);
  // From layout `from` (full along a, split along b) to `to` (split along a, full along b) within
  // g.
  void transpose(std::vector<Complex>& data, const Layout& from, const Layout& to, int a, int b,
                 const ccl::Group& g);

  const ccl::Group row_, column_;  // members sharing this member's x-block / z-block
  std::array<int, 3> n_;
  Layout x_, y_, z_;  // the layouts in which the x, y and z FFTs run
  std::vector<Complex> buffer_, exchange_, received_;
  std::array<void*, 6> plans_{};  // FFTW plans: (axis, direction)
};

}  // namespace ewald
