#include "transport/sim_network.hpp"

#include <cstring>
#include <string>

#include "ccl/error.hpp"

namespace ccl::sim {

namespace {

std::string mismatch(int src, int dst, std::size_t sent, std::size_t expected) {
  return "ccl simulator: member " + std::to_string(src) + " sent " + std::to_string(sent) +
         " bytes to member " + std::to_string(dst) + ", which expected " +
         std::to_string(expected) + " (the members' calls do not match)";
}

Network::PendingRecv* slot(void* h) {
  return static_cast<Network::PendingRecv*>(h);
}

}  // namespace

std::size_t Network::KeyHash::operator()(const Key& k) const noexcept {
  std::size_t h = k.channel * 0x9e3779b97f4a7c15ULL;
  h ^= k.tag + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
  h ^= static_cast<std::size_t>(k.src) * 1000003u + static_cast<std::size_t>(k.dst);
  return h;
}

void Network::send(std::uint64_t channel, int src, int dst, std::uint64_t tag,
                   const std::byte* data, std::size_t bytes, const Cost& stamp) {
  const Key key{channel, tag, src, dst};
  Queue& q = queues_[key];
  if (!q.waiting.empty()) {
    PendingRecv* r = q.waiting.front();
    q.waiting.pop_front();
    if (q.waiting.empty() && q.messages.empty()) queues_.erase(key);
    if (r->bytes != bytes) throw Error(mismatch(src, dst, bytes, r->bytes));
    if (bytes > 0) std::memcpy(r->data, data, bytes);
    r->stamp = stamp;
    r->done = true;
    return;
  }
  q.messages.push_back(Message{std::vector<std::byte>(data, data + bytes), stamp});
}

Network::PendingRecv* Network::recv(std::uint64_t channel, int src, int dst, std::uint64_t tag,
                                    std::byte* data, std::size_t bytes) {
  PendingRecv* r = nullptr;
  if (free_.empty()) {
    r = &slots_.emplace_back();
  } else {
    r = free_.back();
    free_.pop_back();
  }
  *r = PendingRecv{data, bytes, false, Cost{}};
  const Key key{channel, tag, src, dst};
  Queue& q = queues_[key];
  if (!q.messages.empty()) {
    Message msg = std::move(q.messages.front());
    q.messages.pop_front();
    if (q.waiting.empty() && q.messages.empty()) queues_.erase(key);
    if (msg.data.size() != bytes) {
      release(r);
      throw Error(mismatch(src, dst, msg.data.size(), bytes));
    }
    if (bytes > 0) std::memcpy(data, msg.data.data(), bytes);
    r->stamp = msg.stamp;
    r->done = true;
    return r;
  }
  q.waiting.push_back(r);
  return r;
}

std::uint64_t SimChannel::tag(std::uint64_t instance, int phase) const {
  return (instance & detail::kPersistentInstance) |
         (detail::number_of(instance) * detail::kPhases + static_cast<std::uint64_t>(phase));
}

void SimChannel::send(int peer, std::uint64_t tag, const std::byte* data, std::size_t bytes,
                      detail::Handles& hs) {
  send_stamped(peer, tag, data, bytes, Cost{}, hs);
}

void SimChannel::send_stamped(int peer, std::uint64_t tag, const std::byte* data, std::size_t bytes,
                              const Cost& stamp, detail::Handles&) {
  net_.send(channel_, rank_, peer, tag, data, bytes, stamp);
}

Cost SimChannel::arrival(void* handle) const {
  return slot(handle)->stamp;
}

void SimChannel::recv(int peer, std::uint64_t tag, std::byte* data, std::size_t bytes,
                      detail::Handles& hs) {
  hs.ops.push_back(net_.recv(channel_, peer, rank_, tag, data, bytes));
}

bool SimChannel::test_all(detail::Handles& hs) {
  for (void* h : hs.ops) {
    if (!slot(h)->done) return false;
  }
  return true;
}

void SimChannel::wait_all(detail::Handles& hs) {
  if (!test_all(hs)) throw Error("ccl simulator: a member cannot block; use the engine");
}

void SimChannel::end_round(detail::Handles& hs) {
  // Only completed slots go back: a pending one is still in a queue (a failed operation).
  for (void* h : hs.ops) {
    if (slot(h)->done) net_.release(slot(h));
  }
  hs.clear();
}

}  // namespace ccl::sim
