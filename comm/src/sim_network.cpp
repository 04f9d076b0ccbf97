#include "sim_network.hpp"

#include <cstring>
#include <string>

#include "ccl/error.hpp"
#include "schedule_run.hpp"

namespace ccl::sim {

namespace {

std::string mismatch(int src, int dst, std::size_t sent, std::size_t expected) {
  return "ccl simulator: member " + std::to_string(src) + " sent " + std::to_string(sent) +
         " bytes to member " + std::to_string(dst) + ", which expected " +
         std::to_string(expected) + " (the members' calls do not match)";
}

struct SimEndpoint {
  using Handle = Network::RecvHandle;
  Network* net;
  std::uint64_t channel;
  int me;
  std::uint64_t tag;

  void send(int peer, const std::byte* data, std::size_t bytes, std::vector<Handle>&) {
    net->send(channel, me, peer, tag, data, bytes);
  }
  void recv(int peer, std::byte* data, std::size_t bytes, std::vector<Handle>& hs) {
    hs.push_back(net->recv(channel, peer, me, tag, data, bytes));
  }
  bool test_all(std::vector<Handle>& hs) {
    for (const auto& h : hs) {
      if (!h->done) return false;
    }
    return true;
  }
  void wait_all(std::vector<Handle>& hs) {
    if (!test_all(hs)) throw Error("ccl simulator: a member cannot block; use the engine");
  }
};

}  // namespace

std::size_t Network::KeyHash::operator()(const Key& k) const noexcept {
  std::size_t h = k.channel * 0x9e3779b97f4a7c15ULL;
  h ^= k.tag + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
  h ^= static_cast<std::size_t>(k.src) * 1000003u + static_cast<std::size_t>(k.dst);
  return h;
}

void Network::send(std::uint64_t channel, int src, int dst, std::uint64_t tag,
                   const std::byte* data, std::size_t bytes) {
  const Key key{channel, tag, src, dst};
  Queue& q = queues_[key];
  if (!q.waiting.empty()) {
    RecvHandle r = std::move(q.waiting.front());
    q.waiting.pop_front();
    if (q.waiting.empty() && q.messages.empty()) queues_.erase(key);
    if (r->bytes != bytes) throw Error(mismatch(src, dst, bytes, r->bytes));
    if (bytes > 0) std::memcpy(r->data, data, bytes);
    r->done = true;
    return;
  }
  q.messages.emplace_back(data, data + bytes);
}

Network::RecvHandle Network::recv(std::uint64_t channel, int src, int dst, std::uint64_t tag,
                                  std::byte* data, std::size_t bytes) {
  auto r = std::make_shared<PendingRecv>(PendingRecv{data, bytes});
  const Key key{channel, tag, src, dst};
  Queue& q = queues_[key];
  if (!q.messages.empty()) {
    std::vector<std::byte> msg = std::move(q.messages.front());
    q.messages.pop_front();
    if (q.waiting.empty() && q.messages.empty()) queues_.erase(key);
    if (msg.size() != bytes) throw Error(mismatch(src, dst, msg.size(), bytes));
    if (bytes > 0) std::memcpy(data, msg.data(), bytes);
    r->done = true;
    return r;
  }
  q.waiting.push_back(r);
  return r;
}

std::unique_ptr<detail::Stage> SimChannel::run(std::shared_ptr<const Schedule> schedule,
                                               const detail::RunContext& ctx) {
  const std::uint64_t tag = ctx.instance * detail::kPhases + static_cast<std::uint64_t>(ctx.phase);
  return std::make_unique<detail::ScheduleRun<SimEndpoint>>(
      SimEndpoint{&net_, channel_, rank_, tag}, std::move(schedule), ctx);
}

}  // namespace ccl::sim
