// A receive folded into an accumulator as its data arrives, instead of landing in a buffer of
// its own for a reduce step to read back: acc = in op other (incoming_left) or other op in,
// element by element; `other` may be acc itself. Pieces are whole elements. Only shared memory,
// whose receiver reads each piece out of the sender's ring, folds.
#pragma once

#include <cstddef>

#include "ccl/reduce_op.hpp"

namespace ccl::detail {

struct Fold {
  std::byte* acc = nullptr;
  const std::byte* other = nullptr;
  const ReduceKernel* kernel = nullptr;
  std::size_t elem = 1;
  bool incoming_left = false;
  // The bytes [offset, offset + bytes) of the message have come, at `in`.
  void apply(std::size_t offset, const std::byte* in, std::size_t bytes) const {
    std::byte* a = acc + offset;
    const std::byte* o = other + offset;
    if (incoming_left) {
      kernel->apply(in, o, a, bytes / elem);
    } else {
      kernel->apply(o, in, a, bytes / elem);
    }
  }
};

}  // namespace ccl::detail
