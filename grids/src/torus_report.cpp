#include "ccl/grids/torus_report.hpp"

#include <algorithm>
#include <set>

namespace ccl::grids {

std::size_t StepTally::busiest() const {
  return link_bytes.empty() ? 0 : *std::max_element(link_bytes.begin(), link_bytes.end());
}

std::vector<StepTally> tally_steps(const Schedule& s, std::size_t block_bytes) {
  std::vector<StepTally> steps;
  for (std::size_t r = 0; r < s.rounds(); ++r) {
    // A round first unpacks (scratch into the receive buffer) what the previous one received.
    std::set<std::size_t> blocks;
    for (const Step& st : s.round(r)) {
      if (st.kind == StepKind::copy && st.src.buffer == Buffer::scratch &&
          st.dst.buffer == Buffer::recv) {
        blocks.insert(block_bytes > 0 ? st.dst.offset / block_bytes : 0);
      }
    }
    if (!steps.empty()) steps.back().blocks += static_cast<int>(blocks.size());
    StepTally t;
    for (const Step& st : s.round(r)) {
      if (st.kind != StepKind::recv) continue;
      t.link_bytes.push_back(st.dst.bytes);
      t.bytes += st.dst.bytes;
    }
    if (!t.link_bytes.empty()) steps.push_back(std::move(t));
  }
  return steps;
}

TorusTiming lockstep_timing(const std::vector<StepTally>& steps, const Cartesian& torus,
                            std::size_t block_bytes, const TorusLinks& links) {
  TorusTiming t;
  for (const StepTally& s : steps)
    t.seconds += links.latency + static_cast<double>(s.busiest()) / links.bandwidth;
  t.bound_seconds = concat_bound(torus, block_bytes, links);
  return t;
}

}  // namespace ccl::grids
