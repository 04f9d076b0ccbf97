// Direct transfers of the shared-memory fabric: one side copies a large message straight between
// the two members' buffers with cross-memory attach, instead of both copying it through the
// rings. Pushed (the sender writes, process_vm_writev): a member receiving from many at once (a
// gather's root) does not make every copy itself. Pulled (the receiver reads, process_vm_readv):
// a root sending to many, or with a copy of its own to make, only answers handshakes while its
// receivers copy in parallel.
//
//   asker (pushed: receiver; pulled: sender)   copier (pushed: sender; pulled: receiver)
//   ── address {buffer, bytes} ─────────────►  waits for it (tag | kAddressTag)
//                                              copies between its buffer and that address
//   waits for it (tag | kNoticeTag)  ◄──────── notice {sender's size, or the copy's failure}
//
// Split (two members with nothing else to do, each on a core of its own): each side is both
// asker and copier. Both send their address, and on the other's the sender writes the first half
// into the receiver's buffer while the receiver reads the second half out of the sender's; then
// both send a notice and wait for the other's. Two cores copy at once: the copies alone, two
// processes on this machine's two cores, 256 KiB: 8.2 us split against 11.8 pulled (data the
// root has not written since, as IMB's root sends) and 13 against 20 (data it has just
// written); 1 MiB 29 against 54, and 41 against 88. Under IMB, 1 MiB: 30 us, tuned 45-69.
//
// Cost: one copy of the message, by the copier (split: half by each), and two control messages of
// 16 and 8 bytes through the tiny ring (~0.1 us each; split: both ways at once). The control
// messages are ordinary fabric messages under the transfer's context and tag with a bit set above
// the channels' tags (below kTagLimit), one bit per kind, so they are matched as any message is
// and never by a receive of another kind; a pulled transfer's carry one more. One schedule's
// transfers between two members share a tag and are told apart by their order, so an address
// from member a to member b must say which way the data goes: a plain transfer from a to b,
// pulled, and an exchange's pushed one from b to a in the same round each send b an address,
// and b matched them the other way round ("a message of 32776 bytes arrived for a receive of
// 32768 bytes", a combine on 2 ranks where plain transfers of 16-64 KiB went direct).
//
// Sizes that differ: no copier copies, and each says so in its notice. The receiver reports the
// mismatch (as MPI reports truncation on the receiving side), at once when it is only the asker,
// after its notice is out when it copies (the sender must not wait forever). A copy that fails
// is reported the same way, with the copier's errno.
#include <sys/uio.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>

#include "ccl/error.hpp"
#include "transport/shm/shm_fabric.hpp"

namespace ccl::detail {

namespace {

constexpr std::uint64_t kAddressTag = ShmFabric::kTagLimit << 1;
constexpr std::uint64_t kNoticeTag = ShmFabric::kTagLimit;
constexpr std::uint64_t kPulledTag = ShmFabric::kTagLimit << 2;
static_assert((ShmFabric::kTagLimit << 3) - 1 <= UINT32_MAX, "a cell's word holds 32 tag bits");
// A notice of a failed copy: this bit and the copier's errno.
constexpr std::uint64_t kCopyFailed = std::uint64_t{1} << 63;

// Copies bytes between `local` here and `remote` in process pid (into it when `write`, out of it
// otherwise); 0 or the errno of the failure.
int copy_across(int pid, bool write, std::byte* local, std::uint64_t remote, std::size_t bytes) {
  while (bytes > 0) {
    iovec here{local, bytes};
    iovec there{reinterpret_cast<void*>(remote), bytes};
    const ssize_t n = write ? process_vm_writev(pid, &here, 1, &there, 1, 0)
                            : process_vm_readv(pid, &here, 1, &there, 1, 0);
    if (n <= 0) return n < 0 ? errno : EIO;
    local += n;
    remote += static_cast<std::uint64_t>(n);
    bytes -= static_cast<std::size_t>(n);
  }
  return 0;
}

using Copy = ShmOp::Copy;

// The side that sends its buffer's address and waits for the notice (split: both).
bool asks(const ShmOp* op) {
  if (op->copy == Copy::split) return true;
  return (op->direct == ShmOp::Direct::target) != (op->copy == Copy::pulled);
}

}  // namespace

void ShmFabric::start_direct(ShmOp* op) {
  op->buffer = op->data;
  op->buffer_bytes = op->bytes;
  op->is_send = asks(op);
  if (op->is_send) {
    op->control[0] = reinterpret_cast<std::uintptr_t>(op->buffer);
    op->control[1] = op->buffer_bytes;
  }
  op->tag |= kAddressTag | (op->copy == Copy::pulled ? kPulledTag : 0);
  op->data = reinterpret_cast<std::byte*>(op->control);
  op->bytes = sizeof op->control;
  op->offset = 0;
  start(op);
}

void ShmFabric::sent(ShmOp* op) {
  if (op->direct == ShmOp::Direct::none) {
    op->done = true;
    return;
  }
  const bool split = op->copy == Copy::split;
  if ((op->tag & kNoticeTag) != 0 && !split) {  // a copier's notice is out: its part is done
    op->done = true;
    if (op->direct == ShmOp::Direct::target) check_notice(op, op->control[0], true);
    return;
  }
  // Our address is out: wait for the copier's notice, into control[0]. Split: wait for the
  // other's address, then (after our own notice is out) for its notice; ours stays in control[1].
  if ((op->tag & kNoticeTag) != 0) op->control[1] = op->control[0];
  const bool address_next = split && (op->tag & kAddressTag) != 0;
  op->is_send = false;
  op->data = reinterpret_cast<std::byte*>(op->control);
  op->bytes = address_next ? sizeof op->control : sizeof(std::uint64_t);
  if (!address_next) op->tag = (op->tag & ~kAddressTag) | kNoticeTag;
  op->offset = 0;
  start(op);
}

void ShmFabric::received(ShmOp* op) {
  if (op->direct != ShmOp::Direct::none && (op->tag & kAddressTag) != 0) {
    copy_direct(op);
    return;
  }
  op->done = true;
  if (op->direct != ShmOp::Direct::target) return;
  if (op->copy == Copy::split) {  // its own copy's outcome first, then the sender's
    check_notice(op, op->control[1], true);
    check_notice(op, op->control[0], false);
  } else {
    check_notice(op, op->control[0], op->copy == Copy::pulled);
  }
}

void ShmFabric::copy_direct(ShmOp* op) {
  const std::uint64_t there = op->control[0], their_bytes = op->control[1];
  const bool sender = op->direct == ShmOp::Direct::source;
  // The notice: the sender's size (a size that differs: nothing copied), or the copy's failure.
  // The receiver judges by it: by the one it gets, and by its own once it is out.
  std::uint64_t notice = sender ? op->buffer_bytes : their_bytes;
  if (their_bytes == op->buffer_bytes) {
    // The part this side copies. Split: the sender [0, half), the receiver [half, bytes), half
    // on a cache line's bound so that the two never write one line.
    std::size_t from = 0, to = op->buffer_bytes;
    if (op->copy == Copy::split) (sender ? to : from) = op->buffer_bytes / 2 / kLine * kLine;
    const int err = copy_across(pids_[static_cast<std::size_t>(op->peer)], sender,
                                op->buffer + from, there + from, to - from);
    if (err != 0) notice = kCopyFailed | static_cast<std::uint64_t>(err);
  }
  op->control[0] = notice;
  op->is_send = true;
  op->tag = (op->tag & ~kAddressTag) | kNoticeTag;
  op->data = reinterpret_cast<std::byte*>(op->control);
  op->bytes = sizeof(std::uint64_t);
  op->offset = 0;
  start(op);  // done once the notice is in its ring (split: and the other's has come)
}

void ShmFabric::check_notice(const ShmOp* op, std::uint64_t notice, bool pulled) const {
  if ((notice & kCopyFailed) != 0) {
    const int copier = world_of_local_[static_cast<std::size_t>(pulled ? local_ : op->peer)];
    const int owner = world_of_local_[static_cast<std::size_t>(pulled ? op->peer : local_)];
    throw Error("ccl: world rank " + std::to_string(copier) + " could not copy a message of " +
                std::to_string(op->buffer_bytes) + " bytes " +
                (pulled ? "out of world rank " : "into world rank ") + std::to_string(owner) +
                "'s memory (" + (pulled ? "process_vm_readv: " : "process_vm_writev: ") +
                std::strerror(static_cast<int>(notice & ~kCopyFailed)) +
                "); CCL_PUSH=0 turns such transfers off");
  }
  if (notice != op->buffer_bytes) size_mismatch(notice, op->buffer_bytes);
}

bool ShmFabric::probe_reach() {
  const char* env = std::getenv("CCL_PUSH");
  const bool wanted = env == nullptr || std::string(env) != "0";
  const int pid = static_cast<int>(getpid());
  pids_.assign(static_cast<std::size_t>(size_), 0);
  MPI_Allgather(&pid, 1, MPI_INT, pids_.data(), 1, MPI_INT, node_);
  // Each rank writes its index + 1 into the next rank's `mark` and reads it back, then checks
  // its own.
  std::uint64_t mark = 0;
  const auto where = static_cast<unsigned long long>(reinterpret_cast<std::uintptr_t>(&mark));
  std::vector<unsigned long long> marks(static_cast<std::size_t>(size_));
  MPI_Allgather(&where, 1, MPI_UNSIGNED_LONG_LONG, marks.data(), 1, MPI_UNSIGNED_LONG_LONG, node_);
  const auto next = static_cast<std::size_t>((local_ + 1) % size_);
  std::uint64_t value = static_cast<std::uint64_t>(local_) + 1, back = 0;
  int ok = wanted &&
           copy_across(pids_[next], true, reinterpret_cast<std::byte*>(&value), marks[next],
                       sizeof value) == 0 &&
           copy_across(pids_[next], false, reinterpret_cast<std::byte*>(&back), marks[next],
                       sizeof back) == 0 &&
           back == value;
  MPI_Barrier(node_);  // every write is over before anyone looks
  const std::uint64_t expected = static_cast<std::uint64_t>((local_ + size_ - 1) % size_) + 1;
  ok = ok && *static_cast<volatile std::uint64_t*>(&mark) == expected;
  int all_ok = 0;
  MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, node_);
  return all_ok != 0;
}

}  // namespace ccl::detail
