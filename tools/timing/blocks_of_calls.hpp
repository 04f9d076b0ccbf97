// How many calls ccl-bench-collectives times per block, and (up to 400 of them, each alone)
// ccl-calibrate per point: about 8 MiB moved per block, so that small calls are timed often enough
// to average out the clock and large ones do not take the run's whole time.
//
// The benchmark's streams time a block of back-to-back calls, where calls overlap for some
// algorithms (a chain's data flows one way, so the next call starts before the last member is
// done) and the share of the first call's fill in a block's mean depends on how many calls follow
// it: in blocks of 3, an unsegmented 4 MiB prefix chain on 5 ranks looked 1.6x slower than in
// blocks of 5. Calibration once timed streams too; it now times each call alone, as the
// benchmark's headline does (tools/algorithm_profiles.hpp).
#pragma once

#include <algorithm>
#include <cstddef>

// Calls per block for a collective moving `total_bytes` across all members: about 8 MiB per
// block, at least 5 calls and at most 2000.
inline int calls_per_block(std::size_t total_bytes) {
  const std::size_t calls = (std::size_t{8} << 20) / std::max<std::size_t>(total_bytes, 1);
  return static_cast<int>(std::clamp<std::size_t>(calls, 5, 2000));
}

// Untimed calls before the timed ones of a per-call measurement: as many as IMB makes at least
// (its warm-up, 10 calls or all of them when fewer are timed). Single-copy transfers between
// processes (process_vm_readv, process_vm_writev, as Open MPI's CMA path too) run slow for the
// first calls on a buffer, and again after other work has used it: a pulled 4 MiB scatter on 2
// ranks took 6-7 ms on fresh buffers, then 400-900 us falling to ~330 over ten calls; after one
// warm-up call it timed at 640 us, after five at 350, while the streamed one was ~400 either way.
inline int warm_up_calls(int timed_calls) {
  return std::min(timed_calls, 10);
}
