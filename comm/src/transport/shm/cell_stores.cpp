// The stores of one-cell messages of the shared-memory fabric (kStreamedCellFrom to kMaxBytes
// bytes: a pipeline's segments, and whole calls of 6-8 KiB), chosen per peer by price.
//
// Cached stores into a cell the receiver read last wait for each line to come back from its
// core, and the receiver then reads each line out of the sender's cache; non-temporal ones do
// neither, and the receiver reads memory. Which costs less depends on where the two cores sit:
// on one host (two vCPUs on cores of one socket) bcast of 8 KiB on 2 ranks took 0.90 us at the
// root cached, 0.27 not; on another (AMD EPYC vCPUs) IMB's bcast of 8 KiB-1 MiB on 2 ranks, cut
// into 8 KiB cells, took 0.54, 7.96 and 65.9 us cached, 0.88, 10.6 and 75.8 not, and so did
// scatter, gather, reduce and allreduce (reduce of 128 KiB 7.8 cached, 10.4 not). A fixed way
// loses up to 1.5x on one of them.
//
// So both sides price each such message in ticks per byte: the sender its copy into the cell
// (stores and fence), the receiver its copy out. The cell's word says which way it went (a
// bytes field above kMaxBytes). Each side keeps the last 16 prices of each way
// (store_prices.hpp), and the receiver publishes the least of each in its ring's first line,
// beside the tail. Before each send the sender adds its own least prices to the receiver's and
// changes way when the other totals below kStoreSwitch of the current. The other way is tried in
// runs long enough to lap the large ring (its first copies find the lines where the current way
// left them), one send in kStoreExplore, so that a change of placement is seen; and the first
// runs take turns, so that each way has prices.
#include <algorithm>
#include <atomic>
#include <bit>

#include "ccl/copy_bytes.hpp"
#include "ccl/tick_clock.hpp"
#include "transport/shm/shm_fabric.hpp"

namespace ccl::detail {

namespace {

// The receiver's least prices (cached, non-temporal), in the first line of its ring from us,
// after its tail and the stream-stores word.
std::atomic_ref<std::uint64_t> published(std::byte* ring, bool streaming) {
  return std::atomic_ref<std::uint64_t>(
      *reinterpret_cast<std::uint64_t*>(ring + (streaming ? 3 : 2) * sizeof(std::uint64_t)));
}

double read_price(std::byte* ring, bool streaming) {
  return std::bit_cast<double>(published(ring, streaming).load(std::memory_order_relaxed));
}

double per_byte(std::uint64_t ticks, std::size_t bytes) {
  return static_cast<double>(ticks) / static_cast<double>(bytes);
}

}  // namespace

double StorePrices::best() const {
  const std::uint32_t n = std::min<std::uint32_t>(count, kWindow);
  return n == 0 ? 0 : *std::min_element(last, last + n);
}

bool CellStoreChoice::next(double their_cached, double their_streaming, std::uint32_t run) {
  const std::uint32_t k = sends++;
  if (k < 4 * run) return (k / run) % 2 == 1;  // runs of cached, non-temporal, cached, ...
  const bool heard = their_cached > 0 && their_streaming > 0;  // else our side alone
  const double cached = sent_cached.best() + (heard ? their_cached : 0);
  const double nt = sent_streaming.best() + (heard ? their_streaming : 0);
  if (streaming ? cached < kStoreSwitch * nt : nt < kStoreSwitch * cached) streaming = !streaming;
  return explores(k, run) ? !streaming : streaming;
}

ShmFabric::PieceCopy ShmFabric::single_cell_copy(int to, std::size_t bytes) {
  if (bytes < kStreamedCellFrom || oversubscribed_ || stores_ == StoreSetting::cached) {
    return PieceCopy::cached;
  }
  if (stores_ == StoreSetting::streaming) return PieceCopy::streaming;
  Peer& p = peers_[static_cast<std::size_t>(to)];
  const bool streaming =
      p.cells.next(read_price(p.out[kLarge], false), read_price(p.out[kLarge], true),
                   static_cast<std::uint32_t>(geometry_[kLarge].cells) + 2);
  return streaming ? PieceCopy::streaming_cell : PieceCopy::cached_cell;
}

void ShmFabric::price_cell_sent(int to, bool streaming, std::uint64_t ticks, std::size_t bytes) {
  CellStoreChoice& c = peers_[static_cast<std::size_t>(to)].cells;
  (streaming ? c.sent_streaming : c.sent_cached).add(per_byte(ticks, bytes));
}

void ShmFabric::price_cell_taken(int from, bool streaming, std::uint64_t ticks, std::size_t bytes) {
  Peer& p = peers_[static_cast<std::size_t>(from)];
  StorePrices& prices = streaming ? p.cells.taken_streaming : p.cells.taken_cached;
  prices.add(per_byte(ticks, bytes));
  published(p.in[kLarge], streaming)
      .store(std::bit_cast<std::uint64_t>(prices.best()), std::memory_order_relaxed);
}

void ShmFabric::take_cell(int from, const Incoming& in, std::byte* to) {
  if (!in.cell_priced) {
    // The cell's lines sit in the sender's cache, each a trip between cores away: asking for all
    // of them before copying puts the trips in flight together, where the copy's own loads
    // (and the hardware's prefetcher) ask a few at a time. IMB's bcast of 4 KiB on 2 ranks:
    // 0.55-0.58 us a call -> 0.44-0.48. Smaller messages gain nothing here (recv_now asks for
    // their lines with the cell's word).
    if (in.bytes > kPayloadAskedWithWord) ask_for_lines(in.payload, in.bytes);
    copy_bytes(to, in.payload, in.bytes);
    return;
  }
  const std::uint64_t start = ticks();
  copy_bytes(to, in.payload, in.bytes);
  price_cell_taken(from, in.cell_streaming, ticks() - start, in.bytes);
}

}  // namespace ccl::detail
