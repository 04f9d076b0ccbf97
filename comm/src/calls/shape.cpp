#include "ccl/shape.hpp"

#include <array>

namespace ccl {

namespace {
struct KindNames {
  std::string_view ccl, mpi;
};
constexpr std::array<KindNames, kCollKinds> kNames{{
    {"bcast", "MPI_Bcast"},
    {"reduce", "MPI_Reduce"},
    {"combine", "MPI_Allreduce"},
    {"scatter", "MPI_Scatter"},
    {"gather", "MPI_Gather"},
    {"concat", "MPI_Allgather"},
    {"index", "MPI_Alltoall"},
    {"prefix", "MPI_Scan"},
    {"shift", "MPI_Sendrecv"},
    {"sync", "MPI_Barrier"},
    {"concatv", "MPI_Allgatherv"},
    {"gatherv", "MPI_Gatherv"},
    {"scatterv", "MPI_Scatterv"},
    {"indexv", "MPI_Alltoallv"},
}};
}  // namespace

std::string_view name(CollKind k) {
  return kNames[static_cast<int>(k)].ccl;
}
std::string_view mpi_name(CollKind k) {
  return kNames[static_cast<int>(k)].mpi;
}

BlockLayout::BlockLayout(const Shape& s, bool receiving) {
  prefix_.resize(static_cast<std::size_t>(s.size) + 1, 0);
  for (int i = 0; i < s.size; ++i) {
    prefix_[static_cast<std::size_t>(i) + 1] =
        prefix_[static_cast<std::size_t>(i)] +
        (receiving ? s.recv_block_bytes(i) : s.block_bytes(i));
  }
}

std::size_t BlockLayout::cyclic_bytes(int first, int len) const {
  const int n = static_cast<int>(prefix_.size()) - 1;
  if (len <= 0) return 0;
  int end = first + len;
  if (end <= n) return offset(end) - offset(first);
  return (total() - offset(first)) + offset(end - n);
}

}  // namespace ccl

std::size_t std::hash<ccl::Shape>::operator()(const ccl::Shape& s) const noexcept {
  std::size_t h = 1469598103934665603ULL;
  auto mix = [&h](std::size_t v) { h = (h ^ v) * 1099511628211ULL; };
  mix(static_cast<std::size_t>(s.kind));
  mix(static_cast<std::size_t>(s.size));
  mix(static_cast<std::size_t>(s.rank));
  mix(static_cast<std::size_t>(s.root));
  mix(s.elem);
  mix(s.count);
  mix(static_cast<std::size_t>(s.distance));
  mix(static_cast<std::size_t>(s.in_place) * 2 + static_cast<std::size_t>(s.commutative));
  for (auto c : s.counts) mix(c);
  mix(s.recv_counts.size());
  for (auto c : s.recv_counts) mix(c);
  return h;
}
