// Where a run's time goes, in LAMMPS's sections: each stamp charges the time since the previous
// stamp to one section, so the sections add up to the loop time. The clock is MPI_Wtime: under
// SimGrid's SMPI it is the simulated machine's time, so simulated runs report what the modelled
// partition would take, not what the simulation took on this host.
#pragma once

#include <mpi.h>

#include <array>
#include <cstdio>

#include "ccl/group.hpp"

namespace md {

enum class Section { pair, kspace, neigh, comm, output, modify, other };
constexpr int kSections = 7;

class Timers {
 public:
  Timers() : last_(MPI_Wtime()) {}
  void stamp(Section s) {
    const double now = MPI_Wtime();
    seconds_[static_cast<int>(s)] += now - last_;
    last_ = now;
  }
  double total() const;
  // The table "Section | min time | avg time | max time | %varavg | %total" over the group's
  // members (reduced to member 0, which prints it).
  void report(const ccl::Group& g, std::FILE* out) const;

 private:
  double last_;
  std::array<double, kSections> seconds_{};
};

}  // namespace md
