// Pulled streams of the shared-memory fabric: a message larger than the large ring may, instead
// of streaming through it in pieces, be announced by one cell holding the sender's address and
// size; the receiver copies it straight out of the sender's memory with cross-memory attach
// (process_vm_readv) and answers with a notice, on which the sender's send completes.
//
//   sender                                          receiver
//   announcement {address, bytes} ──(large ring)──►  process_vm_readv(buffer ← address)
//   waits for it (tag | kNoticeTag)  ◄──(tiny ring)── notice {bytes read}
//
// Cost of m bytes: one copy, by the receiver, at cross-memory-attach bandwidth B_cma, and two
// control messages (~0.1 us each, more between distant cores), against a stream's two copies
// pipelined (stream_transfer.cpp). Which is cheaper depends on where the two ranks run. On this
// machine (a VM of 2 vCPUs) the host places them on two cores of one socket (a cache line's trip
// ~70 ns), on the two threads of one core (~29 ns) or on two sockets (~290 ns), and keeps a job
// mostly in one placement. A stream reads each piece from lines still dirty in the sender's
// cache: across sockets a 256 KiB scatter on 2 ranks took 75-100 us streamed, 35-40 pulled (Open
// MPI's, through its own cross-memory attach, 41-47); on one socket 20-30 streamed, 30-36 pulled.
// So each receiver prices both ways per sender as they come, in ticks per byte from the moment
// it finds the message begun to its last byte copied: a pull's one copy; a stream's pieces as
// they come, counted only when its first piece arrived alone, so that the receiver was waiting
// and the time is the whole pipeline's. On this machine a stream's price is 0.13-0.25 ticks per
// byte on one socket and 0.7-0.9 across, a pull's 0.3-0.6 either way. The receiver keeps the
// last four prices of each way and asks that sender for the other way once its median is below
// kSwitch of the current way's (a margin, so that one noisy price does not flip it), through a
// word of its ring's first line beside the tail it writes there. The sender reads it at each send
// above the large ring and takes the other way one time in kExplore, so that a change of
// placement is seen. No agreement is needed: the announcement says how the message comes.
// CCL_STREAM_PULL=0 or 1 fixes the way (for tests), and nothing is pulled where ranks cannot read
// each other's memory.
//
// A size that differs from the receive is reported by the receiver, which sends a notice all the
// same so that the sender's send completes; so is a read that fails, with its errno.
#include <sys/uio.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string>

#include "ccl/error.hpp"
#include "shm_fabric.hpp"
#include "tick_clock.hpp"

namespace ccl::detail {

namespace {

constexpr std::uint32_t kExplore = 32;  // one large send in this many goes the other way
constexpr double kSwitch = 0.8;         // the other way's price, at most, to switch to it
// The word of a ring's first line, after the consumer's tail, where the consumer asks its
// producer to pull (1) or stream (0, as the segment starts) what exceeds the large ring.
constexpr std::size_t kPullWanted = sizeof(std::uint64_t);

std::atomic_ref<std::uint64_t> pull_wanted(std::byte* ring) {
  return std::atomic_ref<std::uint64_t>(*reinterpret_cast<std::uint64_t*>(ring + kPullWanted));
}

// Reads bytes from `from` in process pid into `to`; 0 or the errno of the failure.
int read_from(int pid, std::uint64_t from, std::byte* to, std::size_t bytes) {
  while (bytes > 0) {
    iovec local{to, bytes};
    iovec remote{reinterpret_cast<void*>(from), bytes};
    const ssize_t n = process_vm_readv(pid, &local, 1, &remote, 1, 0);
    if (n <= 0) return n < 0 ? errno : EIO;
    from += static_cast<std::uint64_t>(n);
    to += n;
    bytes -= static_cast<std::size_t>(n);
  }
  return 0;
}

}  // namespace

std::optional<ShmFabric::PullSetting> ShmFabric::pull_setting() {
  const char* v = std::getenv("CCL_STREAM_PULL");
  if (v == nullptr || *v == '\0' || std::string(v) == "auto") return PullSetting::automatic;
  if (std::string(v) == "0") return PullSetting::never;
  if (std::string(v) == "1") return PullSetting::always;
  return std::nullopt;
}

bool ShmFabric::pull_next(Peer& p) {
  if (pull_ != PullSetting::automatic) return pull_ == PullSetting::always;
  constexpr int kLarge = 2;
  const bool wanted = pull_wanted(p.out[kLarge]).load(std::memory_order_relaxed) != 0;
  return ++p.large_sends % kExplore == 0 ? !wanted : wanted;
}

bool ShmFabric::announce_pull(ShmOp* op) {
  const std::uint64_t announcement[2] = {reinterpret_cast<std::uintptr_t>(op->data), op->bytes};
  constexpr int kLarge = 2;
  return push(op->peer, kLarge, op->context, op->tag,
              reinterpret_cast<const std::byte*>(announcement), sizeof announcement, false, true);
}

bool ShmFabric::take_pulled(ShmOp* op, const std::byte* announcement) {
  std::uint64_t from = 0, bytes = 0;
  std::memcpy(&from, announcement, sizeof from);
  std::memcpy(&bytes, announcement + sizeof from, sizeof bytes);
  if (op->offset != 0 || bytes != op->bytes) {
    send_notice(*op, 0);
    size_mismatch(op->offset + bytes, op->bytes);
  }
  Peer& p = peers_[static_cast<std::size_t>(op->peer)];
  const std::uint64_t started = ticks();
  const int err = read_from(pids_[static_cast<std::size_t>(op->peer)], from, op->data, op->bytes);
  send_notice(*op, err != 0 ? kCopyFailed | static_cast<std::uint64_t>(err) : bytes);
  if (err == 0) price_large_receive(p, true, ticks() - started, op->bytes);
  if (err != 0) {
    throw Error("ccl: could not read a message of " + std::to_string(bytes) +
                " bytes from world rank " +
                std::to_string(world_of_local_[static_cast<std::size_t>(op->peer)]) +
                " (process_vm_readv: " + std::strerror(err) +
                "); CCL_STREAM_PULL=0 or CCL_PUSH=0 "
                "turns such transfers off");
  }
  op->offset = op->bytes;
  return true;
}

void ShmFabric::send_notice(const ShmOp& op, std::uint64_t notice) {
  const std::uint64_t tag = op.tag | kNoticeTag;
  if (send_now(op.peer, op.context, tag, reinterpret_cast<const std::byte*>(&notice),
               sizeof notice)) {
    return;
  }
  ShmOp* n = acquire();  // the ring is full or sends wait for it: queued, released once sent
  n->is_send = true;
  n->push = ShmOp::Push::notice;
  n->peer = op.peer;
  n->context = op.context;
  n->tag = tag;
  n->control[0] = notice;
  n->data = reinterpret_cast<std::byte*>(n->control);
  n->bytes = sizeof notice;
  start(n);
}

double ShmFabric::Peer::Prices::typical() const {
  const std::uint32_t n = std::min<std::uint32_t>(count, 4);
  double v[4] = {last[0], last[1], last[2], last[3]};
  std::sort(v, v + n);
  return n == 0 ? 0 : n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

void ShmFabric::price_large_receive(Peer& p, bool pulled, std::uint64_t ticks, std::size_t bytes) {
  if (pull_ != PullSetting::automatic) return;
  (pulled ? p.pulled : p.streamed).add(static_cast<double>(ticks) / static_cast<double>(bytes));
  constexpr int kLarge = 2;
  std::atomic_ref<std::uint64_t> word = pull_wanted(p.in[kLarge]);
  const bool pulling = word.load(std::memory_order_relaxed) != 0;
  const double stream = p.streamed.typical(), pull = p.pulled.typical();
  // Each way is tried once before they are compared.
  const bool want_pull = stream == 0 ? false
                         : pull == 0 ? true
                         : pulling   ? !(stream < kSwitch * pull)
                                     : pull < kSwitch * stream;
  if (want_pull != pulling) word.store(want_pull ? 1 : 0, std::memory_order_relaxed);
}

}  // namespace ccl::detail
