#include "exclusive_scan.hpp"

#include <cstdint>
#include <cstring>
#include <memory>

namespace ccl::drop_in {

namespace {

struct Exclusive {
  ReduceKernel inner;
  std::size_t elems;  // of the vector, for `inner`
  std::size_t bytes;  // of the vector
};

void apply_exclusive(const void* state, const std::byte* left, const std::byte* right,
                     std::byte* out, std::size_t n) {
  const auto& x = *static_cast<const Exclusive*>(state);
  const std::size_t m = x.bytes, element = exclusive_element_bytes(m);
  for (std::size_t k = 0; k < n; ++k) {
    const std::byte* l = left + k * element;
    const std::byte* r = right + k * element;
    std::byte* o = out + k * element;
    std::uint64_t right_has_b = 0;
    std::memcpy(&right_has_b, r + 2 * m, sizeof right_has_b);
    // B before A: out may be left or right, and B needs A_L, which A would overwrite.
    if (m > 0) {
      if (right_has_b != 0)
        x.inner.apply(l, r + m, o + m, x.elems);
      else
        std::memmove(o + m, l, m);
      x.inner.apply(l, r, o, x.elems);
    }
    const std::uint64_t has_b = 1;
    std::memcpy(o + 2 * m, &has_b, sizeof has_b);
  }
}

}  // namespace

ReduceKernel exclusive_scan_kernel(const ReduceKernel& inner, std::size_t elems,
                                   std::size_t elem_bytes) {
  ReduceKernel k;
  k.fn = &apply_exclusive;
  k.op = std::make_shared<const Exclusive>(Exclusive{inner, elems, elems * elem_bytes});
  // Same on every member for the same inner operator, without hashing a string on every call.
  static const std::uint64_t salt = detail::fingerprint("exclusive scan");
  k.id = salt ^ (inner.id * 0x9E3779B97F4A7C15ull);
  k.name = "exclusive scan";
  k.commutative = false;
  return k;
}

void make_exclusive_element(std::byte* element, const void* send, std::size_t bytes) {
  if (bytes > 0) {
    std::memcpy(element, send, bytes);
    std::memset(element + bytes, 0, bytes);  // B is never read while f = 0: zeroed, not sent raw
  }
  const std::uint64_t has_b = 0;
  std::memcpy(element + 2 * bytes, &has_b, sizeof has_b);
}

}  // namespace ccl::drop_in
