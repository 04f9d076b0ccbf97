// PPPM (particle-particle particle-mesh, Hockney and Eastwood) with ik differentiation, the
// reciprocal-space part of the Coulomb sum on a mesh. Members form a 2D grid; each holds an
// x-pencil of the charge mesh and a z-pencil of its transform (ewald/pencil_fft.hpp). Positions
// are replicated, so a member spreads onto its own pencil the charges whose stencils reach it,
// and reads its pencil of the field back: no ghost cells, and the members' shares of the forces
// add up to the whole.
//
//   Q(p)    = Σ_i q_i W(p − u_i)             order-P B-spline weights W, u_i = mesh coordinates
//   E_k     = (C / 2V) Σ_{k≠0} G(k) |Q̂(k)|²   G: the optimal influence function
//   E(p)    = (1/V) Σ_k −i k G(k) Q̂(k) e^{ik·p}    (three inverse FFTs)
//   F_i     = C q_i Σ_p W(p − u_i) E(p)
//   G(k)    = Σ_m (k·k_m / k_m²) U²(k_m) R(k_m) / (|k|² [Σ_m U²(k_m)]²),  R(q) = 4π e^{−q²/4g²},
//             U(k) = Π_d sinc(k_d h_d / 2)^P,  k_m = k + 2π m / h
// Cost per step: O(N P³) to spread and interpolate, 4 distributed 3D FFTs of the mesh.
#pragma once

#include <array>
#include <cstddef>
#include <vector>

#include "ccl/grids/grid2d.hpp"
#include "ewald/coulomb.hpp"
#include "ewald/pencil_fft.hpp"
#include "ewald/pppm_parameters.hpp"

namespace ewald {

class Pppm {
 public:
  // `params` as choose_pppm gives them; the box's edge lengths and lower corner; C, the Coulomb
  // constant of the units. The mesh must be no smaller than the grid's columns along any axis.
  Pppm(const PppmParameters& params, const std::array<double, 3>& box,
       const std::array<double, 3>& lo, double qqr2e, ccl::grids::Grid2D grid);

  const PppmParameters& parameters() const { return params_; }
  const ccl::grids::Grid2D& grid() const { return grid_; }
  // Mesh points this member holds (its x-pencil).
  std::size_t points_held() const { return fft_.x_pencil().points(); }
  // This member's share of the energy and virial, and of the forces (added into f).
  Energy compute(const Positions& x, const Charges& q, const Forces& f);
  // The atoms the last compute() gave forces to: those whose stencils reach this member's pencil.
  const std::vector<std::size_t>& atoms_reached() const { return mine_; }

 private:
  // 2π m / L_d with m taken in (−n/2, n/2].
  double wave_number(int d, int index) const;
  // G(k) and G(k)(1 − k²/2g²) at this member's k-points (z-pencil order), and the wave numbers.
  void influence();
  // A coordinate in mesh units along d.
  double mesh_coordinate(double x, std::size_t d) const;
  // The atoms whose stencils reach this member's x-pencil (mine_), and their stencils along each
  // axis: P mesh indices (wrapped into the mesh) and weights, for the k-th of them at [k·P, k·P +
  // P). An atom is passed over as soon as its z or y stencil misses the pencil.
  void find_stencils(const Positions& x);
  // Calls visit(atom, flat index into the x-pencil, weight) for every stencil point of every atom
  // that lies in this member's x-pencil, then done(atom).
  template <class Visit, class Done>
  void for_my_points(Visit&& visit, Done&& done) const;
  void spread(const Positions& x, const Charges& q);
  // Forces on the atoms found by spread() (their stencils were kept).
  void gather_forces(const Charges& q, const Forces& f);

  std::array<double, 3> box_, lo_;
  double qqr2e_;
  PppmParameters params_;
  ccl::grids::Grid2D grid_;  // before fft_, which keeps a reference to it
  PencilFft fft_;
  std::vector<double> green_, virial_;
  std::array<std::vector<double>, 3> wave_numbers_;  // per axis and mesh index
  std::vector<double> density_;                      // charge on this member's x-pencil
  std::vector<Complex> mesh_;                        // the transform's working array
  std::vector<double> field_xyz_;  // the field on the x-pencil, (x, y, z) per point
  std::array<std::vector<Complex>, 3> field_;
  std::vector<std::size_t> mine_;          // atoms whose stencils reach this member's pencil
  std::array<std::vector<int>, 3> index_;  // per axis: mine_[k]'s stencil points at [k·P, k·P + P)
  std::array<std::vector<double>, 3> weight_;  // and their weights
};

}  // namespace ewald
