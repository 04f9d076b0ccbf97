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
    StepTally t;
    std::set<std::size_t> blocks;
    for (const Step& st : s.round(r)) {
      if (st.kind != StepKind::recv) continue;
      t.link_bytes.push_back(st.dst.bytes);
      t.bytes += st.dst.bytes;
      // Every block a received byte lands in (adjacent shares arrive merged).
      auto add = [&](std::size_t offset, std::size_t bytes) {
        if (block_bytes == 0) {
          blocks.insert(0);
          return;
        }
        for (std::size_t b = offset / block_bytes; b * block_bytes < offset + bytes; ++b)
          blocks.insert(b);
      };
      if (st.extents == 0) add(st.dst.offset, st.dst.bytes);
      for (const Extent& e : s.extents_of(st)) add(e.offset, e.bytes);
    }
    t.blocks = static_cast<int>(blocks.size());
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
