// An exclusive scan (MPI_Exscan) as one inclusive ccl prefix, for any associative operator.
//
// Each member contributes one element (A, B, f) of 2m + 8 bytes for an m-byte vector: A its own
// vector, B empty (f = 0). The operator on such elements, for a run of members L followed by a
// run R,
//     A = A_L op A_R,   B = (f_R ? A_L op B_R : A_L),   f = 1,
// keeps A the whole run's reduction and B the reduction of all of it but its last member; it is
// associative whenever op is. The inclusive prefix at member r then holds in B the reduction of
// members 0 .. r-1, MPI_Exscan's result, in rank order.
//
// Cost against a prefix and then a shift by one (the two-call form): the same prefix on twice
// the bytes, plus m bytes of extra reduce work per fold, but one collective instead of two, and
// none of the shift's wait for the last member (the shift is cyclic, so member 0 waits for
// member n-1 on every call). The element is indivisible, so pipelined algorithms cannot cut it
// into segments: worth it for short vectors only. Measured here (ccl-bench-drop-in, us per call,
// one call / two calls): 8 B at 3 ranks 0.57 / 5.5-7.1 (two calls measured at 4 ranks), at
// 8 ranks 1.2; 4 KiB at 3 ranks 7.2 / 4.6, at 8 ranks 21 / 29. Hence one call up to 2 KiB
// (kExclusiveScanMaxBytes).
#pragma once

#include <cstddef>

#include "ccl/reduce_op.hpp"

namespace ccl::drop_in {

// Vectors up to this many bytes take the one-call form; longer ones a prefix and a shift.
inline constexpr std::size_t kExclusiveScanMaxBytes = 2048;

// Bytes of one member's element for a vector of `bytes` bytes.
inline std::size_t exclusive_element_bytes(std::size_t bytes) {
  return 2 * bytes + 8;
}

// The operator above, on elements of a vector of `elems` elements of `elem_bytes` bytes that
// `inner` reduces. Not commutative.
ReduceKernel exclusive_scan_kernel(const ReduceKernel& inner, std::size_t elems,
                                   std::size_t elem_bytes);

// Lay out a member's element: A = its vector (`bytes` bytes from `send`), f = 0.
void make_exclusive_element(std::byte* element, const void* send, std::size_t bytes);
// B of an inclusive result element: the exclusive scan.
inline const std::byte* exclusive_result(const std::byte* element, std::size_t bytes) {
  return element + bytes;
}

}  // namespace ccl::drop_in
