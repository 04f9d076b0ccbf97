// Streamed transfers of the shared-memory fabric: a message larger than one cell (kMaxBytes)
// and up to stream_limit() goes through the large ring to its receiver as pieces of kMaxBytes
// (the last one shorter), each cell marked whether more pieces follow. The sender fills cells
// while the ring has room and goes on from progress(); the receiver copies each piece out as it
// arrives, which frees its cell for the next. Two copies in a pipeline, as coll/sm and MPICH's
// shared-memory path move large messages.
//
// Cost of m bytes, p = ceil(m / kMaxBytes) pieces, the receiver keeping up: p start-ups of about
// one cache line's trip between cores, and m / B + kMaxBytes / B for the two copies at copy
// bandwidth B, the second copy of each piece overlapping the first of the next.
//
// Why not MPI's single-copy path (CMA): on this machine (a VM) its system call, which pins the
// pages on every transfer, made a bcast of 32 KiB on 2 ranks take 6.6 us against coll/sm's
// 2.1 us through 8 KiB fragments. Above what the ring holds, where the two ranks run decides
// (across sockets a stream costs 3-4x more): there the receiver may ask for pulls instead
// (pull_transfer.cpp). Where ranks share cores a receiver may be asleep and unable to
// drain the ring, so only what fits in the ring at once streams there (ShmFabric::create).
//
// The marks make a size mismatch an error on the receiver, as MPI reports truncation: a piece
// that would overrun the receive, a last piece that leaves it short, or a piece announcing more
// when the receive is full (take_piece).
#include <algorithm>
#include <cctype>
#include <cstdlib>

#include "shm_fabric.hpp"

namespace ccl::detail {

bool ShmFabric::push_pieces(ShmOp* op) {
  constexpr int kLarge = 2;  // every piece goes through the large ring, the last one too
  while (op->offset < op->bytes) {
    const std::size_t piece = std::min(kMaxBytes, op->bytes - op->offset);
    const bool more = op->offset + piece < op->bytes;
    if (!push(op->peer, kLarge, op->context, op->tag, op->data + op->offset, piece, more)) {
      return false;
    }
    op->offset += piece;
  }
  return true;
}

std::optional<unsigned long long> ShmFabric::stream_max_setting() {
  const char* v = std::getenv("CCL_STREAM_MAX");
  if (v == nullptr || *v == '\0') return ~0ull;
  char* end = nullptr;
  const unsigned long long bytes = std::strtoull(v, &end, 10);
  if (*end != '\0' || !std::isdigit(static_cast<unsigned char>(v[0]))) return std::nullopt;
  return bytes;
}

std::size_t ShmFabric::agreed_stream_limit() const {
  // Ranks that share cores: what fits in the ring at once, so that a sender never waits on a
  // receiver that may be asleep. Otherwise every size: see above.
  const unsigned long long ring = large_ring_holds();
  // The setting was checked on every rank at start-up (mpi_runtime.cpp).
  const unsigned long long mine =
      std::min(oversubscribed_ ? ring : ~0ull, stream_max_setting().value_or(0));
  // Every rank must classify a message alike, whatever its environment says.
  unsigned long long agreed = 0;
  MPI_Allreduce(&mine, &agreed, 1, MPI_UNSIGNED_LONG_LONG, MPI_MIN, node_);
  return static_cast<std::size_t>(std::max<unsigned long long>(agreed, kMaxBytes));
}

}  // namespace ccl::detail
