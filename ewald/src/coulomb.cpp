#include "ewald/coulomb.hpp"

#include <cmath>

namespace ewald {

Energy self_and_background(double sum_q, double sum_q2, double volume, double g, double qqr2e) {
  const double self = -qqr2e * g / std::sqrt(M_PI) * sum_q2;
  const double background = -qqr2e * M_PI * sum_q * sum_q / (2 * volume * g * g);
  // At fixed g the background energy goes as 1/V: its pressure is E/V, a trace of 3E. The self
  // term depends on neither positions nor volume.
  return Energy{self + background, 3 * background};
}

}  // namespace ewald
