// MPI set-up for ccl. Create one Environment at the start of main: it initialises MPI unless the
// program already did, and on destruction releases ccl's communicators and finalises MPI if it
// initialised it. Collectives are called from one thread per process.
#pragma once

#include "ccl/stats.hpp"

namespace ccl {

class Environment {
 public:
  Environment(int& argc, char**& argv);
  ~Environment();
  Environment(const Environment&) = delete;
  Environment& operator=(const Environment&) = delete;

 private:
  bool owns_mpi_ = false;
};

// This process's counters (MPI transport).
const Statistics& statistics();
void reset_statistics();

// Whether collectives time themselves (CollectiveStats::seconds). Off unless CCL_TIMING=1 or
// set_timing(true): reading the clock at both ends costs ~20 ns, a fifth of a small collective.
void set_timing(bool on);
bool timing();

}  // namespace ccl
