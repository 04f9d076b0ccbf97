#include "ewald/pppm.hpp"

#include <cmath>
#include <utility>

#include "ewald/work_meter.hpp"

namespace ewald {

namespace {

// The order-P weights of the mesh points base − m (m = 0..P−1) for a coordinate u in mesh units:
// W[m] = N_P(w + m), N_P the cardinal B-spline on [0, P], w the fractional part of u + P/2.
int stencil(double u, int order, double* weight) {
  const double shifted = u + 0.5 * order;
  const double base = std::floor(shifted);
  const double w = shifted - base;
  weight[0] = 1;
  for (int k = 2; k <= order; ++k) {
    weight[k - 1] = 0;
    for (int m = k - 1; m >= 0; --m) {
      const double left = m > 0 ? weight[m - 1] : 0;
      weight[m] = ((w + m) * weight[m] + (k - w - m) * left) / (k - 1);
    }
  }
  return static_cast<int>(base);
}

double sinc(double x) {
  return x == 0 ? 1 : std::sin(x) / x;
}

}  // namespace

Pppm::Pppm(const PppmParameters& params, const std::array<double, 3>& box,
           const std::array<double, 3>& lo, double qqr2e, ccl::grids::Grid2D grid)
    : box_(box),
      lo_(lo),
      qqr2e_(qqr2e),
      params_(params),
      grid_(std::move(grid)),
      fft_(grid_, params_.mesh) {
  influence();
}

double Pppm::wave_number(int d, int index) const {
  const int n = params_.mesh[std::size_t(d)];
  const int m = 2 * index > n ? index - n : index;
  return 2 * M_PI * m / box_[std::size_t(d)];
}

void Pppm::influence() {
  for (std::size_t d = 0; d < 3; ++d) {
    wave_numbers_[d].resize(std::size_t(params_.mesh[d]));
    for (int i = 0; i < params_.mesh[d]; ++i)
      wave_numbers_[d][std::size_t(i)] = wave_number(int(d), i);
  }
  const MeshBox& zb = fft_.z_pencil();
  const int order = params_.order;
  const double g = params_.g;
  std::array<int, 3> images{};
  std::array<std::vector<double>, 3> denominator;  // Σ_m sinc^{2P} per axis and index
  for (std::size_t d = 0; d < 3; ++d) {
    const int n = params_.mesh[d];
    const double h = box_[d] / n;
    images[d] =
        std::max(2, static_cast<int>(g * box_[d] / (M_PI * n) * std::pow(-std::log(1e-7), 0.25)));
    denominator[d].resize(std::size_t(n));
    for (int i = 0; i < n; ++i) {
      double sum = 0;
      for (int m = -50; m <= 50; ++m)
        sum += std::pow(sinc(0.5 * h * (wave_number(int(d), i) + 2 * M_PI * m / h)), 2 * order);
      denominator[d][std::size_t(i)] = sum;
    }
  }
  green_.assign(zb.points(), 0.0);
  virial_.assign(zb.points(), 0.0);
  for (int ix = zb.lo[0]; ix < zb.hi[0]; ++ix) {
    for (int iy = zb.lo[1]; iy < zb.hi[1]; ++iy) {
      for (int iz = zb.lo[2]; iz < zb.hi[2]; ++iz) {
        const std::size_t p = fft_.k_index(ix, iy, iz);
        const int index[3] = {ix, iy, iz};
        double k[3], h[3];
        for (std::size_t d = 0; d < 3; ++d) {
          k[d] = wave_number(int(d), index[d]);
          h[d] = box_[d] / params_.mesh[d];
        }
        const double k2 = k[0] * k[0] + k[1] * k[1] + k[2] * k[2];
        if (k2 == 0) continue;
        double sum = 0;
        for (int mx = -images[0]; mx <= images[0]; ++mx) {
          const double qx = k[0] + 2 * M_PI * mx / h[0];
          const double ux = std::pow(sinc(0.5 * h[0] * qx), 2 * order);
          for (int my = -images[1]; my <= images[1]; ++my) {
            const double qy = k[1] + 2 * M_PI * my / h[1];
            const double uy = std::pow(sinc(0.5 * h[1] * qy), 2 * order);
            for (int mz = -images[2]; mz <= images[2]; ++mz) {
              const double qz = k[2] + 2 * M_PI * mz / h[2];
              const double uz = std::pow(sinc(0.5 * h[2] * qz), 2 * order);
              const double q2 = qx * qx + qy * qy + qz * qz;
              const double dot = k[0] * qx + k[1] * qy + k[2] * qz;
              sum += dot / q2 * ux * uy * uz * 4 * M_PI * std::exp(-q2 / (4 * g * g));
            }
          }
        }
        const double den = denominator[0][std::size_t(ix)] * denominator[1][std::size_t(iy)] *
                           denominator[2][std::size_t(iz)];
        green_[p] = sum / (k2 * den * den);
        virial_[p] = green_[p] * (1 - k2 / (2 * g * g));
      }
    }
  }
}

double Pppm::mesh_coordinate(double x, std::size_t d) const {
  return (x - lo_[d]) / box_[d] * params_.mesh[d];
}

void Pppm::find_stencils(const Positions& x) {
  const int order = params_.order;
  const auto width = std::size_t(order);
  const MeshBox& xb = fft_.x_pencil();
  const WorkRegion region(Kernel::stencil, double(x.extent(0)));
  mine_.clear();
  for (auto& v : index_) v.clear();
  for (auto& v : weight_) v.clear();
  double w[3][8];
  int first[3];
  for (std::size_t i = 0; i < x.extent(0); ++i) {
    bool reaches = true;
    for (int d = 2; d >= 0 && reaches; --d) {
      const int mesh = params_.mesh[std::size_t(d)];
      first[d] =
          ((stencil(mesh_coordinate(x(i, std::size_t(d)), std::size_t(d)), order, w[d]) % mesh) +
           mesh) %
          mesh;
      if (d == 0) break;  // x-pencils hold every x
      reaches = false;
      for (int m = 0, point = first[d]; m < order; ++m, point = point == 0 ? mesh - 1 : point - 1) {
        if (point >= xb.lo[std::size_t(d)] && point < xb.hi[std::size_t(d)]) reaches = true;
      }
    }
    if (!reaches) continue;
    mine_.push_back(i);
    for (std::size_t d = 0; d < 3; ++d) {
      const int mesh = params_.mesh[d];
      for (std::size_t m = 0, point = std::size_t(first[d]); m < width; ++m) {
        index_[d].push_back(static_cast<int>(point));
        weight_[d].push_back(w[d][m]);
        point = point == 0 ? std::size_t(mesh) - 1 : point - 1;
      }
    }
  }
}

template <class Visit, class Done>
void Pppm::for_my_points(Visit&& visit, Done&& done) const {
  const MeshBox& xb = fft_.x_pencil();
  const auto order = std::size_t(params_.order);
  const auto nx = std::size_t(params_.mesh[0]), ny = std::size_t(xb.size(1));
  for (std::size_t k = 0; k < mine_.size(); ++k) {
    const std::size_t i = mine_[k];
    const int* ix = &index_[0][k * order];
    const int* iy = &index_[1][k * order];
    const int* iz = &index_[2][k * order];
    const double* wx = &weight_[0][k * order];
    const double* wy = &weight_[1][k * order];
    const double* wz = &weight_[2][k * order];
    for (std::size_t mz = 0; mz < order; ++mz) {
      if (iz[mz] < xb.lo[2] || iz[mz] >= xb.hi[2]) continue;
      for (std::size_t my = 0; my < order; ++my) {
        if (iy[my] < xb.lo[1] || iy[my] >= xb.hi[1]) continue;
        const double wyz = wz[mz] * wy[my];
        const std::size_t row =
            (std::size_t(iz[mz] - xb.lo[2]) * ny + std::size_t(iy[my] - xb.lo[1])) * nx;
        for (std::size_t mx = 0; mx < order; ++mx)
          visit(i, row + std::size_t(ix[mx]), wyz * wx[mx]);
      }
    }
    done(i);
  }
}

void Pppm::spread(const Positions& x, const Charges& q) {
  find_stencils(x);
  const double order = params_.order;
  const WorkRegion region(Kernel::spread, double(mine_.size()) * order * order * order);
  density_.assign(fft_.x_pencil().points(), 0.0);
  for_my_points([&](std::size_t i, std::size_t p, double w) { density_[p] += q(i) * w; },
                [](std::size_t) {});
  mesh_.assign(density_.begin(), density_.end());
}

void Pppm::gather_forces(const Charges& q, const Forces& f) {
  const double scale = qqr2e_ / (box_[0] * box_[1] * box_[2]);
  // The three components side by side: one cache line per mesh point read.
  const std::size_t points = fft_.x_pencil().points();
  const double order = params_.order;
  const WorkRegion region(Kernel::gather, double(mine_.size()) * order * order * order);
  field_xyz_.resize(3 * points);
  for (std::size_t p = 0; p < points; ++p) {
    for (std::size_t d = 0; d < 3; ++d) field_xyz_[3 * p + d] = field_[d][p].real();
  }
  double ex = 0, ey = 0, ez = 0;  // the field at the atom, summed in registers
  for_my_points(
      [&](std::size_t, std::size_t p, double w) {
        ex += w * field_xyz_[3 * p];
        ey += w * field_xyz_[3 * p + 1];
        ez += w * field_xyz_[3 * p + 2];
      },
      [&](std::size_t i) {
        const double a = scale * q(i);
        f(i, 0) += a * ex;
        f(i, 1) += a * ey;
        f(i, 2) += a * ez;
        ex = ey = ez = 0;
      });
}

Energy Pppm::compute(const Positions& x, const Charges& q, const Forces& f) {
  spread(x, q);
  fft_.forward(mesh_);
  const std::size_t points = fft_.z_pencil().points();  // k-points: the first entries of mesh_
  const double c = qqr2e_ / (2 * box_[0] * box_[1] * box_[2]);
  Energy out;
  {
    const WorkRegion region(Kernel::green, double(points));
    for (std::size_t p = 0; p < points; ++p) {
      const double s2 = std::norm(mesh_[p]);
      out.energy += c * green_[p] * s2;
      out.virial += c * virial_[p] * s2;
    }
  }
  // The field along each axis: −i k_d G Q̂, back to real space.
  for (std::size_t d = 0; d < 3; ++d) {
    std::vector<Complex>& field = field_[d];
    field.resize(mesh_.size());
    const std::vector<double>& k = wave_numbers_[d];
    {
      const WorkRegion region(Kernel::green, double(points));
      fft_.for_each_k_point([&](int ix, int iy, int iz, std::size_t p) {
        const int index[3] = {ix, iy, iz};
        field[p] = Complex(0, -k[std::size_t(index[d])]) * green_[p] * mesh_[p];
      });
    }
    fft_.backward(field);
  }
  gather_forces(q, f);
  return out;
}

}  // namespace ewald
