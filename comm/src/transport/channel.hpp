// The transport under a group: nonblocking transfers among the group's members, matched by
// (source, tag) in posting order. One implementation per transport (MPI communicator, simulator
// network); the schedule executor (schedule_run.hpp) is shared. What a channel keeps of a round's
// open transfers (Handles) is its own until end_round().
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include <mpi.h>

#include "ccl/cost.hpp"
#include "ccl/error.hpp"
#include "ccl/reduce_op.hpp"
#include "ccl/schedule.hpp"

namespace ccl::detail {

// The open transfers of one round, in posting order: per transfer either an operation the channel
// owns (a shared-memory operation, a simulated message) or null, standing for the next of
// `requests`. MPI requests are kept as the MPI declares them, never cast: Open MPI's are pointers,
// MPICH's are ints.
struct Handles {
  std::vector<void*> ops;
  std::vector<MPI_Request> requests;
  std::size_t size() const { return ops.size(); }
  bool empty() const { return ops.empty(); }
  void clear() {
    ops.clear();
    requests.clear();
  }
};

// A receive folded into an accumulator as its data arrives, instead of landing in a buffer of
// its own for a reduce step to read back: acc = in op other (incoming_left) or other op in,
// element by element; `other` may be acc itself. Pieces are whole elements.
struct Fold {
  std::byte* acc = nullptr;
  const std::byte* other = nullptr;
  const ReduceKernel* kernel = nullptr;
  std::size_t elem = 1;
  bool incoming_left = false;
  // The bytes [offset, offset + bytes) of the message have come, at `in`.
  void apply(std::size_t offset, const std::byte* in, std::size_t bytes) const {
    std::byte* a = acc + offset;
    const std::byte* o = other + offset;
    if (incoming_left) {
      kernel->apply(in, o, a, bytes / elem);
    } else {
      kernel->apply(o, in, a, bytes / elem);
    }
  }
};

class Channel {
 public:
  virtual ~Channel() = default;
  // The tag of one phase of one collective instance on this group.
  virtual std::uint64_t tag(std::uint64_t instance, int phase) const = 0;
  // Instances before tags repeat: at most this many collectives may be in flight on the group.
  virtual std::uint64_t tag_cycle() const { return UINT64_MAX; }
  // `stamp` is the sender's critical-path clock as the message leaves (used by clocked channels).
  virtual void send(int peer, std::uint64_t tag, const std::byte* data, std::size_t bytes,
                    const Cost& stamp, Handles& hs) = 0;
  virtual void recv(int peer, std::uint64_t tag, std::byte* data, std::size_t bytes,
                    Handles& hs) = 0;
  // A transfer one side copies straight between the two members' buffers (`copier`: the sender
  // writes, Copier::sender or Copier::exchange, the receiver reads, Copier::receiver, or each
  // its half, Copier::split) where the transport can; elsewhere an ordinary one. Both sides use
  // this form for it.
  virtual void send_direct(int peer, std::uint64_t tag, const std::byte* data, std::size_t bytes,
                           Copier /*copier*/, const Cost& stamp, Handles& hs) {
    send(peer, tag, data, bytes, stamp, hs);
  }
  virtual void recv_direct(int peer, std::uint64_t tag, std::byte* data, std::size_t bytes,
                           Copier /*copier*/, Handles& hs) {
    recv(peer, tag, data, bytes, hs);
  }
  // Whether such a transfer of `bytes` with `peer` goes direct (then it is posted, not
  // exchanged); Copier::exchange goes so from a smaller size, Copier::both never.
  virtual bool copies_direct(int /*peer*/, std::size_t /*bytes*/, Copier /*copier*/) const {
    return false;
  }
  // Whether a receive of `bytes` (elements of `elem` bytes) from `peer` can fold its data as it
  // arrives; then recv_folded, or exchange with a fold, does so.
  virtual bool folds(int /*peer*/, std::size_t /*bytes*/, std::size_t /*elem*/) const {
    return false;
  }
  virtual void recv_folded(int /*peer*/, std::uint64_t /*tag*/, std::size_t /*bytes*/,
                           const Fold& /*fold*/, Handles& /*hs*/) {
    throw Error("ccl: internal: a receive folded on a channel that does not fold");
  }
  // Sends of one buffer to several peers in one round (a bcast's root): whether the transport
  // can copy `bytes` of it once for all of them; then send_shared sends it, a handle per peer in
  // peer order except for those it sent on the spot (as send_now).
  virtual bool shares(std::size_t /*bytes*/) const { return false; }
  virtual void send_shared(const int* /*peers*/, std::size_t /*n*/, std::uint64_t /*tag*/,
                           const std::byte* /*data*/, std::size_t /*bytes*/, Handles& /*hs*/) {
    throw Error("ccl: internal: a shared send on a channel that does not share");
  }
  // True when every transfer in hs completed; never blocks.
  virtual bool test_all(Handles& hs) = 0;
  // Block until every transfer in hs completed.
  virtual void wait_all(Handles& hs) = 0;
  // Which transfers in hs are still open (the hang report's question); never blocks.
  virtual std::vector<bool> unfinished(Handles& hs) { return std::vector<bool>(hs.size(), true); }
  // Nothing to do but wait: give the core away when others need it to make the progress awaited.
  virtual void idle() {}
  // The round is over: release what the handles hold.
  virtual void end_round(Handles& hs) { hs.clear(); }
  // A send of `bytes` to `peer` comes soon, among others of the round: where it goes into
  // memory another core last read, ask for that memory now (ScheduleRun::ready_cells).
  virtual void ready_cell(int /*peer*/, std::size_t /*bytes*/) {}
  // A receive of `bytes` from `peer` comes soon, among others of the round: whether it arrives
  // in one cell of a shared-memory ring, whose sender never waits for the receiver to start;
  // if so, ask for that memory now (ScheduleRun::receive_in_turn).
  virtual bool expect_cell(int /*peer*/, std::size_t /*bytes*/) { return false; }
  // A send the transport can finish on the spot (a small message copied into the peer's ring
  // behind nothing queued): done, with no handle to wait for or release; false: post it.
  virtual bool send_now(int /*peer*/, std::uint64_t /*tag*/, const std::byte* /*data*/,
                        std::size_t /*bytes*/) {
    return false;
  }
  // A whole round of at most one send and one receive, done at once by a blocking call when
  // the transport has one cheaper than post-and-wait; false if not (then the round is posted).
  // With `fold` (only where folds() said so) the receive is folded and `in` unused.
  virtual bool exchange(int /*to*/, const std::byte* /*out*/, std::size_t /*out_bytes*/,
                        int /*from*/, std::byte* /*in*/, std::size_t /*in_bytes*/,
                        std::uint64_t /*tag*/, const Fold* /*fold*/ = nullptr) {
    return false;
  }
  // Clocked channels (the simulator) deliver each message's stamp: the executor then tracks the
  // critical path. Others return false and never get arrival() calls.
  virtual bool clocked() const { return false; }
  virtual Cost arrival(void* /*handle*/) const { return {}; }
};

// Phases of one collective instance: 0 the main schedule, 1..3 develop-mode checks.
inline constexpr int kPhases = 4;

// An instance with this bit set is a persistent call's, numbered by binding below it: every round
// of it has that one instance, since MPI matches persistent collectives by the order in which
// they were bound, and members may start them in any order. Rounds of one call between two
// members keep their order (messages are matched in order per peer, tag and size class), and
// channels give these instances tags regular instances never reach.
inline constexpr std::uint64_t kPersistentInstance = std::uint64_t{1} << 63;
inline bool is_persistent(std::uint64_t instance) {
  return (instance & kPersistentInstance) != 0;
}
inline std::uint64_t persistent_instance(std::uint64_t binding) {
  return kPersistentInstance | binding;
}
// The binding number of a persistent instance; a regular instance's own number.
inline std::uint64_t number_of(std::uint64_t instance) {
  return instance & ~kPersistentInstance;
}

}  // namespace ccl::detail
