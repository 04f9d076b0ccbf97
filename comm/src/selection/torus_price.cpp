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
Route route_of_offset(const std::vector<int>& dims, int o) {
  const std::size_t k = dims.size();
  std::vector<int> digit(k);
  for (std::size_t d = k; d-- > 0;) {
    digit[d] = o % dims[d];
    o /= dims[d];
  }
  Route worst;
  // Carry into dimension d (d < k − 1) from the ones after it: either, by the member.
  const unsigned patterns = k > 1 ? 1u << (k - 1) : 1u;
  for (unsigned c = 0; c < patterns; ++c) {
    Route r{0, 1};
    for (std::size_t d = 0; d < k; ++d) {
      const int carry = d + 1 < k && (c >> d & 1u) ? 1 : 0;
      const int shift = (digit[d] + carry) % dims[d];
      const int along = std::min(shift, dims[d] - shift);
      r.hops += along;
      r.sharing = std::max(r.sharing, along);
    }
    worst.hops = std::max(worst.hops, r.hops);
    worst.sharing = std::max(worst.sharing, r.sharing);
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
