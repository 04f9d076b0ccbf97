// The MPI transport: a group's own communicator (derived from a private duplicate of
// MPI_COMM_WORLD) and nonblocking point-to-point on it, with tag = instance × phases + phase.
// Messages between members on one node, up to the fabric's stream limit, go through the node's
// shared-memory fabric instead (shm_fabric.hpp), under the group's PGID as context, and so do
// larger ones a schedule has the sender copy (pushed); both sides pick the path from the message
// size, on which they always agree.
#pragma once

#include <mpi.h>

#include <climits>
#include <vector>

#include "ccl/pgid.hpp"
#include "transport/channel.hpp"
#include "transport/shm/shm_fabric.hpp"
#include "transport/shm/shm_paths.hpp"

namespace ccl::detail {

// Throws ccl::Error with MPI's message when rc is not MPI_SUCCESS.
void check_mpi(int rc, const char* what);

class MpiChannel final : public Channel, public ShmPaths {
 public:
  // Takes ownership of comm and sets MPI_ERRORS_RETURN on it. `fabric` may be null; `members`
  // are the group's world ranks, `context` its PGID; tags stay at or below `tag_limit` (and
  // MPI_TAG_UB): the lower half of them for regular instances, which wrap every
  // (tag_limit + 1) / kPhases / 2 rounded down to a power of two, the upper half for persistent
  // calls (kPersistentInstance), by binding number modulo as many.
  MpiChannel(MPI_Comm comm, ShmFabric* fabric, const std::vector<int>& members, const Pgid& context,
             std::uint64_t tag_limit);
  ~MpiChannel() override;
  MpiChannel(const MpiChannel&) = delete;
  MpiChannel& operator=(const MpiChannel&) = delete;

  std::uint64_t tag(std::uint64_t instance, int phase) const override;
  std::uint64_t tag_cycle() const override { return tag_cycle_; }
  void send(int peer, std::uint64_t tag, const std::byte* data, std::size_t bytes,
            Handles& hs) override;
  void recv(int peer, std::uint64_t tag, std::byte* data, std::size_t bytes, Handles& hs) override;
  // Off the node (or with no fabric), as one MPI message of an indexed datatype: the MPI library
  // reads and writes the pieces where they lie. On the node the rings need a copy anyway.
  bool gathers(int peer, std::size_t bytes) const override {
    return bytes <= static_cast<std::size_t>(INT_MAX) &&
           (fabric_ == nullptr || local_[static_cast<std::size_t>(peer)] < 0);
  }
  void send_gathered(int peer, std::uint64_t tag, const std::byte* base,
                     std::span<const Extent> pieces, std::size_t bytes, Handles& hs) override;
  void recv_scattered(int peer, std::uint64_t tag, std::byte* base, std::span<const Extent> pieces,
                      std::size_t bytes, Handles& hs) override;
  void send_direct(int peer, std::uint64_t tag, const std::byte* data, std::size_t bytes,
                   Copier copier, Handles& hs) override;
  void recv_direct(int peer, std::uint64_t tag, std::byte* data, std::size_t bytes, Copier copier,
                   Handles& hs) override;
  // Messages between members of one node larger than the rings hold at once, when its ranks can
  // reach into one another's memory.
  bool copies_direct(int peer, std::size_t bytes, Copier copier) const override {
    return copier != Copier::both && fabric_ != nullptr &&
           bytes > fabric_->direct_above(copier == Copier::exchange) && fabric_->can_reach() &&
           local_[static_cast<std::size_t>(peer)] >= 0;
  }
  // Where the fabric's start-up probe found one copy cheaper than streams (direct_probe.cpp),
  // plain sends and receives from the size it found up to kOneCopyUpTo go direct as well,
  // pulled by the receiver: a binomial reduce of 64 KiB on 2 ranks, folded from the rings, took
  // 7.8-9.3 us; pulled and then folded 5.1 (Open MPI's, which does the same, 4.1); pushed by the
  // sender (its process_vm_writev), 13.4.
  bool plain_direct(int peer, std::size_t bytes) const {
    return fabric_ != nullptr && fabric_->plain_direct(bytes) &&
           copies_direct(peer, bytes, Copier::receiver);
  }
  // Receives through shared memory fold piece by piece (pieces must be whole elements), unless
  // they go direct.
  bool folds(int peer, std::size_t bytes, std::size_t elem) const override {
    return shm_peer(peer, bytes) >= 0 && !plain_direct(peer, bytes) && elem > 0 &&
           bytes % elem == 0 && (bytes <= ShmFabric::kMaxBytes || ShmFabric::kMaxBytes % elem == 0);
  }
  void recv_folded(int peer, std::uint64_t tag, std::size_t bytes, const Fold& fold,
                   Handles& hs) override;
  bool shares(std::size_t bytes) const override {
    return fabric_ != nullptr && fabric_->shares(bytes);
  }
  void send_shared(const int* peers, std::size_t n, std::uint64_t tag, const std::byte* data,
                   std::size_t bytes, Handles& hs) override;
  void ready_cell(int peer, std::size_t bytes) override {
    const int local = shm_peer(peer, bytes);
    if (local >= 0) fabric_->ready_cell(local, bytes);
  }
  bool expect_cell(int peer, std::size_t bytes) override {
    const int local = shm_peer(peer, bytes);
    if (local < 0 || plain_direct(peer, bytes) || bytes > ShmFabric::kMaxBytes) return false;
    fabric_->expect_cell(local, bytes);
    return true;
  }
  bool send_now(int peer, std::uint64_t tag, const std::byte* data, std::size_t bytes) override {
    const int local = shm_peer(peer, bytes);
    return local >= 0 && !plain_direct(peer, bytes) &&
           fabric_->send_now(local, context_, tag, data, bytes);
  }
  bool test_all(Handles& hs) override;
  void wait_all(Handles& hs) override;
  std::vector<bool> unfinished(Handles& hs) override;
  void idle() override;
  void end_round(Handles& hs) override;
  // Off the node, the exchange is MPI's blocking send and receive where they cannot deadlock.
  bool exchange(int to, const std::byte* out, std::size_t out_bytes, int from, std::byte* in,
                std::size_t in_bytes, std::uint64_t tag, const Fold* fold) override;
  ShmPaths* shm_paths() override { return this; }

 private:
  // How the fabric copies a direct transfer the schedule gives to `copier`.
  ShmOp::Copy direct_copy(Copier copier) const;
  // The fabric's node-local index of group member `peer` when a message of `bytes` to or from it
  // goes through shared memory, else -1.
  int shm_peer(int peer, std::size_t bytes) const {
    if (fabric_ == nullptr || bytes > fabric_->stream_limit()) return -1;
    return local_[static_cast<std::size_t>(peer)];
  }
  ShmOp* shm_op(bool is_send, int local, std::uint64_t tag, const std::byte* data,
                std::size_t bytes);
  // Between polls of a wait on `hs` that found nothing: a pause while the peer of its first open
  // shared-memory operation runs on another CPU, where ranks share cores, else the fabric's idle
  // (core_turns.cpp). `began`: 0 on the wait's first poll.
  void idle_waiting(const Handles& hs, std::uint64_t& began);
  // `to_local` and `from_local`: the peers' fabric indices (-1: no send, no receive).
  bool exchange_shm(int to_local, const std::byte* out, std::size_t out_bytes, int from_local,
                    std::byte* in, std::size_t in_bytes, std::uint64_t tag, const Fold* fold);

  MPI_Comm comm_;
  ShmFabric* fabric_;
  std::vector<int> local_;          // fabric index of each member, -1 off-node
  std::vector<ShmOp*> shared_ops_;  // send_shared's, kept for their capacity
  std::vector<int> shared_locals_;  // send_shared's receivers' fabric indices, the same
  Pgid context_;
  // Instances before tags repeat. Reuse is safe while fewer collectives than that are in flight
  // on the group (start() sees to it): members start them in the same order, and messages from
  // one peer with one tag are matched in the order they were sent, on MPI as on the rings.
  std::uint64_t tag_cycle_;
  unsigned idle_polls_ = 0;
};

}  // namespace ccl::detail
