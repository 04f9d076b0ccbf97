// Intra-node transport: one shared-memory segment per node (MPI_Win_allocate_shared) holding a
// single-producer/single-consumer ring of cells for every ordered pair of ranks on the node. A
// send copies its payload straight into a cell of the ring to its peer and is then complete; the
// receiver copies it out. One copy each way and no matching engine in between: this is what
// makes a collective of a few bytes cheaper than Open MPI's point-to-point path (vader FIFO +
// ob1 matching), which costs ~0.2 us per message.
//
// Messages are matched by (source, group context, tag) in order, as MPI does: a message that
// arrives before its receive is posted is kept aside (unexpected) until it is. A message above
// one cell (kMaxBytes) and up to stream_limit() goes as a stream of cell-sized pieces through
// the large ring, the receiver copying each out while the sender fills the next
// (stream_transfer.cpp; with cached or non-temporal stores, whichever the receiver found
// cheaper). Larger ones do not come here: the channel sends them through MPI, or, when the
// schedule has one side copy, that side copies them directly (direct_transfer.cpp): only their
// two control messages use the rings. Both sides classify a transfer by its size, which they
// always agree on.
//
//   segment:  [rings 0→0][rings 0→1]...[rings L−1→L−1]     (L ranks on the node)
//   rings s→d: one per size class: tiny (32-byte cells, two to a cache line: a stream of
//              8-byte messages moves half a line each), small (256-byte cells) and large (a
//              few cells of kMaxBytes); the tiny and small rings let a sender run far ahead
//   ring:     [tail, stores wanted (consumer's) | cell 0 | ... | cell K−1 | context 0 | ... ]
//   cell:     [word: seq (16 bits) | new context (1) | bytes (14) | more (1) | tag (32) | payload]
//
// A message goes in the ring of its size class; both sides know the size, and a receive matches
// only messages of its own class, so per-class FIFO order is all that matching needs. A cell
// does not carry its group context (20 bytes): consecutive messages of a ring mostly share one,
// so the producer writes the context beside the cell, and sets the cell's flag, only when it
// differs from the previous message's; the consumer keeps the last one it read. Exact, no hash.
//
// The producer writes the payload (and a new context), then the cell's word with seq = message
// number + 1 mod 2^16 (release): one store publishes the whole header. The consumer reads the
// word (acquire), copies, and publishes tail (release) to free the cell.
#pragma once

#include <mpi.h>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <limits>
#include <memory>
#include <optional>
#include <vector>

#include "ccl/pgid.hpp"
#include "ccl/selection.hpp"
#include "transport/shm/fold.hpp"
#include "transport/shm/store_prices.hpp"

namespace ccl::detail {

// One send or receive through the fabric; owned by the fabric's pool. A direct transfer
// (ShmFabric::start_direct) runs its two control messages through the same op, one after the
// other.
struct ShmOp {
  enum class Direct : std::uint8_t { none, source, target };
  // Who copies a direct transfer: the sender, the receiver, or each its half (sender the first).
  enum class Copy : std::uint8_t { pushed, pulled, split };
  bool is_send = false;
  bool done = false;
  Direct direct = Direct::none;
  Copy copy = Copy::pushed;
  int peer = -1;  // node-local index of the other side
  Pgid context;
  std::uint64_t tag = 0;
  std::byte* data = nullptr;  // the message's payload; send: read only
  std::size_t bytes = 0;
  std::size_t offset = 0;  // a streamed message: bytes sent or received so far
  // A direct transfer: the caller's buffer, while data and bytes are those of a control message
  // (the asker's address and size, then the copier's notice of what it copied).
  std::byte* buffer = nullptr;
  std::size_t buffer_bytes = 0;
  std::uint64_t control[2] = {};
  // A stream whose pieces go by non-temporal stores (a send's), or came so (a receive's: its
  // first piece said). And for a receive, ticks() at its first piece when no later piece
  // had come yet (its receiver waited, so the time to its last is the transfer's), else 0.
  bool streaming = false;
  std::uint64_t started = 0;
  // A receive folded into an accumulator piece by piece (fold.hpp) instead of copied to data.
  const Fold* fold = nullptr;
  // A send whose data the sender copied into a slot of its shared area (shared_send.cpp): only
  // a reference to that slot goes through the ring.
  int shared_slot = -1;
};

class ShmFabric {
 public:
  static constexpr std::size_t kMaxBytes = 8192;          // largest message of one cell
  static constexpr std::size_t kStreamedCellFrom = 6144;  // see single_cell_copy
  static constexpr std::size_t kTinyBytes = 24;           // largest message of the tiny-cell ring
  static constexpr std::size_t kSmallBytes = 248;         // largest message of the small-cell ring
  // Tags of the channels above stay below this; the three bits above them mark control messages
  // (direct_transfer.cpp, shared_send.cpp).
  static constexpr std::uint64_t kTagLimit = std::uint64_t{1} << 29;

  // Collective over MPI_COMM_WORLD. Returns null when shared memory is not worth it (one rank per
  // node), is switched off (CCL_SHM=0), or cannot be had.
  static std::unique_ptr<ShmFabric> create();
  ~ShmFabric();
  ShmFabric(const ShmFabric&) = delete;
  ShmFabric& operator=(const ShmFabric&) = delete;

  // Node-local index of a world rank, or -1 when it is on another node.
  int local_index(int world_rank) const {
    return local_of_world_[static_cast<std::size_t>(world_rank)];
  }

  ShmOp* acquire();
  void release(ShmOp* op);  // withdraws it first when still queued or posted
  // Start a send (complete at once when its ring has room, else queued) or post a receive.
  void start(ShmOp* op);
  // Whether the ranks of this node can write into one another's memory (cross-memory attach,
  // tried once at create() and agreed; CCL_PUSH=0 says no).
  bool can_reach() const { return can_reach_; }
  // Whether this node has more ranks than cores (the same on each of its ranks).
  bool oversubscribed() const { return oversubscribed_; }
  // Messages above kMaxBytes and up to this size go through the rings as streams of pieces
  // (stream_transfer.cpp); the same on every rank of the node.
  std::size_t stream_limit() const { return stream_limit_; }
  // A transfer the schedule has one side copy (Copier::sender, Copier::receiver) goes direct above
  // this size: what does not fit in the ring at once, where one copy beats two
  // (stream_transfer.cpp). An exchange (Copier::exchange) above half the ring where every rank
  // has a core (streams then outgrow the ring): each member would make both copies of a stream.
  // Where ranks share cores a push waits for its receiver to wake and send its address, and the
  // ring does not (IMB's allgather of 64 KiB on 3 ranks: 40 us pushed, 28 streamed).
  // Where the start-up probe found one copy cheaper than streams (direct_probe.cpp), from the
  // size it found, but exchanges as before: the probe times one way at a time, and exchanges of
  // 16-32 KiB on 2 ranks where it found 8 KiB took 1.2-1.4x as long direct as streamed.
  std::size_t direct_above(bool exchange) const {
    const std::size_t ring = large_ring_holds();
    if (stream_limit_ <= ring) return stream_limit_;
    return exchange ? ring / 2 : std::min(direct_above_, ring);
  }
  // The size above which plain transfers go direct (plain_direct), or 0 where none do: the probe
  // did not run or found streams cheaper up to the ring's size, or streams stop at the ring.
  std::size_t measured_direct_above() const { return plain_direct_above_; }
  // Whether a plain transfer of `bytes` goes direct too: from the size the probe found up to
  // kOneCopyUpTo (ccl/selection.hpp). Longer ones stream as before: a reduce's segments of
  // 128 KiB, copied directly and then folded by the root alone, took a 4 MiB reduce on 2 ranks
  // from 400 to 630 us, where streamed the sender's copies into the ring overlap the root's
  // folds.
  bool plain_direct(std::size_t bytes) const {
    return plain_direct_above_ != 0 && bytes > plain_direct_above_ && bytes <= kOneCopyUpTo;
  }
  // CCL_DIRECT_ABOVE in bytes, in place of the start-up probe's finding; ~0 when unset or
  // "probe"; nullopt when it is neither a number nor "probe".
  static std::optional<unsigned long long> direct_above_setting();
  // A setting's text as a number of bytes, nullopt when it is not one (CCL_STREAM_MAX,
  // CCL_DIRECT_ABOVE).
  static std::optional<unsigned long long> bytes_setting(const char* text);
  // CCL_STREAM_MAX in bytes, all of them when unset; nullopt when it is not a number.
  static std::optional<unsigned long long> stream_max_setting();
  // CCL_STREAM_NT: how a stream fills the large ring (stream_transfer.cpp):
  // automatic when unset or "auto" (each receiver prices both ways per sender), with cached
  // stores ("0") or with non-temporal ones ("1"); nullopt for anything else.
  enum class StoreSetting { cached, streaming, automatic };
  static std::optional<StoreSetting> store_setting();
  // Sends of one buffer to several peers on the node (shared_send.cpp): the sender copies it once
  // into a slot of its shared area, which every receiver reads. Which sizes go so. From 4 KiB:
  // IMB's bcast of 2 KiB took 0.67 us shared at 3 ranks of 2 cores, 0.35 copied to each (coll/sm
  // 0.43), 0.54 and 0.43 at 4, and 0.44 and 0.49 at 8; at 4 KiB and up sharing still wins.
  static constexpr std::size_t kShareFrom = 4096;
  static constexpr std::size_t kSlotBytes = 65536;
  static constexpr int kSlots = 4;  // of each rank's shared area
  bool shares(std::size_t bytes) const {
    return bytes >= kShareFrom && bytes <= std::min({kSlotBytes, stream_limit_, direct_above_});
  }
  // A free slot of this rank's area for a message to `readers` receivers, or -1 when all are
  // still being read (then send it to each as usual).
  int reserve_slot(int readers);
  // The first piece (up to kMaxBytes) of a message for locals[0..n) into our `slot`, with the
  // stores most of them ask for (returned: true for non-temporal ones). A message of one piece
  // is then all there: each reference goes on the spot where its ring has room
  // (send_reference_now), or by an op whose shared_slot and streaming say so (start()).
  bool fill_first_piece(int slot, const int* locals, std::size_t n, const std::byte* data,
                        std::size_t bytes);
  // A longer one: start ops[0..n) (its slot and stores in each op), then fill the rest of the
  // slot piece by piece, each piece's references out as soon as it is in.
  void send_shared(ShmOp* const* ops, std::size_t n);
  bool send_reference_now(int to, const Pgid& context, std::uint64_t tag, int slot,
                          std::size_t bytes, bool streaming);
  // Start a direct transfer (op->direct says which side, op->copy which copies; data and bytes
  // are the caller's buffer, larger than direct_above()). The side that does not copy sends the
  // other its buffer's address; the copier copies straight from or to there (process_vm_readv,
  // process_vm_writev) and answers with a notice: the sender's size, or the copy's failure.
  // Each side's op is done when its part is: one copy, made by the copier. A split transfer
  // runs both roles on both sides, each copying its half (direct_transfer.cpp).
  void start_direct(ShmOp* op);
  // Shortcuts for a blocking transfer when nothing else is under way, without an ShmOp:
  // send_now puts the message in its ring if it has room and no earlier send waits for it;
  // recv_now takes the message, waiting for it, when no other receive from that peer is posted
  // and no send is queued (that would need progress while we wait), folding it if `fold` is
  // given. False: use start().
  bool send_now(int to, const Pgid& context, std::uint64_t tag, const std::byte* data,
                std::size_t bytes);
  bool recv_now(int from, const Pgid& context, std::uint64_t tag, std::byte* data,
                std::size_t bytes, const Fold* fold = nullptr);
  // Ask for the lines of the cell a message of `bytes` to `to` would go into next, for writing
  // (messages of the small and large rings; the tiny ring's next line is asked for by push()).
  void ready_cell(int to, std::size_t bytes);
  // Ask for the lines of the cell a message of `bytes` from `from` arrives in next, for reading
  // (its word and up to kPayloadAskedWithWord of payload): a root receiving from several peers
  // so takes them in one trip, not one trip each.
  void expect_cell(int from, std::size_t bytes);
  // Move queued sends into rings and arrived messages to their receives; never blocks. Now and
  // then it also lets MPI progress (see drive_mpi).
  void progress();
  bool has_queued_sends() const { return queued_ > 0; }
  // Called between polls that found nothing: gives the CPU away when ranks outnumber cores.
  void idle();
  // One poll of a wait on `from` that found nothing (core_turns.cpp): where ranks share cores,
  // true after a pause while `from` runs on another CPU and the wait (begun at `began`, 0 on its
  // first poll) is young; false when the caller should call idle() instead.
  bool wait_on_running(int from, std::uint64_t& began);
  // Held across a wait whose polls call wait_on_running: from its first poll until it first
  // gives its core away, progress() leaves MPI's progress alone, which may itself yield. Only
  // inside one (the outermost, when they nest): a spin outside any Wait that ended with its
  // message, its state left set, kept progress() from ever running MPI's progress again, and a
  // nonblocking collective handed to MPI then never completed on a peer (MPICH's nonblocking3
  // under the drop-in hung in 5 of 8 runs on 4 ranks).
  class Wait {
   public:
    explicit Wait(ShmFabric& f) : f_(f) {
      if (f_.waits_++ == 0) f_.spinning_ = f_.spin_ticks_ != 0;
    }
    ~Wait() {
      if (--f_.waits_ == 0) f_.spinning_ = false;
    }
    Wait(const Wait&) = delete;
    Wait& operator=(const Wait&) = delete;

   private:
    ShmFabric& f_;
  };

 private:
  struct Unexpected {
    Pgid context;
    std::uint64_t tag;
    int cls;    // the ring class it came through
    bool more;  // a stream's piece that others follow
    std::vector<std::byte> payload;
  };
  static constexpr int kClasses = 3;  // 0: tiny cells, 1: small cells, 2: large cells
  // Streams are priced and chosen per size class, a power of two each: above kMaxBytes up to
  // twice that is class 0, and so on; the last class takes all larger ones. Each class is a bit
  // of the word in which a receiver asks for non-temporal stores (stream_transfer.cpp).
  static constexpr int kStreamClasses = 16;
  static int stream_class(std::size_t bytes);  // stream_transfer.cpp
  static constexpr int kLarge = 2;             // the ring class of streams and shared references
  static int size_class(std::size_t bytes) {
    return bytes <= kTinyBytes ? 0 : bytes <= kSmallBytes ? 1 : 2;
  }
  struct Lane {                   // one ring class between this rank and a peer
    std::uint64_t head = 0;       // messages we pushed into our ring to the peer
    std::uint64_t tail_seen = 0;  // its consumer's tail, as last read
    std::uint64_t tail = 0;       // messages we took out of its ring to us
    bool context_sent = false;    // sent_context holds the context of our last push
    Pgid sent_context;
    Pgid received_context;      // of the last message taken that carried one
    std::deque<ShmOp*> queued;  // sends waiting for room, in order
  };
  struct Peer {
    Lane lanes[kClasses];
    std::byte* out[kClasses] = {};  // our rings to this peer
    std::byte* in[kClasses] = {};   // its rings to us
    std::vector<ShmOp*> posted;     // receives from this peer, in posting order
    std::deque<Unexpected> unexpected;
    // Per size class of stream (stream_transfer.cpp): the prices of the last few streams from
    // this peer, each way; and how many streams of that class went to it.
    struct StreamClass {
      StorePrices cached, streaming;
      std::uint32_t sends = 0;
    };
    StreamClass streams[kStreamClasses];
    CellStoreChoice cells;  // one-cell messages of kStreamedCellFrom bytes or more
  };
  struct Geometry {              // of one ring class
    std::uint64_t cells = 0;     // a power of two
    std::size_t cell_bytes = 0;  // word + largest payload, a multiple of 32
    std::size_t ring_bytes() const;
    std::size_t cell(std::uint64_t message) const {
      return kLine + (message & (cells - 1)) * cell_bytes;
    }
    std::size_t context(std::uint64_t message) const {
      return kLine + cells * cell_bytes + (message & (cells - 1)) * sizeof(Pgid);
    }
  };
  struct Incoming {  // a message in its cell, header decoded
    Pgid context;
    std::uint64_t tag;
    const std::byte* payload;
    std::size_t bytes;
    bool more;                    // a stream's piece that others follow
    bool streaming = false;       // a long stream's first piece, sent by non-temporal stores
    bool cell_priced = false;     // a one-cell message whose stores were chosen by prices,
    bool cell_streaming = false;  // and by non-temporal ones
    bool alone = false;           // large ring: no later message had arrived behind it
    int shared_slot = -1;         // the payload is in that slot of the sender's shared area
  };
  static constexpr std::size_t area_bytes() { return kLine + kSlots * kSlotBytes; }
  std::byte* area(int local) const;  // the shared area of a node-local rank
  // In a rank's area, first: the CPU it runs on, plus one, or 0 while it has given its core away
  // (core_turns.cpp).
  std::atomic_ref<std::uint32_t> running_on(int local) const;
  void publish_cpu();       // ours, as the kernel last placed us
  void start_core_turns();  // where ranks share cores: publish our CPU, price the spin
  // Then its slots' data.
  std::byte* slot_data(int local, int slot) const;
  // Who still reads one of our slots: the references of its message not sent yet, and for each
  // receiver sent its last one, the large ring's head just after it. The slot is free once none
  // is unsent and each of those receivers' tails has reached that head (slot_free).
  struct SlotReaders {
    std::size_t unsent = 0;
    std::vector<std::pair<int, std::uint64_t>> heads;
  };
  bool slot_free(int slot);
  void sent_last_reference(int slot, int to);
  // A shared send's references to what its slot holds so far; true once all of it went.
  bool push_reference(ShmOp* op);
  // Bytes [at, at + piece) of a shared message into our `slot`, as the receivers asked.
  void fill_piece(int slot, std::size_t at, const std::byte* data, std::size_t piece,
                  bool streaming);
  void push_queued();  // queued sends into their rings while there is room
  // The tail of our ring of class `cls` to `to` (messages it took), read afresh into tail_seen.
  std::uint64_t read_tail(int to, int cls);
  // A reference that arrived from `from`: `in` now describes the data in the slot.
  void resolve_reference(int from, Incoming& in) const;
  static constexpr std::size_t kLine = 64;
  // How much of a one-cell message recv_now asks for with its cell's word (a larger one is more
  // often still being written then); take_cell asks for the rest of a larger one once it is in.
  static constexpr std::size_t kPayloadAskedWithWord = 512;
  // Ask for every cache line of [from, from + bytes) (bytes > 0) ahead of loads from them, so
  // that their trips from another core's cache overlap.
  static void ask_for_lines(const std::byte* from, std::size_t bytes) {
    for (std::size_t at = 0; at < bytes; at += kLine) __builtin_prefetch(from + at, 0, 3);
    __builtin_prefetch(from + bytes - 1, 0, 3);  // the last line, where `from` is not aligned
  }

  ShmFabric() = default;
  void map_own_pages() const;      // at create(): fault in the pages this rank will touch
  std::size_t pair_bytes() const;  // all rings from one rank to another
  std::byte* ring(int from, int to, int cls) const;
  // One message (or a stream's piece) into our ring of class `cls` to `to`; false when it is full.
  // How the payload is copied: with cached stores, or non-temporal ones (marking the first
  // piece of a stream so, for its receiver's prices).
  // streaming_first: a long stream's first piece by non-temporal stores. *_cell: a message of
  // one cell whose stores were chosen by prices (cell_stores.cpp): the sender times its copy,
  // and a non-temporal one is marked for its receiver, who times its own.
  enum class PieceCopy { cached, streaming, streaming_first, cached_cell, streaming_cell };
  bool push(int to, int cls, const Pgid& ctx, std::uint64_t tag, const std::byte* data,
            std::size_t bytes, bool more, PieceCopy copy = PieceCopy::cached);
  // How a message of one cell to `to` is copied in (cell_stores.cpp): cached stores below
  // kStreamedCellFrom bytes and where ranks share cores (the receiver often runs next on the
  // sender's core and finds the lines in its cache: allgather of 8 KiB on 4 ranks, 7.2-7.5 us
  // cached, 9.6 not); as CCL_STREAM_NT says when set; otherwise the way the prices of both sides
  // say is cheaper.
  PieceCopy single_cell_copy(int to, std::size_t bytes);
  // Ticks a one-cell message of `bytes` took to copy into `to`'s cell, or out of `from`'s.
  void price_cell_sent(int to, bool streaming, std::uint64_t ticks, std::size_t bytes);
  void price_cell_taken(int from, bool streaming, std::uint64_t ticks, std::size_t bytes);
  // Copy a one-cell message out of its cell, priced when its sender chose its stores by price.
  void take_cell(int from, const Incoming& in, std::byte* to);
  // A send's message into its ring: whole, or a stream's pieces from op->offset while there is
  // room. True once all of it is in.
  bool push_op(ShmOp* op);
  bool push_pieces(ShmOp* op);  // stream_transfer.cpp
  // stream_transfer.cpp: whether the next stream of `bytes` to these receivers (one, or a
  // shared send's) goes by non-temporal stores, as most of them ask for its size class; and the
  // price of one received from `p` (ticks from its first byte to its last; priced only under
  // CCL_STREAM_NT=auto), which updates the way this rank asks `p` to send.
  bool streaming_for(const int* locals, std::size_t n, std::size_t bytes);
  void price_long_stream(Peer& p, bool streaming, std::uint64_t ticks, std::size_t bytes);
  void poll(int from, int cls);
  // The next message in `ring` (a ring to us), if it has arrived; its cell stays taken until
  // free_cell. Updates the lane's current context when the message carries a new one.
  // A reference to shared data comes out as that data (resolve_reference).
  bool arrived(int from, const std::byte* ring, Lane& lane, const Geometry& g, Incoming& in) const;
  // The lane's next message was taken (copied out, a shared one's piece too): its cell is free
  // again, and the tail that says so also frees a shared message's slot (shared_send.cpp).
  void free_cell(std::byte* ring, Lane& lane);
  // A message nobody has asked for yet, kept until a receive matches it.
  static void keep_aside(Peer& p, int cls, const Incoming& in);
  // `more`: a stream that was still going on at `got` bytes.
  [[noreturn]] static void size_mismatch(std::size_t got, std::size_t wanted, bool more = false);
  // op's message went into its ring, or arrived into op->data: done, or a direct transfer's next
  // step (direct_transfer.cpp).
  void sent(ShmOp* op);
  void received(ShmOp* op);
  // The copier's part of a direct transfer, once the asker's address is in op->control.
  void copy_direct(ShmOp* op);
  // The receiver's end of a direct transfer: reports a failed copy (by the receiver itself when
  // `pulled`, else by the sender) or sizes that differ, as `notice` says.
  void check_notice(const ShmOp* op, std::uint64_t notice, bool pulled) const;
  bool probe_reach();  // collective over the node: can every rank reach into its neighbour?
  // Collective over the node: the size above which direct transfers go (direct_probe.cpp).
  std::size_t probe_direct_above();
  // One transfer with `peer`, started and driven to its end (direct: pulled by the receiver).
  void transfer_blocking(bool is_send, int peer, const Pgid& context, std::uint64_t tag,
                         std::byte* data, std::size_t bytes, bool direct);
  // Bytes the large ring holds at once: its cells, full.
  std::size_t large_ring_holds() const { return geometry_[2].cells * kMaxBytes; }
  // Collective over the node: stream_limit(), CCL_STREAM_MAX (bytes) if every rank sets it.
  std::size_t agreed_stream_limit() const;
  // A message from ring class `cls` into the first matching receive posted: the receive, taken off
  // the list, once complete; null when it awaits more pieces, or when none matched (kept aside).
  ShmOp* deliver(Peer& p, int cls, const Incoming& in);
  // The messages kept aside from p that match op, into it in order, and dropped; whether op is
  // complete.
  bool take_unexpected(Peer& p, ShmOp* op);
  // A message or a stream's next piece into op; whether op is complete. Throws on a size
  // mismatch. `in`, when the piece comes straight from the ring: whether it came alone and how
  // (for a long stream's price).
  bool take_piece(ShmOp* op, const std::byte* payload, std::size_t bytes, bool more,
                  const Incoming* in = nullptr);
  // A rank waiting only on shared memory makes no MPI calls, yet its peers' large MPI sends may
  // complete only once its MPI progress engine has run (the receiver's side of a rendezvous).
  // Without this, a member done with a collective (waiting in the next one on shared memory)
  // could leave the others blocked forever; seen with a pipelined reduce on 3 ranks.
  void drive_mpi();

  MPI_Comm node_ = MPI_COMM_NULL;
  MPI_Win win_ = MPI_WIN_NULL;
  std::byte* base_ = nullptr;
  int local_ = 0;
  int size_ = 0;
  Geometry geometry_[kClasses];
  bool oversubscribed_ = false;
  bool can_reach_ = false;
  StoreSetting stores_ = StoreSetting::automatic;
  std::size_t stream_limit_ = kMaxBytes;
  std::size_t direct_above_ = std::numeric_limits<std::size_t>::max();  // probe_direct_above
  std::size_t plain_direct_above_ = 0;  // measured_direct_above, fixed at create()
  std::vector<int> pids_;               // of the node's ranks, by local index
  unsigned idle_polls_ = 0;
  unsigned polls_ = 0;
  std::uint32_t cpu_ = 0;         // ours plus one, as published; 0: unknown
  std::uint64_t spin_ticks_ = 0;  // how long a wait spins on a running peer (core_turns.cpp)
  bool spinning_ = false;         // in a Wait that has not yielded yet, or spins again
  int waits_ = 0;                 // Waits held (nested ones too)
  std::size_t queued_ = 0;
  int next_slot_ = 0;                     // of our shared area, the first reserve_slot() tries
  std::size_t slot_filled_[kSlots] = {};  // bytes of its message copied into each slot
  SlotReaders slot_readers_[kSlots];
  std::vector<int> local_of_world_;
  std::vector<int> world_of_local_;
  std::vector<Peer> peers_;
  std::vector<std::unique_ptr<ShmOp>> all_ops_;
  std::vector<ShmOp*> free_ops_;
};

}  // namespace ccl::detail
