// A schedule is one member's plan for one collective (the LibNBC idea): rounds of steps over
// buffer slices. Within a round the local steps (copy, reduce) run first, in order, then every
// send and receive of the round is posted, then the round's copies that run while its transfers
// are in flight (copy_during); the round ends when all transfers completed. A step that
// needs data received in a round therefore goes in a later round, and the builder starts a new
// round by itself when a local step follows a transfer, or a transfer touches bytes another
// transfer of the round receives into or sends from.
//
// Slices name a buffer (the caller's send or recv buffer, or the schedule's scratch) and a byte
// range, so one schedule serves every call of the same shape, on MPI or on the simulator.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

namespace ccl {

enum class Buffer : std::uint8_t { send, recv, scratch };

struct Slice {
  Buffer buffer = Buffer::send;
  std::size_t offset = 0;
  std::size_t bytes = 0;
  Slice sub(std::size_t off, std::size_t len) const { return {buffer, offset + off, len}; }
  friend bool operator==(const Slice&, const Slice&) = default;
};

enum class StepKind : std::uint8_t { send, recv, copy, reduce };

// Bytes [offset, offset + bytes) of a buffer: one piece of a gathered send or scattered receive.
struct Extent {
  std::size_t offset = 0;
  std::size_t bytes = 0;
  friend bool operator==(const Extent&, const Extent&) = default;
};

// Who copies a large message between two members on one node. Normally both (Copier::both): the
// sender into the shared-memory rings and the receiver out of them, a pipeline of two copies that
// beats MPI's single-copy path (a system call per transfer) for one-way traffic such as a chain's.
// A member that both sends and receives large messages in a round (exchanges: rings, recursive
// doubling, pairwise) would then copy twice as much as it moves, and one that receives from many
// at once (a gather's root) would copy everything itself: their schedules have the sender write
// straight into the receiver's buffer (Copier::sender) once a message outgrows the rings. A root
// that sends to many, or has a copy of its own to make (a linear scatter's), has each receiver
// read straight from its buffer instead (Copier::receiver): the root's part is a handshake. An
// exchange (Copier::exchange: the member sends and receives at once, and so does its partner) is
// pushed from half the rings on where ranks have a core each (ShmFabric::direct_above): a stream
// there costs each member two copies of what it moves, a push one and a handshake. IMB's
// allgather and alltoall of 64 KiB on 2 ranks took 8.3-9.2 us pushed against 12.2-12.9 streamed,
// while a one-way gather of 64 KiB took 8.6 pushed, 5.9 streamed. A transfer whose two sides
// have nothing else to do (a bcast between two members) is split (Copier::split): the sender
// writes the first half straight into the receiver's buffer while the receiver reads the second
// half, each core copying half (where ranks share cores the receiver reads it all). Both sides
// of a transfer name the same copier.
enum class Copier : std::uint8_t { both, sender, receiver, exchange, split };

struct Step {
  StepKind kind;
  int peer = -1;                 // group rank, for send and recv
  bool incoming_left = false;    // reduce: dst = src op base when true, else dst = base op src
  Slice src;                     // send, copy, reduce (the incoming operand)
  Slice dst;                     // recv, copy, reduce (the accumulator, also the result)
  Slice base;                    // reduce: the other operand when it is not dst (saves a copy)
  Copier copier = Copier::both;  // send, recv
  // recv: the next round's first step is a reduce of what this receives, which may be done as
  // the data arrives instead (mark_folds decides; schedule_run.cpp folds).
  bool folds = false;
  // A gathered send or scattered receive (ScheduleBuilder::send_gathered): the message is
  // Schedule::extents[first_extent, first_extent + extents) of `gathered`, in that order, and
  // src (send) or dst (recv) is scratch where the executor stages it when the channel cannot
  // move the pieces where they lie. 0 extents: an ordinary transfer of src or dst.
  Buffer gathered = Buffer::recv;
  std::uint32_t extents = 0;
  std::uint32_t first_extent = 0;
};

// How a round is laid out: its first `locals` steps are local (copy, reduce: the builder puts
// them before any transfer), then come the transfers, then `during` copies that touch nothing the
// transfers do (`during_bytes` in all). When the transfers are at most one send and one receive
// (step indices, -1 for none), a blocking executor can do them as one call.
struct RoundPlan {
  std::uint32_t locals = 0;
  std::uint32_t during = 0;
  std::size_t during_bytes = 0;
  std::int32_t send = -1, recv = -1;
  std::uint32_t sends = 0;
  std::uint32_t gathered = 0;  // transfers with extents
  bool pair = false;
};

struct Schedule {
  std::vector<Step> steps;
  std::vector<std::uint32_t> round_begin;  // round r is steps [round_begin[r], round_begin[r+1])
  std::vector<RoundPlan> plans;            // per round (ScheduleBuilder::finish fills it)
  std::vector<Extent> extents;             // the pieces of gathered transfers (Step::first_extent)
  std::size_t scratch_bytes = 0;
  std::string_view algorithm;  // static storage: the name in the algorithm's file

  std::span<const Extent> extents_of(const Step& st) const {
    return std::span<const Extent>(extents).subspan(st.first_extent, st.extents);
  }

  std::size_t rounds() const { return round_begin.empty() ? 0 : round_begin.size() - 1; }
  std::span<const Step> round(std::size_t r) const {
    return std::span<const Step>(steps).subspan(round_begin[r],
                                                round_begin[r + 1] - round_begin[r]);
  }
};

// Mark the receives that may fold into the reduce opening the next round (Step::folds), where
// doing it early changes nothing another step sees. `in_place`: the send buffer is the receive
// buffer (the call's shape says so; otherwise MPI and ccl's checks keep them apart).
void mark_folds(Schedule& s, bool in_place);

class ScheduleBuilder {
 public:
  explicit ScheduleBuilder(std::string_view algorithm);  // a literal: it is not copied

  // Transfers of zero bytes are dropped: both sides derive the same sizes from the shape.
  void send(int peer, Slice s, Copier copier = Copier::both);
  void recv(int peer, Slice s, Copier copier = Copier::both);
  // One message gathered from `pieces` of `buffer`, in their order, or scattered into them on
  // receipt; adjacent pieces merge, and one piece is an ordinary transfer. Where the channel can
  // (MPI off the node: a derived datatype, as a torus's DMA engines read and wrote shares where
  // they lay), the pieces move where they lie; elsewhere the executor stages the message in
  // scratch reserved here, a copy before the send and one after the round of the receive.
  void send_gathered(int peer, Buffer buffer, std::span<const Extent> pieces);
  void recv_scattered(int peer, Buffer buffer, std::span<const Extent> pieces);
  // Zero-byte messages that carry only synchronisation (sync).
  void send_token(int peer);
  void recv_token(int peer);
  // Local steps; a copy onto itself is dropped. A local step after a transfer opens a new round.
  void copy(Slice from, Slice to);
  void reduce(Slice incoming, Slice acc, bool incoming_left);
  // The same with the other operand read from `base` instead of acc: acc = incoming op base (or
  // base op incoming), so a member's first fold needs no copy of its own vector into acc.
  void reduce(Slice incoming, Slice acc, bool incoming_left, Slice base);
  // A copy that runs while the current round's transfers are in flight (a root's own block, say,
  // while peers pull theirs): it neither writes what the round sends or receives nor reads what
  // it receives. Where it would, or the round has no transfer yet, it is an ordinary copy. The
  // next step of any kind opens a new round.
  void copy_during(Slice from, Slice to);
  // Close the current round (no effect when it is empty).
  void end_round();
  // Reserve scratch bytes; returns a slice of the scratch buffer.
  Slice scratch(std::size_t bytes);

  Schedule finish();

 private:
  // Bytes of the buffers, merged into disjoint ranges: what the current round's sends read and
  // its receives write, so that checking a new step against them is logarithmic (a member of a
  // linear concat on 4,096 members puts 8,190 transfers in one round).
  class Ranges {
   public:
    void add(const Slice& s);
    bool overlaps(const Slice& s) const;
    void clear() { end_.clear(); }

   private:
    std::map<std::pair<Buffer, std::size_t>, std::size_t> end_;  // (buffer, begin) → end
  };

  void add(const Step& s, bool transfer);
  void add_gathered(StepKind kind, int peer, Buffer buffer, std::span<const Extent> pieces);
  bool conflicts_in_round(const Step& s) const;
  bool conflicts_in_round(StepKind kind, Buffer buffer, std::span<const Extent> pieces) const;
  bool touches_transfers(Slice from, Slice to) const;
  Schedule s_;
  Ranges sent_, received_;  // in the current round
  bool round_has_transfer_ = false;
  bool round_has_during_ = false;
};

}  // namespace ccl
