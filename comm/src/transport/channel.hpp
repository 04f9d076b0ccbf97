// The transport under a group: nonblocking transfers among the group's members, matched by
// (source, tag) in posting order. One implementation per transport (MPI communicator, simulator
// network); the schedule executor (schedule_run.hpp) is shared. What a channel keeps of a round's
// open transfers (Handles) is its own until end_round(). What only one transport can do lives
// with it, as an interface the channel may offer: the shared-memory paths (shm/shm_paths.hpp)
// and the simulator's clock (clocked_channel.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "ccl/schedule.hpp"

#include <mpi.h>

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

class ShmPaths;        // transport/shm/shm_paths.hpp
class ClockedChannel;  // transport/clocked_channel.hpp

class Channel {
 public:
  virtual ~Channel() = default;
  // The tag of one phase of one collective instance on this group.
  virtual std::uint64_t tag(std::uint64_t instance, int phase) const = 0;
  // Instances before tags repeat: at most this many collectives may be in flight on the group.
  virtual std::uint64_t tag_cycle() const { return UINT64_MAX; }
  virtual void send(int peer, std::uint64_t tag, const std::byte* data, std::size_t bytes,
                    Handles& hs) = 0;
  virtual void recv(int peer, std::uint64_t tag, std::byte* data, std::size_t bytes,
                    Handles& hs) = 0;
  // Whether a message of `bytes` to or from `peer` may be gathered from, or scattered into,
  // extents of a buffer where they lie (send_gathered, recv_scattered). Where not, the executor
  // stages it. Both sides of a transfer decide alike from the peer and the size.
  virtual bool gathers(int /*peer*/, std::size_t /*bytes*/) const { return false; }
  // The message is `pieces` of the buffer at `base`, in order, `bytes` in all.
  virtual void send_gathered(int /*peer*/, std::uint64_t /*tag*/, const std::byte* /*base*/,
                             std::span<const Extent> /*pieces*/, std::size_t /*bytes*/,
                             Handles& /*hs*/) {}
  virtual void recv_scattered(int /*peer*/, std::uint64_t /*tag*/, std::byte* /*base*/,
                              std::span<const Extent> /*pieces*/, std::size_t /*bytes*/,
                              Handles& /*hs*/) {}
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
  // The shared-memory paths this channel offers (shm_paths.hpp), or null.
  virtual ShmPaths* shm_paths() { return nullptr; }
  // The channel as a clocked one (the simulator's, clocked_channel.hpp), or null.
  virtual ClockedChannel* clocked() { return nullptr; }
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
