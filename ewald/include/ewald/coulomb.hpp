// Coulomb interactions of point charges in a periodic orthogonal box by Ewald summation, split
// as E = E_real + E_kspace + E_self (+ E_background when the charges do not sum to zero):
//
//   E_real   = C Σ_{i<j, r<rc} q_i q_j erfc(g r) / r                     (minimum image, rc ≤ L/2)
//   E_kspace = C (2π/V) Σ_{k≠0} exp(−k²/4g²)/k² |S(k)|²,   S(k) = Σ_j q_j exp(i k·r_j)
//   E_self   = −C g/√π Σ q_i²,        E_background = −C π (Σ q_i)² / (2 V g²)
//
// with C the deck's Coulomb constant (qqr2e). The real-space term is the pair styles'
// (md/pair.hpp). Forces are −∇E; virials are Σ r·F (trace), so that pressure = (N k T + W/3) / V.
// Kernels are Kokkos (host execution space here).
#pragma once

#include <Kokkos_Core.hpp>

#include <array>
#include <cstddef>

namespace ewald {

using Vec3 = std::array<double, 3>;
using Positions = Kokkos::View<double* [3]>;
using Charges = Kokkos::View<double*>;
using Forces = Kokkos::View<double* [3]>;

struct Energy {
  double energy = 0;
  double virial = 0;  // Σ r·F, trace of the virial tensor
};

// Self and background terms (no forces), from Σ q_i and Σ q_i², which a run's charges keep.
Energy self_and_background(double sum_q, double sum_q2, double volume, double g, double qqr2e);

}  // namespace ewald
