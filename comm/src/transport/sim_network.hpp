// The simulator's message system: eager, buffered point-to-point between the members of one
// process, matched by (channel, source, destination, tag) in FIFO order like MPI. A send
// completes at once (copied into the mailbox or straight into a posted receive).
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <unordered_map>
#include <vector>

#include "ccl/cost.hpp"
#include "transport/channel.hpp"
#include "transport/clocked_channel.hpp"

namespace ccl::sim {

class Network {
 public:
  struct PendingRecv {
    std::byte* data = nullptr;
    std::size_t bytes = 0;
    bool done = false;
    Cost stamp;  // the sender's clock carried by the message
  };

  void send(std::uint64_t channel, int src, int dst, std::uint64_t tag, const std::byte* data,
            std::size_t bytes, const Cost& stamp);
  // A receive slot, done at once if the message is there; give it back with release().
  PendingRecv* recv(std::uint64_t channel, int src, int dst, std::uint64_t tag, std::byte* data,
                    std::size_t bytes);
  void release(PendingRecv* r) { free_.push_back(r); }

 private:
  struct Key {
    std::uint64_t channel;
    std::uint64_t tag;
    int src;
    int dst;
    friend bool operator==(const Key&, const Key&) = default;
  };
  struct KeyHash {
    std::size_t operator()(const Key& k) const noexcept;
  };
  struct Message {
    std::vector<std::byte> data;
    Cost stamp;
  };
  struct Queue {
    std::deque<Message> messages;
    std::deque<PendingRecv*> waiting;
  };
  std::unordered_map<Key, Queue, KeyHash> queues_;
  std::deque<PendingRecv> slots_;  // stable addresses
  std::vector<PendingRecv*> free_;
};

// A simulated group's transport: the network, the group's channel and this member's rank in it.
// Clocked: each message carries its sender's critical-path clock.
class SimChannel final : public detail::Channel, public detail::ClockedChannel {
 public:
  SimChannel(Network& net, std::uint64_t channel, int rank)
      : net_(net), channel_(channel), rank_(rank) {}
  std::uint64_t tag(std::uint64_t instance, int phase) const override;
  void send(int peer, std::uint64_t tag, const std::byte* data, std::size_t bytes,
            detail::Handles& hs) override;
  void send_stamped(int peer, std::uint64_t tag, const std::byte* data, std::size_t bytes,
                    const Cost& stamp, detail::Handles& hs) override;
  void recv(int peer, std::uint64_t tag, std::byte* data, std::size_t bytes,
            detail::Handles& hs) override;
  bool test_all(detail::Handles& hs) override;
  void wait_all(detail::Handles& hs) override;
  void end_round(detail::Handles& hs) override;
  Cost arrival(void* handle) const override;
  detail::ClockedChannel* clocked() override { return this; }

 private:
  Network& net_;
  std::uint64_t channel_;
  int rank_;
};

}  // namespace ccl::sim
