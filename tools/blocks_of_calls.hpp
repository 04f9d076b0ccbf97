// How ccl-calibrate and ccl-bench-collectives time a collective: in blocks of back-to-back calls,
// each block after one untimed call and a barrier, as an application's loop calls it.
//
// Both must use the same block length. Calls in a row overlap for some algorithms (a chain's
// data flows one way, so the next call starts before the last member is done), and the share
// of the first call's fill in a block's mean depends on how many calls follow it: measured in
// blocks of 3, an unsegmented 4 MiB prefix chain on 5 ranks looked 1.6x slower than in blocks of
// 5, and calibration picked 8 KiB segments that the benchmark then found 1.1-1.6x slower.
#pragma once

#include <algorithm>
#include <cstddef>

// Calls per block for a collective moving `total_bytes` across all members: about 8 MiB per
// block, at least 5 calls and at most 2000.
inline int calls_per_block(std::size_t total_bytes) {
  const std::size_t calls = (std::size_t{8} << 20) / std::max<std::size_t>(total_bytes, 1);
  return static_cast<int>(std::clamp<std::size_t>(calls, 5, 2000));
}
