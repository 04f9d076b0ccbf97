// A channel whose messages carry the sender's critical-path clock (the simulator's): the
// executor stamps each send with its clock and reads each receive's stamp back at the end of
// the round, to track the critical path (execution/critical_path.hpp). Real transports have no
// such clock and do not offer this (Channel::clocked()).
#pragma once

#include <cstddef>
#include <cstdint>

#include "ccl/cost.hpp"
#include "transport/channel.hpp"

namespace ccl::detail {

class ClockedChannel {
 public:
  virtual ~ClockedChannel() = default;
  // Channel::send with the sender's clock as the message leaves.
  virtual void send_stamped(int peer, std::uint64_t tag, const std::byte* data, std::size_t bytes,
                            const Cost& stamp, Handles& hs) = 0;
  // The stamp of the message a completed receive's handle took.
  virtual Cost arrival(void* handle) const = 0;
};

}  // namespace ccl::detail
