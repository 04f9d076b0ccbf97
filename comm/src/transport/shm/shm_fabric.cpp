#include "transport/shm/shm_fabric.hpp"

#include <unistd.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <string>

#include "ccl/copy_bytes.hpp"
#include "ccl/error.hpp"
#include "ccl/selection.hpp"
#include "ccl/tick_clock.hpp"

namespace ccl::detail {

namespace {

// Ask for a cache line in exclusive state ahead of a store into it (PREFETCHW where the CPU has
// it). See push() for why.
#if defined(__x86_64__) || defined(__i386__)
bool cpu_prefetches_for_write() {
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  return __get_cpuid(0x80000001, &eax, &ebx, &ecx, &edx) != 0 && (ecx & bit_PRFCHW) != 0;
}
const bool kPrefetchForWrite = cpu_prefetches_for_write();
inline void prefetch_for_write(const std::byte* at) {
  if (kPrefetchForWrite) asm volatile("prefetchw %0" : : "m"(*at));
}
#else
inline void prefetch_for_write(const std::byte* at) {
  __builtin_prefetch(at, 1, 3);
}
#endif

// Cells per ring: a sender may run this many messages ahead of its receiver. Each tiny and small
// ring holds 64 KiB of cells. Deep matters for the smallest messages, because ranks that share a
// core take turns: a root streaming small collectives to a peer asleep on its own core runs
// until that peer's ring is full, and each full ring costs two context switches. With 256 tiny
// cells, 8 B bcasts on 3 ranks of 2 cores took 0.13 us against Open MPI's 0.11 (whose eager
// sends are not bounded); with 2048, 0.11. Deeper small rings (512 KiB) cost more in cache
// misses than they saved: alltoall of 64 B blocks on 8 ranks went from 0.93 to 1.19 Open MPI's
// time. Crowded nodes get fewer tiny cells (down to kSmallCells) before all rings shrink.
constexpr std::uint64_t kTinyCells = 2048;
constexpr std::uint64_t kSmallCells = 256;
constexpr std::uint64_t kLargeCells = 8;
constexpr std::size_t kBudget = std::size_t{128} << 20;  // whole segment, all rings of a node
constexpr std::size_t kWord = sizeof(std::uint64_t);     // the cell's word; the payload follows

// The cell's word: seq (16 bits) | new context (1) | bytes (14) | more (1) | tag (32). A 16-bit
// seq tells this lap's message from the last lap's as long as a ring has fewer than 2^16 cells.
// `more`: a piece of a streamed message that other pieces follow (stream_transfer.cpp).
constexpr std::uint64_t kSeqMask = 0xffff, kNewContext = 1u << 16, kBytesMask = 0x3fff,
                        kMore = std::uint64_t{1} << 31;
// A bytes field no piece can have marks a long stream's first piece (kMaxBytes of them) sent by
// non-temporal stores, for its receiver's prices (stream_transfer.cpp).
constexpr std::uint64_t kStreamingFirst = kBytesMask;
static_assert(kTinyCells < kSeqMask && ShmFabric::kMaxBytes < kStreamingFirst);
// Bytes fields from kMaxBytes + 1 up mark one-cell messages whose stores were chosen by price
// (cell_stores.cpp): cached ones first, then non-temporal ones, each counting down from
// kMaxBytes.
constexpr std::size_t kPricedCellSpan = ShmFabric::kMaxBytes - ShmFabric::kStreamedCellFrom + 1;
static_assert(ShmFabric::kMaxBytes + 2 * kPricedCellSpan < kStreamingFirst);
std::size_t priced_cell_field(std::size_t bytes, bool streaming) {
  return ShmFabric::kMaxBytes + 1 + (ShmFabric::kMaxBytes - bytes) +
         (streaming ? kPricedCellSpan : 0);
}

std::uint64_t cell_word(std::uint64_t message, bool new_context, std::size_t bytes, bool more,
                        std::uint64_t tag) {
  return ((message + 1) & kSeqMask) | (new_context ? kNewContext : 0) |
         (std::uint64_t{bytes} << 17) | (more ? kMore : 0) | (tag << 32);
}

std::atomic_ref<std::uint64_t> word(std::byte* at) {
  return std::atomic_ref<std::uint64_t>(*reinterpret_cast<std::uint64_t*>(at));
}
std::uint64_t load_word(const std::byte* at) {
  return std::atomic_ref<const std::uint64_t>(*reinterpret_cast<const std::uint64_t*>(at))
      .load(std::memory_order_acquire);
}

bool wanted() {
  const char* v = std::getenv("CCL_SHM");
  return v == nullptr || std::string(v) != "0";
}

}  // namespace

std::unique_ptr<ShmFabric> ShmFabric::create() {
  // Every rank must take the same decision, whatever its environment says.
  int want = wanted() ? 1 : 0, all_want = 0;
  MPI_Allreduce(&want, &all_want, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (all_want == 0) return nullptr;

  std::unique_ptr<ShmFabric> f(new ShmFabric());
  int world_size = 0, world_rank = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &world_size);
  MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, world_rank, MPI_INFO_NULL, &f->node_);
  MPI_Comm_set_errhandler(f->node_, MPI_ERRORS_RETURN);
  MPI_Comm_rank(f->node_, &f->local_);
  MPI_Comm_size(f->node_, &f->size_);
  const auto L = static_cast<std::size_t>(f->size_);

  // Fewer cells per ring on crowded nodes, so that the segment stays within budget: the tiny ring
  // halves down to the small ring's depth, then all of them halve together. Every rank of a node
  // computes the same L, hence the same geometry: no agreement needed. Powers of two, so that a
  // message number finds its cell by a mask.
  f->geometry_[0] = Geometry{kTinyCells, kWord + kTinyBytes};
  f->geometry_[1] = Geometry{kSmallCells, kWord + kSmallBytes};
  f->geometry_[2] = Geometry{kLargeCells, kLine + kMaxBytes};
  while (L * L * f->pair_bytes() > kBudget && f->geometry_[2].cells >= 2) {
    const bool tiny_only = f->geometry_[0].cells > f->geometry_[1].cells;
    for (int c = 0; c < kClasses; ++c) {
      if (!tiny_only || c == 0) f->geometry_[c].cells /= 2;
    }
  }
  if (f->size_ == 1 || f->geometry_[2].cells < 2)
    return nullptr;  // MPI_Comm_free in the destructor

  f->world_of_local_.resize(L);
  MPI_Allgather(&world_rank, 1, MPI_INT, f->world_of_local_.data(), 1, MPI_INT, f->node_);
  f->local_of_world_.assign(static_cast<std::size_t>(world_size), -1);
  for (std::size_t i = 0; i < L; ++i) {
    f->local_of_world_[static_cast<std::size_t>(f->world_of_local_[i])] = static_cast<int>(i);
  }

  // The rings of every pair, then every rank's shared area (shared_send.cpp).
  const MPI_Aint total = static_cast<MPI_Aint>(L * L * f->pair_bytes() + L * area_bytes());
  void* mine = nullptr;
  int ok = MPI_Win_allocate_shared(f->local_ == 0 ? total : 0, 1, MPI_INFO_NULL, f->node_, &mine,
                                   &f->win_) == MPI_SUCCESS;
  if (ok) {
    MPI_Aint size = 0;
    int disp = 0;
    void* base = nullptr;
    ok = MPI_Win_shared_query(f->win_, 0, &size, &disp, &base) == MPI_SUCCESS && size >= total;
    f->base_ = static_cast<std::byte*>(base);
    if (ok && f->local_ == 0) std::memset(f->base_, 0, static_cast<std::size_t>(total));
  }
  int all_ok = 0;
  MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, f->node_);
  if (all_ok == 0) return nullptr;  // the destructor frees what was made
  MPI_Barrier(f->node_);            // the zeroed segment is visible before any use
  f->map_own_pages();

  f->peers_.resize(L);
  for (int q = 0; q < f->size_; ++q) {
    for (int cls = 0; cls < kClasses; ++cls) {
      f->peers_[static_cast<std::size_t>(q)].out[cls] = f->ring(f->local_, q, cls);
      f->peers_[static_cast<std::size_t>(q)].in[cls] = f->ring(q, f->local_, cls);
    }
  }
  f->oversubscribed_ =
      core_sharing_of(static_cast<long>(L), sysconf(_SC_NPROCESSORS_ONLN)) != CoreSharing::none;
  f->can_reach_ = f->probe_reach();
  f->stores_ =
      kHasStreamingStores ? store_setting().value_or(StoreSetting::cached) : StoreSetting::cached;
  f->stream_limit_ = f->agreed_stream_limit();
  f->direct_above_ = f->probe_direct_above();
  const std::size_t ring = f->large_ring_holds();
  f->plain_direct_above_ =
      f->stream_limit_ > ring && f->direct_above_ < ring ? f->direct_above_ : 0;
  if (f->oversubscribed_) f->start_core_turns();
  return f;
}

// Rank 0's memset put the segment's pages in memory, but each other process still faults on its
// first touch of each page to map it, and those faults (in this VM) cost several microseconds
// each: the first lap of a ring ran at up to five times the time of later ones. IMB's alltoall
// of 32 B on 4 ranks of 2 cores took 41 us a call over its first 250 calls (the small ring's
// first lap) and 8 after; of 8 B, 13-14 us over its first 2,000 (the tiny ring's) and 8 after.
// IMB times the first message size of each run in that lap. So every rank maps the pages it will
// touch here, at once: its rings to and from each peer and every rank's shared area.
void ShmFabric::map_own_pages() const {
  const long page_size = sysconf(_SC_PAGESIZE);
  const std::size_t page = page_size > 0 ? static_cast<std::size_t>(page_size) : 4096;
  auto touch = [page](const std::byte* from, std::size_t bytes) {
    for (std::size_t at = 0; at < bytes; at += page) {
      static_cast<void>(*static_cast<const volatile std::byte*>(from + at));
    }
  };
  for (int q = 0; q < size_; ++q) {
    touch(ring(local_, q, 0), pair_bytes());
    touch(ring(q, local_, 0), pair_bytes());
    touch(area(q), area_bytes());
  }
}

ShmFabric::~ShmFabric() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (finalized) return;
  if (win_ != MPI_WIN_NULL) MPI_Win_free(&win_);
  if (node_ != MPI_COMM_NULL) MPI_Comm_free(&node_);
}

std::size_t ShmFabric::Geometry::ring_bytes() const {
  const std::size_t contexts = cells * sizeof(Pgid);
  return kLine + cells * cell_bytes + (contexts + kLine - 1) / kLine * kLine;
}

std::size_t ShmFabric::pair_bytes() const {
  std::size_t bytes = 0;
  for (const Geometry& g : geometry_) bytes += g.ring_bytes();
  return bytes;
}

std::byte* ShmFabric::ring(int from, int to, int cls) const {
  const std::size_t pair = static_cast<std::size_t>(from) * static_cast<std::size_t>(size_) +
                           static_cast<std::size_t>(to);
  std::byte* r = base_ + pair * pair_bytes();
  for (int c = 0; c < cls; ++c) r += geometry_[c].ring_bytes();
  return r;
}

ShmOp* ShmFabric::acquire() {
  if (free_ops_.empty()) {
    all_ops_.push_back(std::make_unique<ShmOp>());
    return all_ops_.back().get();
  }
  ShmOp* op = free_ops_.back();
  free_ops_.pop_back();
  return op;
}

void ShmFabric::release(ShmOp* op) {
  if (!op->done) {
    Peer& p = peers_[static_cast<std::size_t>(op->peer)];
    if (op->is_send) {
      if (std::erase(p.lanes[size_class(op->bytes)].queued, op) > 0) --queued_;
    } else {
      std::erase(p.posted, op);
    }
  }
  *op = ShmOp{};
  free_ops_.push_back(op);
}

void ShmFabric::start(ShmOp* op) {
  Peer& p = peers_[static_cast<std::size_t>(op->peer)];
  if (op->is_send) {
    Lane& lane = p.lanes[size_class(op->bytes)];
    if (lane.queued.empty() && push_op(op)) {
      sent(op);
    } else {
      lane.queued.push_back(op);
      ++queued_;
    }
    return;
  }
  if (!p.unexpected.empty() && take_unexpected(p, op)) {
    received(op);
    return;
  }
  p.posted.push_back(op);
}

bool ShmFabric::push_op(ShmOp* op) {
  if (op->shared_slot >= 0) return push_reference(op);
  if (op->bytes > kMaxBytes) return push_pieces(op);
  return push(op->peer, size_class(op->bytes), op->context, op->tag, op->data, op->bytes, false,
              single_cell_copy(op->peer, op->bytes));
}

bool ShmFabric::take_unexpected(Peer& p, ShmOp* op) {
  const int cls = size_class(op->bytes);
  for (auto it = p.unexpected.begin(); it != p.unexpected.end();) {
    if (it->tag != op->tag || it->context != op->context || it->cls != cls) {
      ++it;
      continue;
    }
    const bool complete = take_piece(op, it->payload.data(), it->payload.size(), it->more);
    it = p.unexpected.erase(it);
    if (complete) return true;
  }
  return false;
}

bool ShmFabric::take_piece(ShmOp* op, const std::byte* payload, std::size_t bytes, bool more,
                           const Incoming* in) {
  const std::size_t left = op->bytes - op->offset;
  // A stream's pieces fill the receive in order; the last one, and only it, says no more follow.
  if (bytes > left || more != (bytes < left)) {
    size_mismatch(op->offset + bytes, op->bytes, more);
  }
  if (op->offset == 0 && in != nullptr && in->alone && op->bytes > kMaxBytes &&
      stores_ == StoreSetting::automatic) {
    op->started = ticks();  // a long stream whose receiver waited: priced
    op->streaming = in->streaming;
  }
  if (op->fold != nullptr) {
    op->fold->apply(op->offset, payload, bytes);
  } else if (in != nullptr && in->shared_slot < 0 && op->offset == 0 && !more) {
    take_cell(op->peer, *in, op->data);  // a whole message in one cell
  } else {
    copy_bytes(op->data + op->offset, payload, bytes);
  }
  op->offset += bytes;
  if (op->started != 0 && !more) {
    price_long_stream(peers_[static_cast<std::size_t>(op->peer)], op->streaming,
                      ticks() - op->started, op->bytes);
  }
  return !more;
}

bool ShmFabric::push(int to, int cls, const Pgid& ctx, std::uint64_t tag, const std::byte* data,
                     std::size_t bytes, bool more, PieceCopy copy) {
  const Geometry& g = geometry_[cls];
  Peer& peer = peers_[static_cast<std::size_t>(to)];
  Lane& p = peer.lanes[cls];
  std::byte* r = peer.out[cls];
  if (p.head - p.tail_seen >= g.cells && p.head - read_tail(to, cls) >= g.cells) return false;
  if (tag >> 32 != 0)
    throw Error("ccl: internal: tag " + std::to_string(tag) + " does not fit a cell");
  std::byte* cell = r + g.cell(p.head);
  const bool priced = copy == PieceCopy::cached_cell || copy == PieceCopy::streaming_cell;
  const std::uint64_t start = priced ? ticks() : 0;
  if (copy == PieceCopy::cached || copy == PieceCopy::cached_cell) {
    copy_bytes(cell + kWord, data, bytes);
  } else {
    copy_streaming(cell + kWord, data, bytes);
    streaming_fence();  // the payload before the word that publishes it
  }
  if (priced) price_cell_sent(to, copy == PieceCopy::streaming_cell, ticks() - start, bytes);
  const bool new_context = !p.context_sent || p.sent_context != ctx;
  if (new_context) {
    std::memcpy(r + g.context(p.head), &ctx, sizeof(Pgid));
    p.sent_context = ctx;
    p.context_sent = true;
  }
  const std::size_t field = copy == PieceCopy::streaming_first ? kStreamingFirst
                            : priced ? priced_cell_field(bytes, copy == PieceCopy::streaming_cell)
                                     : bytes;
  word(cell).store(cell_word(p.head, new_context, field, more, tag), std::memory_order_release);
  ++p.head;
  // The next tiny cell's line was last read by the peer, so our store into it will have to take
  // it back from the peer's core; stores leave the store buffer in order, so the next fence,
  // atomic or string store (the caller zeroing its next call's record) would wait that long.
  // Asking for the line now overlaps the transfer with the rest of this call: a stream of 8 B
  // scatters on 2 ranks went from 0.077 to 0.063 us a call. Larger cells do not gain (64 B
  // bcasts on 2 ranks lost 30%: their receiver keeps up and polls the line we would take).
  if (cls == 0) prefetch_for_write(r + g.cell(p.head));
  return true;
}

std::uint64_t ShmFabric::read_tail(int to, int cls) {
  Peer& peer = peers_[static_cast<std::size_t>(to)];
  peer.lanes[cls].tail_seen = word(peer.out[cls]).load(std::memory_order_acquire);
  return peer.lanes[cls].tail_seen;
}

void ShmFabric::ready_cell(int to, std::size_t bytes) {
  if (bytes > kMaxBytes) return;
  const int cls = size_class(bytes);
  if (cls == 0) return;
  const Geometry& g = geometry_[cls];
  Peer& peer = peers_[static_cast<std::size_t>(to)];
  const Lane& p = peer.lanes[cls];
  if (p.head - p.tail_seen >= g.cells) return;  // no room known: the send may queue
  const std::byte* cell = peer.out[cls] + g.cell(p.head);
  for (std::size_t at = 0; at < kWord + bytes; at += kLine) prefetch_for_write(cell + at);
}

void ShmFabric::expect_cell(int from, std::size_t bytes) {
  if (bytes > kPayloadAskedWithWord) return;
  const int cls = size_class(bytes);
  const Peer& peer = peers_[static_cast<std::size_t>(from)];
  ask_for_lines(peer.in[cls] + geometry_[cls].cell(peer.lanes[cls].tail), kWord + bytes);
}

bool ShmFabric::send_now(int to, const Pgid& context, std::uint64_t tag, const std::byte* data,
                         std::size_t bytes) {
  if (bytes > kMaxBytes) return false;  // a stream may need the receiver to drain the ring
  const int cls = size_class(bytes);
  const Lane& lane = peers_[static_cast<std::size_t>(to)].lanes[cls];
  return lane.queued.empty() &&
         push(to, cls, context, tag, data, bytes, false, single_cell_copy(to, bytes));
}

bool ShmFabric::recv_now(int from, const Pgid& context, std::uint64_t tag, std::byte* data,
                         std::size_t bytes, const Fold* fold) {
  Peer& p = peers_[static_cast<std::size_t>(from)];
  if (!p.posted.empty() || queued_ > 0 || bytes > kMaxBytes) return false;
  if (!p.unexpected.empty()) {
    ShmOp op;
    op.context = context;
    op.tag = tag;
    op.data = data;
    op.bytes = bytes;
    op.fold = fold;
    if (take_unexpected(p, &op)) return true;
  }
  // Messages of this class from `from` arrive in order: take each; the first that matches is
  // ours, others (another group's, a later instance's) are kept aside as poll() would.
  const int cls = size_class(bytes);
  Lane& lane = p.lanes[cls];
  const Geometry& g = geometry_[cls];
  std::byte* r = p.in[cls];
  Incoming in;
  std::uint64_t began = 0;
  // The message we expect fills the next cell's word and `bytes` after it: ask for all of its
  // lines at once, so that a message already there comes in one trip instead of two (the word's
  // line, then the lines it describes). Up to 512 B: IMB's bcast on 2 ranks, 128-512 B, went
  // from 0.24-0.29 to 0.20-0.24 us a call (coll/sm 0.20-0.21); larger messages are more often
  // still being written when asked for, and taking their lines from the sender made 1 KiB slower
  // (0.32 -> 0.40).
  if (kWord + bytes > kLine && bytes <= kPayloadAskedWithWord) {
    // Past the word's line, which the poll reads anyway.
    ask_for_lines(r + g.cell(lane.tail) + kLine, kWord + bytes - kLine);
  }
  for (;;) {
    if (!arrived(from, r, lane, g, in)) {
      if (wait_on_running(from, began)) continue;
      if (++polls_ % 64 == 0) drive_mpi();
      idle();
      continue;
    }
    const bool mine = in.tag == tag && in.context == context;
    if (mine) {
      if (in.bytes != bytes || in.more) size_mismatch(in.bytes, bytes, in.more);
      if (fold != nullptr) {
        fold->apply(0, in.payload, bytes);
      } else {
        take_cell(from, in, data);
      }
    } else {
      keep_aside(p, cls, in);
    }
    free_cell(r, lane);
    if (mine) return true;
  }
}

bool ShmFabric::arrived(int from, const std::byte* ring, Lane& lane, const Geometry& g,
                        Incoming& in) const {
  const std::byte* cell = ring + g.cell(lane.tail);
  const std::uint64_t w = load_word(cell);
  if ((w & kSeqMask) != ((lane.tail + 1) & kSeqMask)) return false;
  if (w & kNewContext)
    std::memcpy(&lane.received_context, ring + g.context(lane.tail), sizeof(Pgid));
  in.context = lane.received_context;
  in.tag = w >> 32;
  in.bytes = static_cast<std::size_t>((w >> 17) & kBytesMask);
  in.streaming = in.bytes == kStreamingFirst;
  if (in.streaming) in.bytes = kMaxBytes;
  in.cell_priced = in.bytes > kMaxBytes && !in.streaming;
  if (in.cell_priced) {
    std::size_t v = in.bytes - (kMaxBytes + 1);
    in.cell_streaming = v >= kPricedCellSpan;
    if (in.cell_streaming) v -= kPricedCellSpan;
    in.bytes = kMaxBytes - v;
  }
  in.more = (w & kMore) != 0;
  in.payload = cell + kWord;
  in.shared_slot = -1;
  resolve_reference(from, in);
  return true;
}

void ShmFabric::free_cell(std::byte* ring, Lane& lane) {
  ++lane.tail;
  word(ring).store(lane.tail, std::memory_order_release);
  idle_polls_ = 0;
}

void ShmFabric::keep_aside(Peer& p, int cls, const Incoming& in) {
  p.unexpected.push_back(Unexpected{in.context, in.tag, cls, in.more,
                                    std::vector<std::byte>(in.payload, in.payload + in.bytes)});
}

void ShmFabric::size_mismatch(std::size_t got, std::size_t wanted, bool more) {
  throw Error("ccl: a message of " + std::to_string(got) + (more ? " or more" : "") +
              " bytes arrived for a receive of " + std::to_string(wanted) + " bytes");
}

ShmOp* ShmFabric::deliver(Peer& p, int cls, const Incoming& in) {
  for (auto it = p.posted.begin(); it != p.posted.end(); ++it) {
    ShmOp* op = *it;
    if (op->tag != in.tag || op->context != in.context || size_class(op->bytes) != cls) continue;
    if (!take_piece(op, in.payload, in.bytes, in.more, &in)) return nullptr;  // more to come
    p.posted.erase(it);
    return op;
  }
  keep_aside(p, cls, in);
  return nullptr;
}

void ShmFabric::poll(int from, int cls) {
  Peer& p = peers_[static_cast<std::size_t>(from)];
  Lane& lane = p.lanes[cls];
  const Geometry& g = geometry_[cls];
  std::byte* r = p.in[cls];
  Incoming in;
  while (!p.posted.empty() && arrived(from, r, lane, g, in)) {
    // Whether a later message had arrived behind this one (for a long stream's price).
    if (cls == 2 && stores_ == StoreSetting::automatic) {
      in.alone = (load_word(r + g.cell(lane.tail + 1)) & kSeqMask) != ((lane.tail + 2) & kSeqMask);
    }
    ShmOp* op = deliver(p, cls, in);
    free_cell(r, lane);
    if (op != nullptr) received(op);
  }
}

void ShmFabric::drive_mpi() {
  int flag = 0;
  MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, node_, &flag, MPI_STATUS_IGNORE);  // runs MPI's progress
}

void ShmFabric::push_queued() {
  for (int d = 0; d < size_ && queued_ > 0; ++d) {
    for (Lane& lane : peers_[static_cast<std::size_t>(d)].lanes) {
      while (!lane.queued.empty()) {
        ShmOp* op = lane.queued.front();
        if (!push_op(op)) break;
        lane.queued.pop_front();
        --queued_;
        sent(op);
      }
    }
  }
}

void ShmFabric::progress() {
  bool waiting = queued_ > 0;
  if (queued_ > 0) push_queued();
  // Only rings with receives waiting are read: a message nobody asked for yet stays in its cell,
  // where it costs nothing, until a receive from that peer is posted.
  for (int s = 0; s < size_; ++s) {
    if (peers_[static_cast<std::size_t>(s)].posted.empty()) continue;
    waiting = true;
    for (int cls = 0; cls < kClasses; ++cls) poll(s, cls);
  }
  // MPI's progress, rarely and only while something here waits: it costs a sweep of Open MPI's
  // transports and, when ranks outnumber cores, a yield of the core. Counting every call instead
  // made a root streaming small bcasts, whose sends all went at once, give its core to a peer
  // every 64 calls (1.6x Open MPI's time for 8 B on 3 ranks); once per 64 polls of a wait still
  // ends one on a peer's MPI send promptly. Not while a wait spins on a running peer
  // (core_turns.cpp): the yield is what that spin avoids.
  if (waiting && !spinning_ && ++polls_ % 64 == 0) drive_mpi();
}

}  // namespace ccl::detail
