// copy_large (copy_bytes.hpp): memcpy, except where the destination lies a few bytes past the
// source modulo 4 KiB, the copy is small enough for glibc to use `rep movsb`, and memcpy was
// found to stall on such pairs on this CPU.
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <memory>

#include "ccl/copy_bytes.hpp"
#include "ccl/tick_clock.hpp"

namespace ccl::detail {

namespace {

// Up to where memcpy goes through `rep movsb`: glibc stops at the per-core L2 cache's size on
// AMD (measured here: 512 KiB, 256 KiB pairs took 140 us and 512 KiB pairs 17). Above it
// memcpy is faster than the descending copy (1 MiB: 31-35 us against 39-48).
std::size_t rep_movsb_until() {
  static const std::size_t until = [] {
    const long l2 = sysconf(_SC_LEVEL2_CACHE_SIZE);
    return l2 > 0 ? static_cast<std::size_t>(l2) : std::size_t{512} << 10;
  }();
  return until;
}

// The destination 1-63 bytes past the source, modulo a 4 KiB page.
bool aliases_behind(const std::byte* to, const std::byte* from) {
  const std::uintptr_t distance =
      (reinterpret_cast<std::uintptr_t>(to) - reinterpret_cast<std::uintptr_t>(from)) & 4095;
  return distance != 0 && distance < 64;
}

#if defined(__x86_64__)
// Whether memcpy stalls on an aliasing pair here: timed once, on 8 KiB in cache, against the
// descending copy. The stall is a CPU's (AMD EPYC: 5.0 us against 0.27); where there is none
// the descending copy costs more than memcpy into lines another core holds (Intel Xeon, IMB's
// scatter of 2 KiB on 2 ranks: 0.81 us against 0.54), so it is used only where memcpy stalls.
bool memcpy_stalls_on_aliasing() {
  static const bool stalls = [] {
    constexpr std::size_t kBytes = 8192, kGap = 4096 + 16;
    const auto buffer = std::make_unique<std::byte[]>(2 * kBytes + kGap + 4096);
    std::byte* from = buffer.get() + (4096 - reinterpret_cast<std::uintptr_t>(buffer.get()) % 4096);
    std::byte* to = from + kBytes + kGap;
    std::fill(from, from + kBytes, std::byte{1});
    auto least = [&](auto copy) {
      std::uint64_t best = ~std::uint64_t{0};
      for (int round = 0; round < 8; ++round) {
        const std::uint64_t start = ticks();
        copy(to, from, kBytes);
        asm volatile("" : : "r"(to) : "memory");  // keep the copy
        best = std::min(best, ticks() - start);
      }
      return best;
    };
    const std::uint64_t plain =
        least([](std::byte* t, const std::byte* f, std::size_t n) { std::memcpy(t, f, n); });
    const std::uint64_t descending = least(copy_descending);
    return plain > 3 * descending;
  }();
  return stalls;
}
#endif

}  // namespace

// 64-byte blocks from the end down, then the head. The buffers do not overlap (MPI).
void copy_descending(std::byte* to, const std::byte* from, std::size_t n) {
#if defined(__x86_64__)
  std::size_t i = n;
  while (i >= 64) {
    i -= 64;
    const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(from + i));
    const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(from + i + 16));
    const __m128i c = _mm_loadu_si128(reinterpret_cast<const __m128i*>(from + i + 32));
    const __m128i d = _mm_loadu_si128(reinterpret_cast<const __m128i*>(from + i + 48));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(to + i), a);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(to + i + 16), b);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(to + i + 32), c);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(to + i + 48), d);
  }
#else
  const std::size_t i = n;
#endif
  std::memcpy(to, from, i);
}

void copy_large(std::byte* to, const std::byte* from, std::size_t n) {
#if defined(__x86_64__)
  if (n < rep_movsb_until() && aliases_behind(to, from) && memcpy_stalls_on_aliasing()) {
    copy_descending(to, from, n);
    return;
  }
#endif
  std::memcpy(to, from, n);
}

}  // namespace ccl::detail
