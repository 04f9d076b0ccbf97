// Where a run's time goes, in LAMMPS's sections: each stamp charges the time since the previous
// stamp to one section, so the sections add up to the loop time.
#pragma once

#include <array>
#include <chrono>
#include <cstdio>

#include "ccl/ccl.hpp"

namespace md {

enum class Section { pair, kspace, neigh, comm, output, modify, other };
constexpr int kSections = 7;

class Timers {
 public:
  Timers() : last_(Clock::now()) {}
  void stamp(Section s) {
    const auto now = Clock::now();
    seconds_[static_cast<int>(s)] += std::chrono::duration<double>(now - last_).count();
    last_ = now;
  }
  double total() const;
  // The table "Section | min time | avg time | max time | %varavg | %total" over the group's
  // members (reduced to member 0, which prints it).
  void report(const ccl::Group& g, std::FILE* out) const;

 private:
  using Clock = std::chrono::steady_clock;
  Clock::time_point last_;
  std::array<double, kSections> seconds_{};
};

}  // namespace md
