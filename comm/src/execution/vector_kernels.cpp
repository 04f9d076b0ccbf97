// The arithmetic built-in reductions (sum, prod, min, max) on the common element types, compiled
// for the widest vectors the CPU has: one clone per instruction set, the loader picks one when
// the library loads. The generic loop in make_kernel is built for the baseline x86-64 (SSE2):
// two doubles per instruction where AVX-512 does eight, which made a reduce of 256 KiB on 2
// ranks 1.2-1.4x Open MPI's time (Open MPI 4.1 has its own AVX kernels, op/avx).
//
// Element by element, as the generic loop: no operation is reordered, so the results are
// bitwise the same. The executor calls a kernel with the output equal to one operand or apart
// from both; each case gets a loop whose pointers the compiler may take as not aliasing.
#include <cstddef>
#include <cstdint>

#include "ccl/reduce_op.hpp"

namespace ccl::detail {

namespace {

template <class Op, class T>
[[gnu::always_inline]] inline void into_left(T* __restrict acc, const T* __restrict in,
                                             std::size_t n) {
  const Op op{};
  for (std::size_t i = 0; i < n; ++i) acc[i] = op(acc[i], in[i]);
}

template <class Op, class T>
[[gnu::always_inline]] inline void into_right(const T* __restrict in, T* __restrict acc,
                                              std::size_t n) {
  const Op op{};
  for (std::size_t i = 0; i < n; ++i) acc[i] = op(in[i], acc[i]);
}

template <class Op, class T>
[[gnu::always_inline]] inline void apart(const T* __restrict a, const T* __restrict b,
                                         T* __restrict out, std::size_t n) {
  const Op op{};
  for (std::size_t i = 0; i < n; ++i) out[i] = op(a[i], b[i]);
}

template <class Op, class T>
[[gnu::always_inline]] inline void any_overlap(const T* a, const T* b, T* out, std::size_t n) {
  const Op op{};
  for (std::size_t i = 0; i < n; ++i) out[i] = op(a[i], b[i]);
}

}  // namespace

#if defined(__x86_64__)
#define CCL_FOR_EACH_VECTOR_WIDTH __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define CCL_FOR_EACH_VECTOR_WIDTH
#endif

template <class Op, class T>
CCL_FOR_EACH_VECTOR_WIDTH void vector_kernel(const void*, const std::byte* left,
                                             const std::byte* right, std::byte* out,
                                             std::size_t n) {
  const T* a = reinterpret_cast<const T*>(left);
  const T* b = reinterpret_cast<const T*>(right);
  T* o = reinterpret_cast<T*>(out);
  if (a == b) {
    any_overlap<Op>(a, b, o, n);
  } else if (o == a) {
    into_left<Op>(o, b, n);
  } else if (o == b) {
    into_right<Op>(a, o, n);
  } else {
    apart<Op>(a, b, o, n);
  }
}

// The pairs has_vector_kernel (reduce_op.hpp) names; one missing here fails to link.
#define CCL_VECTOR_KERNELS_FOR(T)                                                            \
  template void vector_kernel<ops::Sum, T>(const void*, const std::byte*, const std::byte*,  \
                                           std::byte*, std::size_t);                         \
  template void vector_kernel<ops::Prod, T>(const void*, const std::byte*, const std::byte*, \
                                            std::byte*, std::size_t);                        \
  template void vector_kernel<ops::Min, T>(const void*, const std::byte*, const std::byte*,  \
                                           std::byte*, std::size_t);                         \
  template void vector_kernel<ops::Max, T>(const void*, const std::byte*, const std::byte*,  \
                                           std::byte*, std::size_t);

CCL_VECTOR_KERNELS_FOR(float)
CCL_VECTOR_KERNELS_FOR(double)
CCL_VECTOR_KERNELS_FOR(std::int32_t)
CCL_VECTOR_KERNELS_FOR(std::int64_t)
CCL_VECTOR_KERNELS_FOR(std::uint32_t)
CCL_VECTOR_KERNELS_FOR(std::uint64_t)

#undef CCL_VECTOR_KERNELS_FOR
#undef CCL_FOR_EACH_VECTOR_WIDTH

}  // namespace ccl::detail
