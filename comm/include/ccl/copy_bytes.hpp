// Byte copies of schedules, of the shared-memory fabric and of the drop-in's packing. copy_bytes,
// for the payloads of small collectives: a call to memcpy costs more than copying 8 bytes (about 35
// instructions through the PLT and its size dispatch); copies of up to 32 bytes are done here in
// 8-byte words, the last one overlapping, and larger ones go to memcpy, or to copy_large from 2 KiB
// up (below). copy_streaming, for streams' pieces, below.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#if defined(__x86_64__)
#include <emmintrin.h>
#endif

namespace ccl::detail {

// A copy of at least kLargeCopy bytes. glibc's memcpy copies these with `rep movsb` up to a
// size near the L2 cache, and on some CPUs (AMD EPYC, which has fast short rep movsb) that runs
// 10-30x slower when the destination lies 1-63 bytes past the source modulo 4 KiB: the loads
// wait on stores to addresses that alias theirs in the low 12 bits. Two buffers of one size
// from malloc are 16 bytes apart modulo 4 KiB, so this is the usual case for a root's own block
// in scatter or gather, or allreduce's first copy into its result, as benchmarks allocate them:
// 8 KiB took 5.0 us instead of 0.17, 256 KiB 140 us instead of 12. Where a timing at first use
// finds that stall, copy_large copies such pairs from the end down with 16-byte moves (0.27 and
// 12 us; no load then follows a store whose address it aliases); everything else goes to memcpy.
inline constexpr std::size_t kLargeCopy = 2048;
void copy_large(std::byte* to, const std::byte* from, std::size_t n);
// copy_large's copy of an aliasing pair (x86-64; memcpy elsewhere).
void copy_descending(std::byte* to, const std::byte* from, std::size_t n);

inline void copy_bytes(std::byte* to, const std::byte* from, std::size_t n) {
  if (n >= kLargeCopy) {
    copy_large(to, from, n);
  } else if (n > 32) {
    std::memcpy(to, from, n);
  } else if (n >= 8) {
    std::memcpy(to, from, 8);
    if (n > 16) std::memcpy(to + 8, from + 8, 8);
    if (n > 24) std::memcpy(to + 16, from + 16, 8);
    std::memcpy(to + n - 8, from + n - 8, 8);
  } else {
    for (std::size_t i = 0; i < n; ++i) to[i] = from[i];
  }
}

// A copy with non-temporal stores, where the CPU has them (x86-64): the destination's lines go
// to memory instead of staying modified in this core's cache, so a reader on another socket
// fetches them from memory rather than snooping them out of this cache, 3-4x slower for a
// stream here (stream_transfer.cpp). Elsewhere memcpy. The stores are weakly ordered: call
// streaming_fence() before publishing the data.
inline void copy_streaming(std::byte* to, const std::byte* from, std::size_t n) {
#if defined(__x86_64__)
  // 8-byte stores up to a 16-byte boundary, 16-byte stores, then the rest.
  while (n >= 8 && reinterpret_cast<std::uintptr_t>(to) % 16 != 0) {
    long long v;
    std::memcpy(&v, from, 8);
    _mm_stream_si64(reinterpret_cast<long long*>(to), v);
    to += 8, from += 8, n -= 8;
  }
  for (; n >= 16; to += 16, from += 16, n -= 16) {
    _mm_stream_si128(reinterpret_cast<__m128i*>(to),
                     _mm_loadu_si128(reinterpret_cast<const __m128i*>(from)));
  }
#endif
  std::memcpy(to, from, n);
}

inline void streaming_fence() {
#if defined(__x86_64__)
  _mm_sfence();
#endif
}

// Whether copy_streaming really streams here.
inline constexpr bool kHasStreamingStores =
#if defined(__x86_64__)
    true;
#else
    false;
#endif

}  // namespace ccl::detail
