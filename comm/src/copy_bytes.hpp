// A byte copy for the payloads of small collectives. A call to memcpy costs more than copying
// 8 bytes (about 35 instructions through the PLT and its size dispatch); copies of up to 32 bytes
// are done here in 8-byte words, the last one overlapping, and larger ones go to memcpy.
#pragma once

#include <cstddef>
#include <cstring>

namespace ccl::detail {

inline void copy_bytes(std::byte* to, const std::byte* from, std::size_t n) {
  if (n > 32) {
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

}  // namespace ccl::detail
