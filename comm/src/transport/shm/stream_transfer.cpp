// Streamed transfers of the shared-memory fabric: a message larger than one cell (kMaxBytes)
// and up to stream_limit() goes through the large ring to its receiver as pieces of kMaxBytes
// (the last one shorter), each cell marked whether more pieces follow. The sender fills cells
// while the ring has room and goes on from progress(); the receiver copies each piece out as it
// arrives, which frees its cell for the next. Two copies in a pipeline, as coll/sm and MPICH's
// shared-memory path move large messages.
//
// Cost of m bytes, p = ceil(m / kMaxBytes) pieces, the receiver keeping up: p start-ups of about
// one cache line's trip between cores, and m / B + kMaxBytes / B for the two copies at copy
// bandwidth B, the second copy of each piece overlapping the first of the next.
//
// Why not MPI's single-copy path (CMA): on this machine (a VM) its system call, which pins the
// pages on every transfer, made a bcast of 32 KiB on 2 ranks take 6.6 us against coll/sm's
// 2.1 us through 8 KiB fragments. Where ranks share cores a receiver may be asleep and unable to
// drain the ring, so only what fits in the ring at once streams there (ShmFabric::create).
//
// Cached or non-temporal stores. The receiver reads each piece from lines the sender just wrote:
// between cores of one socket they come from the shared cache; between sockets each is snooped
// out of the sender's cache, several times slower. This VM's host puts its 2 vCPUs on two cores
// of one socket (a cache line's trip ~70 ns), on the two threads of one core (~29 ns) or on two
// sockets (~290 ns), keeping a job mostly in one placement. A 256 KiB scatter on 2 ranks took
// 29-35 us on one socket with cached stores and 40-47 with non-temporal ones (the receiver then
// reads memory), but 64-86 across sockets cached and 43-47 non-temporal (a bcast, whose source
// lines are themselves dirty: 55-80 against 29-36; Open MPI's scatter, through CMA, 37-47).
// Streams that fit in the ring differ as much: IMB's bcast of 16, 32 and 64 KiB on 2 ranks took
// 8.2, 16 and 32 us cached in a slow placement (coll/sm's the same, tuned's CMA 3.9, 5.0, 7.3)
// and 1.8, 3.0 and 5.5 non-temporal; in a fast one 2.2, 4.2, 8.1 cached, 1.6, 2.7, 5.1 not. So
// every stream goes one way or the other as its receiver asks: each
// receiver prices both ways per sender and per size class (a power of two: what is cheaper for
// 16 KiB need not be for 1 MiB), in ticks per byte from the first piece to the last,
// counted only when the first piece arrived alone (the receiver waited, so the time is the whole
// pipeline's); keeps the last 16 prices of each way (the two take turns until each has two:
// a job's first is often cold); and asks for the other way once the least of its prices is
// below kStoreSwitch of the current way's (store_prices.hpp), through a bit per class in a word
// of its ring's first line beside the tail it writes there. The sender reads it at each such
// stream and goes the other way in one run of streams in kStoreExplore, long enough to lap the
// ring (a single one would find the lines where the other way left them), so that a change of
// placement is seen. The first piece of a non-temporal stream says so, for the receiver's
// prices; nothing else changes for it. CCL_STREAM_NT=0 or 1 fixes the way. ccl-bench-collectives
// on 2 ranks against Open MPI, a job across sockets, 256 KiB-4 MiB: reduce 1.60, 1.51, 0.87 and
// scatter 1.58, 1.54, 1.00 with cached stores; with the choice, in the next job (also across),
// 0.74, 0.78, 0.51 and 0.72, 0.83, 0.70; on one socket the choice costs up to 0.1 of a ratio.
//
// The marks make a size mismatch an error on the receiver, as MPI reports truncation: a piece
// that would overrun the receive, a last piece that leaves it short, or a piece announcing more
// when the receive is full (take_piece).
#include <algorithm>
#include <atomic>
#include <cctype>
#include <cstdlib>
#include <string>

#include "transport/shm/shm_fabric.hpp"

namespace ccl::detail {

namespace {

// The word of a ring's first line, after the consumer's tail, where the consumer asks its
// producer for non-temporal stores (bit c set, for streams of size class c) or cached ones
// (clear, as the segment starts).
std::atomic_ref<std::uint64_t> streaming_wanted(std::byte* ring) {
  return std::atomic_ref<std::uint64_t>(
      *reinterpret_cast<std::uint64_t*>(ring + sizeof(std::uint64_t)));
}

}  // namespace

bool ShmFabric::push_pieces(ShmOp* op) {
  // Every piece goes through the large ring, the last one too.
  if (op->offset == 0 && op->bytes > kMaxBytes) {
    op->streaming = streaming_for(&op->peer, 1, op->bytes);
  }
  while (op->offset < op->bytes) {
    const std::size_t piece = std::min(kMaxBytes, op->bytes - op->offset);
    const bool more = op->offset + piece < op->bytes;
    const PieceCopy copy = !op->streaming    ? PieceCopy::cached
                           : op->offset == 0 ? PieceCopy::streaming_first
                                             : PieceCopy::streaming;
    if (!push(op->peer, kLarge, op->context, op->tag, op->data + op->offset, piece, more, copy)) {
      return false;
    }
    op->offset += piece;
  }
  return true;
}

std::optional<ShmFabric::StoreSetting> ShmFabric::store_setting() {
  const char* v = std::getenv("CCL_STREAM_NT");
  if (v == nullptr || *v == '\0' || std::string(v) == "auto") return StoreSetting::automatic;
  if (std::string(v) == "0") return StoreSetting::cached;
  if (std::string(v) == "1") return StoreSetting::streaming;
  return std::nullopt;
}

int ShmFabric::stream_class(std::size_t bytes) {
  int c = 0;
  for (std::size_t top = 2 * kMaxBytes; bytes > top && c + 1 < kStreamClasses; top *= 2) ++c;
  return c;
}

bool ShmFabric::streaming_for(const int* locals, std::size_t n, std::size_t bytes) {
  if (stores_ != StoreSetting::automatic) return stores_ == StoreSetting::streaming;
  const int c = stream_class(bytes);
  std::size_t wanting = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const Peer& p = peers_[static_cast<std::size_t>(locals[i])];
    if ((streaming_wanted(p.out[kLarge]).load(std::memory_order_relaxed) >> c & 1) != 0) ++wanting;
  }
  const bool wanted = 2 * wanting >= n;
  // The other way goes in a run long enough to lap the ring (or a shared slot's pieces) once and
  // then be priced: its first streams find the lines where the current way left them (out of
  // every cache after non-temporal stores), which is not the way's own price.
  const std::uint32_t run =
      static_cast<std::uint32_t>(std::min<std::size_t>(large_ring_holds() / bytes + 2, 16));
  Peer& first = peers_[static_cast<std::size_t>(locals[0])];
  return explores(first.streams[c].sends++, run) ? !wanted : wanted;
}

void ShmFabric::price_long_stream(Peer& p, bool streaming, std::uint64_t ticks, std::size_t bytes) {
  const int c = stream_class(bytes);
  Peer::StreamClass& sc = p.streams[c];
  (streaming ? sc.streaming : sc.cached)
      .add(static_cast<double>(ticks) / static_cast<double>(bytes));
  std::atomic_ref<std::uint64_t> word = streaming_wanted(p.in[kLarge]);
  const std::uint64_t asked = word.load(std::memory_order_relaxed);  // only we write it
  const bool now = (asked >> c & 1) != 0;
  const double cached = sc.cached.best(), nt = sc.streaming.best();
  // The ways take turns until each has two prices (the first of a job is often a cold one).
  const bool want = std::min(sc.cached.count, sc.streaming.count) < 2 ? !streaming
                    : now ? !(cached < kStoreSwitch * nt)
                          : nt < kStoreSwitch * cached;
  if (want != now) word.store(asked ^ (std::uint64_t{1} << c), std::memory_order_relaxed);
}

std::optional<unsigned long long> ShmFabric::bytes_setting(const char* text) {
  char* end = nullptr;
  const unsigned long long bytes = std::strtoull(text, &end, 10);
  if (*end != '\0' || !std::isdigit(static_cast<unsigned char>(text[0]))) return std::nullopt;
  return bytes;
}

std::optional<unsigned long long> ShmFabric::stream_max_setting() {
  const char* v = std::getenv("CCL_STREAM_MAX");
  if (v == nullptr || *v == '\0') return ~0ull;
  return bytes_setting(v);
}

std::size_t ShmFabric::agreed_stream_limit() const {
  // Ranks that share cores: what fits in the ring at once, so that a sender never waits on a
  // receiver that may be asleep. Otherwise every size: see above.
  const unsigned long long ring = large_ring_holds();
  // The setting was checked on every rank at start-up (mpi_runtime.cpp).
  const unsigned long long mine =
      std::min(oversubscribed_ ? ring : ~0ull, stream_max_setting().value_or(0));
  // Every rank must classify a message alike, whatever its environment says.
  unsigned long long agreed = 0;
  MPI_Allreduce(&mine, &agreed, 1, MPI_UNSIGNED_LONG_LONG, MPI_MIN, node_);
  return static_cast<std::size_t>(std::max<unsigned long long>(agreed, kMaxBytes));
}

}  // namespace ccl::detail
