// Per-algorithm factors of the machine model, fitted by measurement (part of ccl-calibrate).
//
// The CCL model prices a collective by its critical path alone, as on a network of independent
// links. On one node every copy shares the memory system and the cores (with more ranks than
// cores, a round costs context switches), and local copies — Bruck's rotation, a tree's
// forwarding through scratch — are in none of C1, C2, C3. So for every algorithm this measures
// one call at a small and at a large size, with its best setting, and solves
//   t_small = a·α·C1 + b·(β·C2 + γ·C3),   t_large = the same at the large size
// for its latency factor a and bandwidth factor b (kept within [0.1, 50]).
#pragma once

#include <cstdio>

#include "ccl/ccl.hpp"
#include "ccl/selection.hpp"

// Fits factors for every algorithm that applies on group w and stores them in m (α, β, γ must
// already be set). Collective over w; prints one line per algorithm to `log` on rank 0.
void fit_algorithm_factors(const ccl::Group& w, ccl::MachineModel& m, bool quick, std::FILE* log);
