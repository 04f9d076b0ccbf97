// What a torus allgather schedule moves, step by step, read from the schedule itself (the
// schedule of one member: on a torus every member's is the same, translated): blocks received,
// bytes on each link, and the time on a torus network where all links run at once and steps
// follow one another in lockstep, against the paper's bound t = s·x / n_channels + n_hops·L.
#pragma once

#include <cstddef>
#include <vector>

#include "ccl/grids/cartesian.hpp"
#include "ccl/grids/torus_network.hpp"
#include "ccl/schedule.hpp"

namespace ccl::grids {

struct StepTally {
  int blocks = 0;                       // distinct blocks completed or extended by the step
  std::vector<std::size_t> link_bytes;  // per message received, in posting order
  std::size_t bytes = 0;                // all of them
  std::size_t busiest() const;          // largest message: the step's time on its links
};

// The schedule must receive each step's messages scattered into place in the receive buffer
// (as the torus allgathers do); block_bytes tells blocks apart by their offset.
std::vector<StepTally> tally_steps(const Schedule& s, std::size_t block_bytes);

struct TorusTiming {
  double seconds = 0;        // Σ over steps of (latency + busiest link bytes / bandwidth)
  double bound_seconds = 0;  // (P − 1)·block / (bandwidth · links) + diameter · latency
  double efficiency() const { return seconds > 0 ? bound_seconds / seconds : 0; }
};

// Concat of block_bytes per member on `torus`; the bound is concat_bound's (torus_network.hpp).
TorusTiming lockstep_timing(const std::vector<StepTally>& steps, const Cartesian& torus,
                            std::size_t block_bytes, const TorusLinks& links);

}  // namespace ccl::grids
