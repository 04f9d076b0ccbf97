// Pushed transfers of the shared-memory fabric: the sender copies a large message straight into
// the receiver's buffer with cross-memory attach (process_vm_writev), so that a member receiving
// from many at once (a gather's root) does not make every copy itself, as it would pulling each
// message through MPI's single-copy path. The peers copy in parallel; the receiver only waits.
//
//   target (receiver)                         source (sender)
//   ── address {buffer, bytes} ─────────────►  waits for it (tag | kAddressTag)
//                                              process_vm_writev(buffer ← data)
//   waits for it (tag | kNoticeTag)  ◄──────── notice {bytes written}
//
// Cost: one copy of the message, by the sender, and two control messages of 16 and 8 bytes
// through the tiny ring (~0.1 us each). The control messages are ordinary fabric messages under
// the transfer's context and tag with a bit set above the channels' tags (below kTagLimit), one
// bit per kind, so they are matched as any message is and never by a receive of another kind.
//
// A source whose size differs from the target's writes nothing and says so in its notice: the
// target then reports the mismatch (as MPI reports truncation on the receiving side). A write
// that fails is reported the same way, with the source's errno.
#include <sys/uio.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string>

#include "ccl/error.hpp"
#include "shm_fabric.hpp"

namespace ccl::detail {

namespace {

constexpr std::uint64_t kAddressTag = ShmFabric::kTagLimit << 1;
constexpr std::uint64_t kNoticeTag = ShmFabric::kTagLimit;
// A notice of a failed write: this bit and the source's errno.
constexpr std::uint64_t kWriteFailed = std::uint64_t{1} << 63;

// Writes bytes from `from` to `to` in process pid; 0 or the errno of the failure.
int write_into(int pid, const std::byte* from, std::uint64_t to, std::size_t bytes) {
  while (bytes > 0) {
    iovec local{const_cast<std::byte*>(from), bytes};
    iovec remote{reinterpret_cast<void*>(to), bytes};
    const ssize_t n = process_vm_writev(pid, &local, 1, &remote, 1, 0);
    if (n <= 0) return n < 0 ? errno : EIO;
    from += n;
    to += static_cast<std::uint64_t>(n);
    bytes -= static_cast<std::size_t>(n);
  }
  return 0;
}

}  // namespace

void ShmFabric::start_push(ShmOp* op) {
  op->buffer = op->data;
  op->buffer_bytes = op->bytes;
  if (op->push == ShmOp::Push::target) {
    op->control[0] = reinterpret_cast<std::uintptr_t>(op->buffer);
    op->control[1] = op->buffer_bytes;
  }
  op->is_send = op->push == ShmOp::Push::target;
  op->tag |= kAddressTag;
  op->data = reinterpret_cast<std::byte*>(op->control);
  op->bytes = sizeof op->control;
  op->offset = 0;
  start(op);
}

void ShmFabric::sent(ShmOp* op) {
  if (op->push != ShmOp::Push::target || (op->tag & kAddressTag) == 0) {
    op->done = true;
    return;
  }
  // The target's address is out: wait for the source's notice, into control[0].
  op->is_send = false;
  op->tag = (op->tag & ~kAddressTag) | kNoticeTag;
  op->bytes = sizeof(std::uint64_t);
  op->offset = 0;
  start(op);
}

void ShmFabric::received(ShmOp* op) {
  if (op->push == ShmOp::Push::source) {
    write_pushed(op);
    return;
  }
  if (op->push == ShmOp::Push::target) {
    const std::uint64_t notice = op->control[0];
    if ((notice & kWriteFailed) != 0) {
      throw Error("ccl: world rank " + std::to_string(world_of_local_[static_cast<std::size_t>(op->peer)]) +
                  " could not write a message of " + std::to_string(op->buffer_bytes) +
                  " bytes into this rank's memory (process_vm_writev: " +
                  std::strerror(static_cast<int>(notice & ~kWriteFailed)) + "); CCL_PUSH=0 turns such transfers off");
    }
    if (notice != op->buffer_bytes) size_mismatch(notice, op->buffer_bytes);
  }
  op->done = true;
}

void ShmFabric::write_pushed(ShmOp* op) {
  const std::uint64_t to = op->control[0], room = op->control[1];
  std::uint64_t notice = op->buffer_bytes;  // a size that differs: nothing written, the target reports it
  if (room == op->buffer_bytes) {
    const int err = write_into(pids_[static_cast<std::size_t>(op->peer)], op->buffer, to, op->buffer_bytes);
    if (err != 0) notice = kWriteFailed | static_cast<std::uint64_t>(err);
  }
  op->control[0] = notice;
  op->is_send = true;
  op->tag = (op->tag & ~kAddressTag) | kNoticeTag;
  op->bytes = sizeof(std::uint64_t);
  op->offset = 0;
  start(op);  // done once the notice is in its ring
}

bool ShmFabric::probe_push() {
  const char* env = std::getenv("CCL_PUSH");
  const bool wanted = env == nullptr || std::string(env) != "0";
  const int pid = static_cast<int>(getpid());
  pids_.assign(static_cast<std::size_t>(size_), 0);
  MPI_Allgather(&pid, 1, MPI_INT, pids_.data(), 1, MPI_INT, node_);
  // Each rank writes its index + 1 into the next rank's `mark`, then checks its own.
  std::uint64_t mark = 0;
  const auto where = static_cast<unsigned long long>(reinterpret_cast<std::uintptr_t>(&mark));
  std::vector<unsigned long long> marks(static_cast<std::size_t>(size_));
  MPI_Allgather(&where, 1, MPI_UNSIGNED_LONG_LONG, marks.data(), 1, MPI_UNSIGNED_LONG_LONG, node_);
  const auto next = static_cast<std::size_t>((local_ + 1) % size_);
  const std::uint64_t value = static_cast<std::uint64_t>(local_) + 1;
  int ok = wanted && write_into(pids_[next], reinterpret_cast<const std::byte*>(&value), marks[next],
                                sizeof value) == 0;
  MPI_Barrier(node_);  // every write is over before anyone looks
  const std::uint64_t expected = static_cast<std::uint64_t>((local_ + size_ - 1) % size_) + 1;
  ok = ok && *static_cast<volatile std::uint64_t*>(&mark) == expected;
  int all_ok = 0;
  MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, node_);
  return all_ok != 0;
}

}  // namespace ccl::detail
