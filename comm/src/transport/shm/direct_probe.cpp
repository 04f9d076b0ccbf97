// Where one copy beats two: the size above which the shared-memory fabric moves a message by a
// direct transfer (direct_transfer.cpp: one copy across the two processes, a system call that
// pins the pages) instead of streaming it through the rings (stream_transfer.cpp: the sender's
// copy into cells, the receiver's copy out, pipelined). Which wins depends on the host, so it is
// measured once per job, at start-up, between the node's first two ranks:
//   - AMD EPYC VM (two vCPUs): the system call made a bcast of 32 KiB on 2 ranks take 6.6 us
//     against coll/sm's 2.1 through 8 KiB fragments; streams won up to the ring's 64 KiB;
//   - Intel Xeon VM (two vCPUs whose caches are far apart): every line the rings move crosses
//     between the cores twice (the sender's stores take it back, the receiver's loads fetch it),
//     and IMB's bcast of 16, 32 and 64 KiB on 2 ranks took 2.3, 4.4 and 8.5 us streamed, 1.7,
//     1.7 and 3.1 as a direct transfer (Open MPI's tuned, through the same system call, 1.7,
//     2.4, 3.6).
// The probe: rank 0 sends 8, 16, 32 and 64 KiB to rank 1, each way in turn, and rank 1 answers
// each with 8 bytes; five rounds, the least time of each kept (noise only adds). The sender's
// buffer is not written between sends, as a root's in a loop of bcasts (on the Xeon, 16-64 KiB
// took 2.2x as long streamed as direct; had each side written its buffer just before, as in a
// ping-pong, the two ways tied). Direct transfers take over from the smallest size from which
// they win at every larger size probed, but not below a whole cell (kMaxBytes: smaller messages
// go in one cell of their own size class); a margin of kDirectWins keeps near ties on the
// streams, which need no system call and leave the data in cache. On the Xeon, IMB's scatter
// and gather of 8 KiB on 2 ranks took 1.65 and 1.45 us in one cell, 1.13 and 1.11 direct
// (MPICH's 1.18 and 1.28). Under 0.5 ms at start-up, and only
// where every rank of the node has a core of its own (elsewhere a receiver may be asleep: the
// fabric's limits then hold) and CCL_STREAM_MAX is not set. Every rank of the node takes rank
// 0's answer. CCL_DIRECT_ABOVE=bytes (at least 8191) sets the size instead of the probe.
#include <algorithm>
#include <array>
#include <cstdlib>
#include <limits>
#include <string>
#include <vector>

#include "ccl/tick_clock.hpp"
#include "transport/shm/shm_fabric.hpp"

namespace ccl::detail {

namespace {

constexpr std::array<std::size_t, 4> kProbeBytes = {8192, 16384, 32768, 65536};
constexpr int kProbeRounds = 5;
constexpr double kDirectWins = 0.9;  // direct must take at most this share of the stream's time
// The probe's messages: a context no group has (no group's leader is -1) and a tag per way.
constexpr std::uint64_t kStreamTag = 1, kDirectTag = 2, kAckTag = 3;

}  // namespace

void ShmFabric::transfer_blocking(bool is_send, int peer, const Pgid& context, std::uint64_t tag,
                                  std::byte* data, std::size_t bytes, bool direct) {
  ShmOp* op = acquire();
  op->is_send = is_send;
  op->peer = peer;
  op->context = context;
  op->tag = tag;
  op->data = data;
  op->bytes = bytes;
  if (direct) {
    op->direct = is_send ? ShmOp::Direct::source : ShmOp::Direct::target;
    op->copy = ShmOp::Copy::pulled;
    start_direct(op);
  } else {
    start(op);
  }
  while (!op->done) progress();
  release(op);
}

std::optional<unsigned long long> ShmFabric::direct_above_setting() {
  const char* v = std::getenv("CCL_DIRECT_ABOVE");
  if (v == nullptr || *v == '\0' || std::string(v) == "probe") return ~0ull;
  return bytes_setting(v);
}

std::size_t ShmFabric::probe_direct_above() {
  const std::size_t ring = large_ring_holds();
  // The setting was checked on every rank at start-up (mpi_runtime.cpp).
  const unsigned long long set = direct_above_setting().value_or(~0ull);
  const bool probed = set == ~0ull && !oversubscribed_ && can_reach_ && stream_limit_ > ring &&
                      stream_max_setting() == ~0ull && ring >= kProbeBytes.back();
  const unsigned long long whole_cell = kMaxBytes - 1;  // the smallest that may go direct
  unsigned long long above = set == ~0ull ? ring : std::max<unsigned long long>(set, whole_cell);
  if (probed && local_ < 2) {
    const int other = 1 - local_;
    std::vector<std::byte> buffer(kProbeBytes.back(), std::byte{1}), ack(8);
    constexpr double kNever = std::numeric_limits<double>::max();
    std::array<std::array<double, 2>, kProbeBytes.size()> least{};
    for (auto& l : least) l.fill(kNever);
    const Pgid context{};
    for (int round = 0; round < kProbeRounds; ++round) {
      for (std::size_t i = 0; i < kProbeBytes.size(); ++i) {
        for (int direct = 0; direct < 2; ++direct) {
          const std::uint64_t tag = direct ? kDirectTag : kStreamTag;
          const std::uint64_t began = ticks();
          transfer_blocking(local_ == 0, other, context, tag, buffer.data(), kProbeBytes[i],
                            direct != 0);
          transfer_blocking(local_ == 1, other, context, kAckTag, ack.data(), ack.size(), false);
          least[i][direct] = std::min(least[i][direct], static_cast<double>(ticks() - began));
        }
      }
    }
    // Direct from the smallest size from which it wins at every larger one.
    for (std::size_t i = kProbeBytes.size(); i-- > 0;) {
      if (!(least[i][1] <= kDirectWins * least[i][0])) break;
      above = std::max<unsigned long long>(kProbeBytes[i] / 2, whole_cell);
    }
  }
  MPI_Bcast(&above, 1, MPI_UNSIGNED_LONG_LONG, 0, node_);
  return static_cast<std::size_t>(above);
}

}  // namespace ccl::detail
