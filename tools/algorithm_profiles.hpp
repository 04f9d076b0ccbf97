// Per-algorithm profiles of the machine model, measured (part of ccl-calibrate).
//
// The CCL model prices a collective by its critical path alone, as on a network of independent
// links with one start-up price. On one node every copy shares the memory system and the cores
// (with more ranks than cores, a round costs context switches), messages of up to 8 KiB take the
// shared-memory path and longer ones MPI's rendezvous, and local copies — Bruck's rotation, a
// tree's forwarding through scratch — are in none of C1, C2, C3. So for every algorithm this
// measures calls at a ladder of sizes, with the algorithm's best setting under the plain model,
// and records measured / predicted at each size: the profile that selection and prediction
// interpolate (ccl/selection.hpp). Every point is timed as users time a collective: each call
// alone between syncs, the root rotating (IMB's and OSU's method, the benchmark's headline), the
// mean over members; in passes over the whole list, three passes and their median, so that a slow
// spell of a shared machine, which spoils one pass, does not decide. With more ranks than cores,
// two passes under each of four placements of the ranks (rank_placement.hpp), the lower of each
// two, the worst placement.
#pragma once

#include <algorithm>
#include <cstdio>
#include <vector>

#include "ccl/ccl.hpp"
#include "ccl/selection.hpp"

// The shape a profile point of collective k is measured at on n members: `count` doubles per
// member (per destination for index); its bytes per member (MachineModel::profile_bytes) are
// count times 8.
inline ccl::Shape profile_shape(ccl::CollKind k, int n, std::size_t count) {
  ccl::Shape s;
  s.kind = k;
  s.size = n;
  s.elem = k == ccl::CollKind::sync ? 1 : sizeof(double);
  s.count = k == ccl::CollKind::sync ? 0 : count;
  s.distance = 1;
  return s;
}

// The model's α, β, γ without its profiles: what a profile's ratios are measured against.
inline ccl::MachineModel plain_model(const ccl::MachineModel& m) {
  return ccl::MachineModel{m.alpha, m.beta, m.gamma, m.source, {}, m.concurrent_links, m.torus};
}

// The median of v (the mean of the middle two for an even count).
inline double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t h = v.size() / 2;
  return v.size() % 2 ? v[h] : 0.5 * (v[h - 1] + v[h]);
}

// Measures a profile for every algorithm that applies on group w and stores it in m (α, β, γ
// must already be set). Collective over w; prints one line per algorithm to `log` on rank 0.
void measure_algorithm_profiles(const ccl::Group& w, ccl::MachineModel& m, bool quick,
                                std::FILE* log);
