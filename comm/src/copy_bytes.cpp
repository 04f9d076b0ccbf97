// copy_large (copy_bytes.hpp): memcpy, except where the destination lies a few bytes past the
// source modulo 4 KiB and the copy is small enough for glibc to use `rep movsb`.
#include <unistd.h>

#include "copy_bytes.hpp"

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

}  // namespace

void copy_large(std::byte* to, const std::byte* from, std::size_t n) {
#if defined(__x86_64__)
  if (n < rep_movsb_until() && aliases_behind(to, from)) {
    // 64-byte blocks from the end down, then the head. The buffers do not overlap (MPI).
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
    std::memcpy(to, from, i);
    return;
  }
#endif
  std::memcpy(to, from, n);
}

}  // namespace ccl::detail
