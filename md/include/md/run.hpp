// `run N`: velocity-Verlet steps of the deck's system (fix nve), with thermo output, dumps and,
// at the end, LAMMPS's summary: loop time, performance, timing breakdown, neighbour-list
// statistics, and a table of the collectives used.
#pragma once

#include "ccl/group.hpp"
#include "md/dump.hpp"
#include "md/system.hpp"

namespace md {

struct RunOptions {
  std::string decomp = "replicated";  // or "force2d", "ring", "owner"
  int grid_rows = 0, grid_cols = 0;   // force2d's grid; 0: the most nearly square
  std::string torus;                  // "AxBxC": the ranks form a torus (concat may use the torus
                                      // allgathers); empty: no layout declared
  bool mpi_allgather = false;         // --allgather mpi: replicated's positions exchanged by the
                                      // MPI library's MPI_Allgather(v), the peer in perf/scaling
};

// Runs `steps` steps (0: forces and thermo of the current state). The atoms go from the holder to
// their owners and come back to it at the end. Collective over g.
void run(System& s, long steps, const RunOptions& options, const ccl::Group& g, Dumps& dumps);

}  // namespace md
