#include "tick_clock.hpp"

namespace ccl::detail {

double seconds_per_tick() {
  // Measured once, over 2 ms against steady_clock: error below 1e-4.
  static const double rate = [] {
    using clock = std::chrono::steady_clock;
    const auto t0 = clock::now();
    const std::uint64_t k0 = ticks();
    auto t1 = t0;
    while (t1 - t0 < std::chrono::milliseconds(2)) t1 = clock::now();
    const std::uint64_t k1 = ticks();
    return k1 > k0 ? std::chrono::duration<double>(t1 - t0).count() / static_cast<double>(k1 - k0) : 1e-9;
  }();
  return rate;
}

}  // namespace ccl::detail
