#include "selection/torus_price.hpp"

#include <algorithm>
#include <vector>

namespace ccl::detail {

namespace {

struct Route {
  int hops = 0;     // links crossed
  int sharing = 1;  // messages on its busiest link, every member sending at the same offset
};

// The longest route and the busiest dimension of offset `o` from any member (see the header).
// Each dimension but the last may or may not take a carry from the ones after it, independently
// of the others (which members carry differs by dimension), so the worst route takes the longer
// way of each dimension: O(k), not a walk over the 2^(k-1) carry patterns, which on a 6D torus of
// 4,096 members cost every member seconds of host time under SMPI per selection.
Route route_of_offset(const std::vector<int>& dims, int o) {
  const std::size_t k = dims.size();
  Route worst{0, 1};
  for (std::size_t d = k; d-- > 0;) {
    const int digit = o % dims[d];
    o /= dims[d];
    const auto along = [&](int shift) { return std::min(shift, dims[d] - shift); };
    int longest = along(digit);
    if (d + 1 < k) longest = std::max(longest, along((digit + 1) % dims[d]));
    worst.hops += longest;
    worst.sharing = std::max(worst.sharing, longest);
  }
  return worst;
}

}  // namespace

double torus_price(const Algorithm& a, const Params& p, const Shape& s, const TorusLinkModel& t) {
  if (a.multiport) {
    int links = 0;
    for (int d : s.torus) links += d > 2 ? 2 : d == 2 ? 1 : 0;
    const Cost c = t.ports >= links ? a.multiport(s, p) : a.cost(s, p);
    return static_cast<double>(c.c1) * (t.alpha + t.hop) + static_cast<double>(c.c2) * t.beta;
  }
  Shape first = s;
  first.rank = 0;
  const Schedule schedule = a.build(first, p);
  double seconds = 0;
  for (const Step& step : schedule.steps) {
    if (step.kind != StepKind::send) continue;
    const int offset = (step.peer - first.rank + s.size) % s.size;
    const Route r = route_of_offset(s.torus, offset);
    seconds += t.alpha + r.hops * t.hop +
               static_cast<double>(step.src.bytes) * t.beta * static_cast<double>(r.sharing);
  }
  return seconds;
}

}  // namespace ccl::detail
