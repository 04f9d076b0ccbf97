// What a channel over a node's shared-memory fabric can do besides posting a send and a receive:
// copy straight between two members' buffers, fold a receive into a reduce, copy one buffer
// once for several receivers, warm the cells a round will write, send on the spot, and run a
// whole round of one send and one receive as one blocking call. The executor (schedule_run.cpp)
// takes each path where the channel offers these (Channel::shm_paths()) and the step allows it;
// every one of them falls back to the channel's posted send and receive, on which both sides
// agree from the message size alone.
#pragma once

#include <cstddef>
#include <cstdint>

#include "ccl/schedule.hpp"
#include "transport/channel.hpp"
#include "transport/shm/fold.hpp"

namespace ccl::detail {

class ShmPaths {
 public:
  virtual ~ShmPaths() = default;
  // A transfer one side copies straight between the two members' buffers (`copier`: the sender
  // writes, Copier::sender or Copier::exchange, the receiver reads, Copier::receiver, or each
  // its half, Copier::split) where the transport can; elsewhere an ordinary one. Both sides use
  // this form for it.
  virtual void send_direct(int peer, std::uint64_t tag, const std::byte* data, std::size_t bytes,
                           Copier copier, Handles& hs) = 0;
  virtual void recv_direct(int peer, std::uint64_t tag, std::byte* data, std::size_t bytes,
                           Copier copier, Handles& hs) = 0;
  // Whether such a transfer of `bytes` with `peer` goes direct (then it is posted, not
  // exchanged); Copier::exchange goes so from a smaller size, Copier::both never.
  virtual bool copies_direct(int peer, std::size_t bytes, Copier copier) const = 0;
  // Whether a receive of `bytes` (elements of `elem` bytes) from `peer` can fold its data as it
  // arrives; then recv_folded, or exchange with a fold, does so.
  virtual bool folds(int peer, std::size_t bytes, std::size_t elem) const = 0;
  virtual void recv_folded(int peer, std::uint64_t tag, std::size_t bytes, const Fold& fold,
                           Handles& hs) = 0;
  // Sends of one buffer to several peers in one round (a bcast's root): whether the transport
  // can copy `bytes` of it once for all of them; then send_shared sends it, a handle per peer in
  // peer order except for those it sent on the spot (as send_now).
  virtual bool shares(std::size_t bytes) const = 0;
  virtual void send_shared(const int* peers, std::size_t n, std::uint64_t tag,
                           const std::byte* data, std::size_t bytes, Handles& hs) = 0;
  // A send of `bytes` to `peer` comes soon, among others of the round: where it goes into
  // memory another core last read, ask for that memory now (ScheduleRun::ready_cells).
  virtual void ready_cell(int peer, std::size_t bytes) = 0;
  // A receive of `bytes` from `peer` comes soon, among others of the round: whether it arrives
  // in one cell of a shared-memory ring, whose sender never waits for the receiver to start;
  // if so, ask for that memory now (ScheduleRun::receive_in_turn).
  virtual bool expect_cell(int peer, std::size_t bytes) = 0;
  // A send the transport can finish on the spot (a small message copied into the peer's ring
  // behind nothing queued): done, with no handle to wait for or release; false: post it.
  virtual bool send_now(int peer, std::uint64_t tag, const std::byte* data, std::size_t bytes) = 0;
  // A whole round of at most one send and one receive, done at once by a blocking call when
  // the transport has one cheaper than post-and-wait; false if not (then the round is posted).
  // With `fold` (only where folds() said so) the receive is folded and `in` unused.
  virtual bool exchange(int to, const std::byte* out, std::size_t out_bytes, int from,
                        std::byte* in, std::size_t in_bytes, std::uint64_t tag,
                        const Fold* fold) = 0;
};

}  // namespace ccl::detail
