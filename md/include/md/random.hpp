// The Park–Miller "minimal standard" generator (multiplier 16807, modulus 2³¹ − 1, Schrage's
// factorisation so that 32-bit products never overflow), the generator LAMMPS's `velocity create`
// draws from: the same seed gives the same velocities in both codes.
#pragma once

namespace md {

class ParkMiller {
 public:
  explicit ParkMiller(long seed) : seed_(seed) {}
  // Uniform in (0, 1).
  double uniform();
  // Standard normal (polar Box–Muller, the second value of each pair kept for the next call).
  double gaussian();

 private:
  long seed_;
  bool saved_ = false;
  double second_ = 0;
};

}  // namespace md
