// A cheap clock for per-call statistics (ccl's own, and the drop-in's report): reading steady_clock
// costs ~26 ns here, a third of a small collective, while the x86 time-stamp counter (constant and
// non-stop on every CPU this runs on) costs ~10 ns. Ticks become seconds at a rate measured once
// against steady_clock. Elsewhere it falls back to steady_clock nanoseconds. Under SMPI (CCL_SMPI)
// a tick is a nanosecond of MPI_Wtime, the simulated clock: the host's clock there counts every
// simulated member's computation, not this one's.
#pragma once

#include <chrono>
#include <cstdint>

#if defined(__linux__)
#include <time.h>
#endif

#if defined(CCL_SMPI)
#include <mpi.h>
#elif defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

namespace ccl::detail {

inline std::uint64_t ticks() {
#if defined(CCL_SMPI)
  return static_cast<std::uint64_t>(MPI_Wtime() * 1e9);
#elif defined(__x86_64__) || defined(__i386__)
  return __rdtsc();
#else
  return static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
#endif
}

// Nanoseconds of a clock for the timestamp every call leaves in the flight recorder, which its
// readers (hang reports: "3.000 s before this report") need to a few milliseconds: the kernel's
// coarse monotonic clock, one read of a shared page (~3 ns here, against ~9 for the time-stamp
// counter), with a resolution of a scheduler tick. Simulated time under SMPI, as ticks().
inline std::uint64_t coarse_ns() {
#if defined(CCL_SMPI)
  return ticks();
#elif defined(__linux__)
  timespec t{};
  clock_gettime(CLOCK_MONOTONIC_COARSE, &t);
  return static_cast<std::uint64_t>(t.tv_sec) * 1000000000u + static_cast<std::uint64_t>(t.tv_nsec);
#else
  return static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                        std::chrono::steady_clock::now().time_since_epoch())
                                        .count());
#endif
}

// Whether calls are timed (ccl::timing()), read on every call: a plain flag.
extern bool timing_on;

// Seconds per tick (measured over 2 ms on first use).
double seconds_per_tick();

inline double tick_seconds(std::uint64_t from, std::uint64_t to) {
  return static_cast<double>(to - from) * seconds_per_tick();
}

}  // namespace ccl::detail
