// What the shared-memory fabric learns about its two ways of filling cells, cached stores and
// non-temporal ones (stream_transfer.cpp for streams, cell_stores.cpp for one-cell messages):
// prices in ticks per byte, and the choice of way for one-cell sends that follows them.
#pragma once

#include <cstdint>

namespace ccl::detail {

// Both choices (streams' and one-cell messages') go the other way once its price is at most
// kStoreSwitch of the current way's (noise only adds; the margin keeps one lucky price from
// flipping it), and try the other way in one run in kStoreExplore, so that a change of
// placement is seen.
constexpr double kStoreSwitch = 0.8;
constexpr std::uint32_t kStoreExplore = 32;

// Whether the k-th send of its kind is in the exploring run (the last `run` of each
// kStoreExplore runs).
constexpr bool explores(std::uint32_t k, std::uint32_t run) {
  return k % (kStoreExplore * run) >= (kStoreExplore - 1) * run;
}

// The last kWindow prices of one way; the least of them is its price (noise only adds). A
// receiver's price of cached cells varied 4x from one message to the next here (0.03-0.13 ticks
// a byte: how much of the cell was still in the sender's core), so the least of four flipped the
// choice to non-temporal stores every few hundred sends, and end to end those were slower: IMB's
// bcast of 8-64 KiB on 2 ranks took 0.97, 1.55, 3.05, 5.98 us with four, 0.72, 1.13, 2.03, 4.35
// with sixteen (coll/sm 0.78, 1.32, 2.50, 4.71); on 4 ranks 4-64 KiB went 0.70-0.85x and
// 256 KiB-4 MiB 0.77-0.86x.
struct StorePrices {
  static constexpr std::uint32_t kWindow = 16;
  double last[kWindow] = {};
  std::uint32_t count = 0;
  void add(double price) { last[count++ % kWindow] = price; }
  double best() const;  // 0 before any
};

// One-cell messages to one peer (cell_stores.cpp): our copies into its cells and out of its
// cells, each way; how many we sent; and the way they go now.
struct CellStoreChoice {
  StorePrices sent_cached, sent_streaming, taken_cached, taken_streaming;
  std::uint32_t sends = 0;
  bool streaming = false;
  // Whether the next send goes by non-temporal stores, given the receiver's least price of each
  // way (0 while it has none) and the length of a run of the other way (to lap the ring).
  bool next(double their_cached, double their_streaming, std::uint32_t run);
};

}  // namespace ccl::detail
