// Simulated computation charged by counted work (perf/smpi/README.md, "Charged computation").
//
// Under SimGrid's SMPI a rank's computation between two MPI calls is timed on the host and
// charged to its simulated node, so a simulated step depends on the host's caches, its load and
// the other simulated ranks that ran just before. A WorkRegion marks one run of a kernel with the
// work it does: neighbour entries, k-group × atom products, stencil points, FFT butterflies. Two
// modes, chosen by the environment (configure_work_meter, identical on every rank):
//   CCL_WORK_RATES=FILE      (SMPI builds) each region's host time is left out of SMPI's timing
//                            and the node is charged units × the kernel's seconds per unit from
//                            FILE instead. The kernel still runs: the forces stay real.
//   CCL_WORK_CALIBRATE=FILE  each region is timed in thread CPU time (SMPI's clock for bursts)
//                            and write_work_rates() writes the seconds per unit, warm: a
//                            kernel's first region is left out when later ones exist. ccl's
//                            copies and reductions are rated by timing memcpy and a sum of
//                            doubles on 64 KiB, warm.
// ccl's own copies and reductions are counted through its local-work hook (ccl/local_work.hpp).
// The rest, outside the regions (bookkeeping, MPI's own overhead), is timed by SMPI unless the
// simulation sets smpi/simulate-computation:0, as perf/smpi/simulate.sh does with CCL_WORK_RATES:
// then only counted work costs time.
#pragma once

#include <cstddef>

namespace ewald {

enum class Kernel : int {
  pair,          // neighbour-list entries visited by the pair forces
  neighbor_bin,  // candidate atoms sorted into cells for a neighbour-list build
  neighbor,      // distance checks of a neighbour-list build
  phase,         // entries of the cos/sin(n θ) phase tables
  factors,       // k-group × atom terms of the structure factors
  forces,        // k-group × atom terms of the k-space forces
  stencil,       // atoms tested for reaching this member's PPPM mesh
  spread,        // stencil points of charge spreading
  fft,           // 5 n log2 n per FFT line of n points
  green,         // k-points multiplied by the influence function (energy and three fields)
  gather,        // stencil points of the field interpolation
  integrate,     // atoms moved by a velocity-Verlet half step
  clear,         // force values set to zero before a step's forces
  copy,          // bytes copied by ccl's schedules (ccl/local_work.hpp)
  reduce,        // bytes reduced by ccl's schedules
  count
};

constexpr int kKernels = static_cast<int>(Kernel::count);

// The kernel's name in the rates file.
const char* kernel_name(Kernel k);

// Reads CCL_WORK_RATES / CCL_WORK_CALIBRATE; throws std::runtime_error, with the file and line,
// on a bad file, on both set at once, and on CCL_WORK_RATES outside an SMPI build.
void configure_work_meter();

// In calibration mode, writes FILE (one line per kernel that ran); otherwise does nothing.
void write_work_rates();

class WorkRegion {
 public:
  WorkRegion(Kernel k, double units = 0);
  ~WorkRegion();
  WorkRegion(const WorkRegion&) = delete;
  WorkRegion& operator=(const WorkRegion&) = delete;
  void add(double units) { units_ += units; }

 private:
  Kernel kernel_;
  double units_;
  double started_ = 0;
};

}  // namespace ewald
