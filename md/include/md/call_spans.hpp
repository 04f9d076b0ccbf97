// How long a collective took as the collective itself saw it: per call, from the moment the last
// member entered to the moment the last member left. A member's own time from its entry also
// counts its wait for members that came later (the skew of the work before the call), which no
// algorithm can remove. The two ends are taken on different members, so the span needs one clock
// for all of them: SMPI's simulated clock, or one host's monotonic clock (MPI_Wtime on one node).
#pragma once

#include <cstddef>
#include <cstdio>
#include <vector>

#include "ccl/group.hpp"

namespace md {

class CallSpans {
 public:
  // The first kCalls calls are kept (64 KB), so a run of a million steps holds no more than a
  // short one and sums them in one combine as small.
  static constexpr std::size_t kCalls = 4096;
  void enter();
  void leave();
  // The mean span per call over the group's members (the first kCalls calls), or a negative
  // value when their clocks may differ (members on several hosts) or no call was recorded.
  // Every member calls it alike.
  double mean_span(const ccl::Group& g) const;

 private:
  std::vector<double> entries_, exits_;
};

}  // namespace md
