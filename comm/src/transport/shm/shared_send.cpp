// Shared sends of the shared-memory fabric: a member sending one buffer to several peers of its
// node in one round (a linear bcast's root) copies it once into a slot of its own shared area
// and sends each receiver references to the slot through the large ring; each receiver copies
// the data out of the slot. Through the rings the root would copy it once per receiver.
//
//   area of each rank:  [running on]                     one line (core_turns.cpp)
//                       [slot 0 | ... | slot K−1]        kSlotBytes each
//   reference:          a large-ring message {slot, offset, bytes} tagged tag | kSharedTag,
//                       marked `more` but for the last, as a stream's pieces are
//
// The root fills the slot a piece (kPiece) at a time and sends each piece's references as soon
// as it is in, so receivers copy one piece while the root writes the next, as coll/sm's
// fragments go. A send that finds its ring full sends references to all that is in the slot
// once there is room.
//
// The slot is filled with cached or non-temporal stores as most receivers ask, and each receiver
// prices a shared message of several pieces as it prices a stream (stream_transfer.cpp). IMB's
// bcast on 4 ranks of 2 cores, one job each way: 16 KiB 2.1 us cached, 1.7-1.8 as asked; 32 KiB
// 3.8 and 2.5 (coll/sm 1.2 and 2.4).
//
// Cost for n receivers of m bytes, p = ceil(m / kPiece) pieces: the root copies m once and
// writes n·p references (a cache line's trip each), where it copied n·m; each receiver copies
// m, as before. On 4 ranks of 2 cores, where the root's copies and the receivers' share the
// cores, that is 4 copies of m instead of 6. IMB's bcast on 4 ranks (per call, same script,
// against the previous build): 2-64 KiB at 0.64-0.85 of its time.
//
// A slot is free once every receiver has taken the last reference to it: a receiver frees a
// reference's cell, advancing its ring's tail (release), only after copying that piece out, so
// the sender keeps, for each receiver, the large ring's head just past the last reference and
// reads the tails (acquire) before filling the slot again. Receivers write nothing more: a
// shared count each decremented cost each an atomic read-modify-write of one line, which the
// receivers of a node take in turn, one after another (on 2 cores, where two run at once, no
// change measured: bcast of 2 KiB on 4 ranks, receivers 0.43-0.56 us a call either way). A
// reference taken before its receive is posted is copied out at once (kept aside), so a slot
// never waits on a receive the program has not posted yet. When no slot is free the sends go
// through the rings one by one, as they would without this; receivers take either form.
//
// A reference is an ordinary large-ring message: it keeps its place in the ring's order among
// the sender's other large messages, so matching is unchanged. Its tag has both control bits
// set, which no other message has (a pushed transfer's control messages set one).
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>

#include "ccl/copy_bytes.hpp"
#include "transport/shm/shm_fabric.hpp"

namespace ccl::detail {

namespace {

constexpr std::uint64_t kSharedTag = ShmFabric::kTagLimit | (ShmFabric::kTagLimit << 1);

// A message of one cell's size goes in one reference, as it would in one cell: its receiver may
// take it whole (recv_now).
constexpr std::size_t kPiece = ShmFabric::kMaxBytes;

struct Reference {
  std::uint32_t slot;
  std::uint32_t offset;
  std::uint32_t bytes;
  std::uint32_t streaming;  // 1: the slot was filled by non-temporal stores
};
static_assert(ShmFabric::kSlotBytes <= UINT32_MAX);

}  // namespace

std::byte* ShmFabric::area(int local) const {
  const auto L = static_cast<std::size_t>(size_);
  return base_ + L * L * pair_bytes() + static_cast<std::size_t>(local) * area_bytes();
}

std::byte* ShmFabric::slot_data(int local, int slot) const {
  return area(local) + kLine + static_cast<std::size_t>(slot) * kSlotBytes;
}

bool ShmFabric::slot_free(int slot) {
  SlotReaders& readers = slot_readers_[slot];
  if (readers.unsent > 0) return false;
  for (const auto& [to, head] : readers.heads) {
    if (peers_[static_cast<std::size_t>(to)].lanes[kLarge].tail_seen >= head) continue;
    if (read_tail(to, kLarge) < head) return false;  // still being read
  }
  readers.heads.clear();
  return true;
}

int ShmFabric::reserve_slot(int readers) {
  for (int k = 0; k < kSlots; ++k) {
    const int slot = (next_slot_ + k) % kSlots;
    if (!slot_free(slot)) continue;
    slot_readers_[slot].unsent = static_cast<std::size_t>(readers);
    slot_filled_[slot] = 0;
    next_slot_ = (slot + 1) % kSlots;
    return slot;
  }
  return -1;
}

void ShmFabric::sent_last_reference(int slot, int to) {
  SlotReaders& readers = slot_readers_[slot];
  readers.heads.emplace_back(to, peers_[static_cast<std::size_t>(to)].lanes[kLarge].head);
  --readers.unsent;
}

void ShmFabric::fill_piece(int slot, std::size_t at, const std::byte* data, std::size_t piece,
                           bool streaming) {
  std::byte* to = slot_data(local_, slot) + at;
  if (streaming) {
    copy_streaming(to, data, piece);
    streaming_fence();  // the piece before the references that publish it
  } else {
    copy_bytes(to, data, piece);
  }
  slot_filled_[slot] = at + piece;
}

bool ShmFabric::fill_first_piece(int slot, const int* locals, std::size_t n, const std::byte* data,
                                 std::size_t bytes) {
  // Cached or non-temporal stores, as most of the receivers ask (stream_transfer.cpp).
  const bool streaming = streaming_for(locals, n, bytes);
  fill_piece(slot, 0, data, std::min(kPiece, bytes), streaming);
  return streaming;
}

void ShmFabric::send_shared(ShmOp* const* ops, std::size_t n) {
  const ShmOp& first = *ops[0];
  for (std::size_t i = 0; i < n; ++i) start(ops[i]);
  for (std::size_t at = kPiece; at < first.bytes; at += kPiece) {
    fill_piece(first.shared_slot, at, first.data + at, std::min(kPiece, first.bytes - at),
               first.streaming);
    push_queued();
  }
}

bool ShmFabric::send_reference_now(int to, const Pgid& context, std::uint64_t tag, int slot,
                                   std::size_t bytes, bool streaming) {
  if (!peers_[static_cast<std::size_t>(to)].lanes[kLarge].queued.empty()) return false;
  const Reference ref{static_cast<std::uint32_t>(slot), 0, static_cast<std::uint32_t>(bytes),
                      streaming ? 1u : 0u};
  if (!push(to, kLarge, context, tag | kSharedTag, reinterpret_cast<const std::byte*>(&ref),
            sizeof ref, false)) {
    return false;
  }
  sent_last_reference(slot, to);
  return true;
}

bool ShmFabric::push_reference(ShmOp* op) {
  const std::size_t filled = slot_filled_[op->shared_slot];
  while (op->offset < filled) {
    const std::size_t piece = filled - op->offset;
    const Reference ref{static_cast<std::uint32_t>(op->shared_slot),
                        static_cast<std::uint32_t>(op->offset), static_cast<std::uint32_t>(piece),
                        op->streaming ? 1u : 0u};
    const bool more = op->offset + piece < op->bytes;
    if (!push(op->peer, kLarge, op->context, op->tag | kSharedTag,
              reinterpret_cast<const std::byte*>(&ref), sizeof ref, more)) {
      return false;
    }
    op->offset += piece;
    if (!more) sent_last_reference(op->shared_slot, op->peer);
  }
  return op->offset == op->bytes;
}

void ShmFabric::resolve_reference(int from, Incoming& in) const {
  if ((in.tag & kSharedTag) != kSharedTag) return;
  Reference ref;
  std::memcpy(&ref, in.payload, sizeof ref);
  in.tag &= ~kSharedTag;
  in.shared_slot = static_cast<int>(ref.slot);
  in.payload = slot_data(from, in.shared_slot) + ref.offset;
  in.bytes = ref.bytes;
  in.streaming = ref.streaming != 0;
}

}  // namespace ccl::detail
