// The shape of one collective call as one member sees it: what a schedule depends on, and the key
// under which a built schedule is cached and reused. Buffers are not part of the shape: schedules
// address buffer slices by (buffer, offset, bytes) and are bound to real memory when they run.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string_view>
#include <vector>

namespace ccl {

enum class CollKind : std::uint8_t {
  bcast,
  reduce,
  combine,
  scatter,
  gather,
  concat,
  index,
  prefix,
  shift,
  sync,
  concatv,
  gatherv,
  scatterv,
  indexv,
};
inline constexpr int kCollKinds = 14;

std::string_view name(CollKind k);      // CCL name: "bcast", "combine", ...
std::string_view mpi_name(CollKind k);  // MPI equivalent: "MPI_Bcast", "MPI_Allreduce", ...
// Inline: every call asks these.
constexpr bool is_rooted(CollKind k) {
  return k == CollKind::bcast || k == CollKind::reduce || k == CollKind::scatter ||
         k == CollKind::gather || k == CollKind::scatterv || k == CollKind::gatherv;
}
constexpr bool is_reduction(CollKind k) {
  return k == CollKind::reduce || k == CollKind::combine || k == CollKind::prefix;
}
constexpr bool is_vector_form(CollKind k) {
  return k == CollKind::concatv || k == CollKind::gatherv || k == CollKind::scatterv ||
         k == CollKind::indexv;
}

struct Shape {
  CollKind kind = CollKind::sync;
  int size = 1;
  int rank = 0;
  int root = 0;           // rooted kinds; sync: the member to release first, or -1 for none
  std::size_t elem = 1;   // bytes per element
  std::size_t count = 0;  // elements: of the vector (bcast, reduce, combine, prefix, shift) or of
                          // each member's block (scatter, gather, concat, index)
  std::vector<std::size_t> counts;       // v-forms: elements of each member's block (indexv: sent)
  std::vector<std::size_t> recv_counts;  // indexv: elements received from each member
  int distance = 0;  // shift; sync: 1 when the member before root leaves last, once all others left
  bool in_place = false;    // send and recv are the same memory
  bool commutative = true;  // reductions: operands may be reordered
  std::vector<int> torus;   // concat: the group's torus layout (Group::torus)
  bool barrier = false;     // barrier mode (ccl/mode.hpp): sync trees added

  // Bytes of member i's block (of what member i receives, for indexv).
  std::size_t block_bytes(int i) const {
    return (counts.empty() ? count : counts[static_cast<std::size_t>(i)]) * elem;
  }
  std::size_t recv_block_bytes(int i) const {
    return recv_counts.empty() ? block_bytes(i) : recv_counts[static_cast<std::size_t>(i)] * elem;
  }
  std::size_t vector_bytes() const { return count * elem; }

  friend bool operator==(const Shape&, const Shape&) = default;
};

// Byte offsets of member blocks laid out contiguously in rank order, with cyclic range sums
// (the rotated layouts of Bruck-style algorithms).
class BlockLayout {
 public:
  BlockLayout(const Shape& s, bool receiving = false);
  std::size_t offset(int i) const { return prefix_[static_cast<std::size_t>(i)]; }
  std::size_t bytes(int i) const {
    return prefix_[static_cast<std::size_t>(i) + 1] - prefix_[static_cast<std::size_t>(i)];
  }
  std::size_t total() const { return prefix_.back(); }
  // Bytes of the len blocks first, first+1, ... taken cyclically modulo the group size.
  std::size_t cyclic_bytes(int first, int len) const;

 private:
  std::vector<std::size_t> prefix_;
};

}  // namespace ccl

template <>
struct std::hash<ccl::Shape> {
  std::size_t operator()(const ccl::Shape& s) const noexcept;
};
