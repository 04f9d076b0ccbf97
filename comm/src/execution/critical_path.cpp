#include "execution/critical_path.hpp"

namespace ccl::detail {

void CriticalPath::end_round(std::span<const Step> round, const ClockedChannel& channel,
                             const Handles& hs) {
  clock_ = after_sends_;
  Cost port = port_start_;
  std::size_t h = 0;
  for (const Step& st : round) {
    if (st.kind != StepKind::recv) continue;
    port = longest(channel.arrival(hs.ops[h++]), port + Cost{1, st.dst.bytes, 0});
    clock_ = longest(clock_, port);
  }
}

}  // namespace ccl::detail
