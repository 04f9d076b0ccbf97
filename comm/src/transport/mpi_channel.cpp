#include "transport/mpi_channel.hpp"

#include <algorithm>
#include <bit>
#include <climits>
#include <cstdint>
#include <string>

#include <sched.h>

#include "ccl/error.hpp"

namespace ccl::detail {

void check_mpi(int rc, const char* what) {
  if (rc == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  MPI_Error_string(rc, text, &len);
  throw Error(std::string("ccl: ") + what +
              " failed: " + std::string(text, static_cast<std::size_t>(len)));
}

namespace {

// MPI counts are int: a transfer above INT_MAX bytes goes as whole 1 GiB units plus a remainder,
// split the same way on both sides.
constexpr std::size_t kUnit = std::size_t{1} << 30;

MPI_Datatype unit_type() {
  static MPI_Datatype t = [] {
    MPI_Datatype d;
    MPI_Type_contiguous(static_cast<int>(kUnit), MPI_BYTE, &d);
    MPI_Type_commit(&d);
    return d;
  }();
  return t;
}

template <class Post>
void split(std::size_t bytes, Post post) {
  if (bytes <= static_cast<std::size_t>(INT_MAX)) {
    post(0, static_cast<int>(bytes), MPI_BYTE);
    return;
  }
  post(0, static_cast<int>(bytes / kUnit), unit_type());
  if (bytes % kUnit != 0) post(bytes / kUnit * kUnit, static_cast<int>(bytes % kUnit), MPI_BYTE);
}

// In a round's handles a shared-memory operation is itself; an MPI request is a null beside the
// request in hs.requests.
bool any_shm(const Handles& hs) {
  return hs.requests.size() != hs.ops.size();
}

void add_request(Handles& hs, MPI_Request r) {
  hs.ops.push_back(nullptr);
  hs.requests.push_back(r);
}

}  // namespace

MpiChannel::MpiChannel(MPI_Comm comm, ShmFabric* fabric, const std::vector<int>& members,
                       const Pgid& context, std::uint64_t tag_limit)
    : comm_(comm), fabric_(fabric), context_(context) {
  if (fabric_ != nullptr) {
    local_.reserve(members.size());
    for (int w : members) local_.push_back(fabric_->local_index(w));
  }
  MPI_Comm_set_errhandler(comm_, MPI_ERRORS_RETURN);
  int* tag_ub = nullptr;
  int flag = 0;
  MPI_Comm_get_attr(comm_, MPI_TAG_UB, &tag_ub, &flag);
  const std::uint64_t ub = std::min(
      {flag ? static_cast<std::uint64_t>(*tag_ub) : 32767, tag_limit, ShmFabric::kTagLimit - 1});
  // A power of two (a mask, not a division); half the instance tags, the other half persistent.
  tag_cycle_ = std::bit_floor((ub + 1) / kPhases) / 2;
}

MpiChannel::~MpiChannel() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized && comm_ != MPI_COMM_NULL) MPI_Comm_free(&comm_);
}

std::uint64_t MpiChannel::tag(std::uint64_t instance, int phase) const {
  // Instances a cycle apart share a tag: start() completes the older before the newer starts.
  const std::uint64_t slot =
      (is_persistent(instance) ? tag_cycle_ : 0) + (instance & (tag_cycle_ - 1));
  return slot * kPhases + static_cast<std::uint64_t>(phase);
}

ShmOp* MpiChannel::shm_op(bool is_send, int local, std::uint64_t tag, const std::byte* data,
                          std::size_t bytes) {
  ShmOp* op = fabric_->acquire();
  op->is_send = is_send;
  op->peer = local;
  op->context = context_;
  op->tag = tag;
  op->data = const_cast<std::byte*>(data);
  op->bytes = bytes;
  return op;
}

namespace {

// The pieces as one datatype of bytes at their offsets from the buffer's base. Committed for one
// transfer and freed once posted (MPI keeps what a pending transfer needs). Both sides count
// `bytes` alike, so a gathered send matches a plain receive and the other way round.
MPI_Datatype pieces_type(std::span<const Extent> pieces) {
  std::vector<int> lengths;
  std::vector<MPI_Aint> offsets;
  lengths.reserve(pieces.size());
  offsets.reserve(pieces.size());
  for (const Extent& e : pieces) {
    lengths.push_back(static_cast<int>(e.bytes));
    offsets.push_back(static_cast<MPI_Aint>(e.offset));
  }
  MPI_Datatype t;
  check_mpi(MPI_Type_create_hindexed(static_cast<int>(pieces.size()), lengths.data(),
                                     offsets.data(), MPI_BYTE, &t),
            "MPI_Type_create_hindexed");
  check_mpi(MPI_Type_commit(&t), "MPI_Type_commit");
  return t;
}

// One message of the pieces' datatype, sent or received.
void post_pieces(bool send, MPI_Comm comm, int peer, std::uint64_t tag, std::byte* base,
                 std::span<const Extent> pieces, Handles& hs) {
  MPI_Datatype t = pieces_type(pieces);
  MPI_Request r;
  const int rc = send ? MPI_Isend(base, 1, t, peer, static_cast<int>(tag), comm, &r)
                      : MPI_Irecv(base, 1, t, peer, static_cast<int>(tag), comm, &r);
  MPI_Type_free(&t);
  check_mpi(rc, send ? "MPI_Isend" : "MPI_Irecv");
  add_request(hs, r);
}

}  // namespace

void MpiChannel::send_gathered(int peer, std::uint64_t tag, const std::byte* base,
                               std::span<const Extent> pieces, std::size_t /*bytes*/, Handles& hs) {
  post_pieces(true, comm_, peer, tag, const_cast<std::byte*>(base), pieces, hs);
}

void MpiChannel::recv_scattered(int peer, std::uint64_t tag, std::byte* base,
                                std::span<const Extent> pieces, std::size_t /*bytes*/,
                                Handles& hs) {
  post_pieces(false, comm_, peer, tag, base, pieces, hs);
}

void MpiChannel::send(int peer, std::uint64_t tag, const std::byte* data, std::size_t bytes,
                      Handles& hs) {
  if (plain_direct(peer, bytes)) {
    send_direct(peer, tag, data, bytes, Copier::receiver, hs);
    return;
  }
  if (const int local = shm_peer(peer, bytes); local >= 0) {
    ShmOp* op = shm_op(true, local, tag, data, bytes);
    hs.ops.push_back(op);
    fabric_->start(op);
    return;
  }
  split(bytes, [&](std::size_t off, int count, MPI_Datatype type) {
    MPI_Request r;
    check_mpi(MPI_Isend(data + off, count, type, peer, static_cast<int>(tag), comm_, &r),
              "MPI_Isend");
    add_request(hs, r);
  });
}

void MpiChannel::recv(int peer, std::uint64_t tag, std::byte* data, std::size_t bytes,
                      Handles& hs) {
  if (plain_direct(peer, bytes)) {
    recv_direct(peer, tag, data, bytes, Copier::receiver, hs);
    return;
  }
  if (const int local = shm_peer(peer, bytes); local >= 0) {
    ShmOp* op = shm_op(false, local, tag, data, bytes);
    hs.ops.push_back(op);
    fabric_->start(op);
    return;
  }
  split(bytes, [&](std::size_t off, int count, MPI_Datatype type) {
    MPI_Request r;
    check_mpi(MPI_Irecv(data + off, count, type, peer, static_cast<int>(tag), comm_, &r),
              "MPI_Irecv");
    add_request(hs, r);
  });
}

ShmOp::Copy MpiChannel::direct_copy(Copier copier) const {
  switch (copier) {
    case Copier::receiver:
      return ShmOp::Copy::pulled;
    case Copier::split:
      // Where ranks share cores the halves would be copied one after the other, after a wait
      // for the other side to wake: the receiver reads it all.
      return fabric_->oversubscribed() ? ShmOp::Copy::pulled : ShmOp::Copy::split;
    default:
      return ShmOp::Copy::pushed;
  }
}

void MpiChannel::send_direct(int peer, std::uint64_t tag, const std::byte* data, std::size_t bytes,
                             Copier copier, Handles& hs) {
  if (!copies_direct(peer, bytes, copier)) {
    send(peer, tag, data, bytes, hs);
    return;
  }
  ShmOp* op = shm_op(true, local_[static_cast<std::size_t>(peer)], tag, data, bytes);
  op->direct = ShmOp::Direct::source;
  op->copy = direct_copy(copier);
  hs.ops.push_back(op);
  fabric_->start_direct(op);
}

void MpiChannel::recv_direct(int peer, std::uint64_t tag, std::byte* data, std::size_t bytes,
                             Copier copier, Handles& hs) {
  if (!copies_direct(peer, bytes, copier)) {
    recv(peer, tag, data, bytes, hs);
    return;
  }
  ShmOp* op = shm_op(false, local_[static_cast<std::size_t>(peer)], tag, data, bytes);
  op->direct = ShmOp::Direct::target;
  op->copy = direct_copy(copier);
  hs.ops.push_back(op);
  fabric_->start_direct(op);
}

void MpiChannel::send_shared(const int* peers, std::size_t n, std::uint64_t tag,
                             const std::byte* data, std::size_t bytes, Handles& hs) {
  bool on_node = true;
  for (std::size_t i = 0; i < n; ++i) on_node = on_node && shm_peer(peers[i], bytes) >= 0;
  const int slot = on_node ? fabric_->reserve_slot(static_cast<int>(n)) : -1;
  if (slot < 0) {  // a peer elsewhere, or every slot still being read: one by one
    for (std::size_t i = 0; i < n; ++i) send(peers[i], tag, data, bytes, hs);
    return;
  }
  shared_locals_.clear();
  for (std::size_t i = 0; i < n; ++i) {
    shared_locals_.push_back(local_[static_cast<std::size_t>(peers[i])]);
  }
  const bool streaming = fabric_->fill_first_piece(slot, shared_locals_.data(), n, data, bytes);
  if (bytes <= ShmFabric::kMaxBytes) {
    // One piece, all in the slot: each reference sent on the spot where it can be.
    for (const int local : shared_locals_) {
      if (fabric_->send_reference_now(local, context_, tag, slot, bytes, streaming)) continue;
      ShmOp* op = shm_op(true, local, tag, data, bytes);
      op->shared_slot = slot;
      op->streaming = streaming;
      hs.ops.push_back(op);
      fabric_->start(op);
    }
    return;
  }
  shared_ops_.clear();
  for (const int local : shared_locals_) {
    ShmOp* op = shm_op(true, local, tag, data, bytes);
    op->shared_slot = slot;
    op->streaming = streaming;
    hs.ops.push_back(op);
    shared_ops_.push_back(op);
  }
  fabric_->send_shared(shared_ops_.data(), n);
}

void MpiChannel::recv_folded(int peer, std::uint64_t tag, std::size_t bytes, const Fold& fold,
                             Handles& hs) {
  ShmOp* op = shm_op(false, shm_peer(peer, bytes), tag, fold.acc, bytes);
  op->fold = &fold;
  hs.ops.push_back(op);
  fabric_->start(op);
}

bool MpiChannel::test_all(Handles& hs) {
  if (fabric_ != nullptr) fabric_->progress();  // queued sends of any round move on too
  if (hs.empty()) return true;
  if (fabric_ != nullptr && any_shm(hs)) {
    bool all = true;
    for (void* h : hs.ops) {
      if (h != nullptr) all = all && static_cast<ShmOp*>(h)->done;
    }
    for (MPI_Request& r : hs.requests) {
      if (r == MPI_REQUEST_NULL) continue;
      int flag = 0;
      check_mpi(MPI_Test(&r, &flag, MPI_STATUS_IGNORE), "MPI_Test");
      all = all && flag != 0;
    }
    return all;
  }
  int done = 0;
  check_mpi(MPI_Testall(static_cast<int>(hs.requests.size()), hs.requests.data(), &done,
                        MPI_STATUSES_IGNORE),
            "MPI_Testall");
  return done != 0;
}

void MpiChannel::end_round(Handles& hs) {
  for (void* h : hs.ops) {
    if (h != nullptr) fabric_->release(static_cast<ShmOp*>(h));
  }
  hs.clear();
}

bool MpiChannel::exchange_shm(int to_local, const std::byte* out, std::size_t out_bytes,
                              int from_local, std::byte* in, std::size_t in_bytes,
                              std::uint64_t tag, const Fold* fold) {
  // Straight into and out of the rings when the fabric is quiet (the usual case here: nothing
  // else is in flight); what could not be done that way goes through posted operations.
  const bool sent = to_local < 0 || fabric_->send_now(to_local, context_, tag, out, out_bytes);
  if (sent &&
      (from_local < 0 || fabric_->recv_now(from_local, context_, tag, in, in_bytes, fold))) {
    return true;
  }
  ShmOp* r = from_local >= 0 ? shm_op(false, from_local, tag, in, in_bytes) : nullptr;
  if (r != nullptr) r->fold = fold;
  ShmOp* s = !sent ? shm_op(true, to_local, tag, out, out_bytes) : nullptr;
  auto finished = [&] { return (r == nullptr || r->done) && (s == nullptr || s->done); };
  try {
    if (r != nullptr) fabric_->start(r);
    if (s != nullptr) fabric_->start(s);
    std::uint64_t began = 0;
    const ShmFabric::Wait wait(*fabric_);
    while (!finished()) {
      fabric_->progress();
      if (finished()) break;
      const ShmOp* awaited = r != nullptr && !r->done ? r : s;
      if (!fabric_->wait_on_running(awaited->peer, began)) fabric_->idle();
    }
  } catch (...) {
    if (r != nullptr) fabric_->release(r);
    if (s != nullptr) fabric_->release(s);
    throw;
  }
  if (r != nullptr) fabric_->release(r);
  if (s != nullptr) fabric_->release(s);
  return true;
}

bool MpiChannel::exchange(int to, const std::byte* out, std::size_t out_bytes, int from,
                          std::byte* in, std::size_t in_bytes, std::uint64_t tag,
                          const Fold* fold) {
  if (fabric_ != nullptr) {
    // A direct transfer is a handshake of posted operations on both sides.
    if ((to >= 0 && plain_direct(to, out_bytes)) || (from >= 0 && plain_direct(from, in_bytes)))
      return false;
    const int to_local = to >= 0 ? shm_peer(to, out_bytes) : -1;
    const int from_local = from >= 0 ? shm_peer(from, in_bytes) : -1;
    const bool send_shm = to_local >= 0, recv_shm = from_local >= 0;
    if ((to < 0 || send_shm) && (from < 0 || recv_shm)) {
      return exchange_shm(to_local, out, out_bytes, from_local, in, in_bytes, tag, fold);
    }
    // Mixed paths take the general one; so does anything while our queued shared-memory sends
    // wait for room: blocking inside MPI would keep them from the peer waiting for them.
    if (send_shm || recv_shm || fabric_->has_queued_sends()) return false;
  }
  if (fold != nullptr) return false;  // only shared memory folds
  // Blocking calls skip request bookkeeping. A lone send may block only while small enough to
  // go eagerly: a large one could wait on a peer that is itself sending to us.
  constexpr std::size_t kEager = 1024;
  const int t = static_cast<int>(tag);
  if (to >= 0 && from >= 0) {
    if (out_bytes > static_cast<std::size_t>(INT_MAX) ||
        in_bytes > static_cast<std::size_t>(INT_MAX))
      return false;
    check_mpi(MPI_Sendrecv(out, static_cast<int>(out_bytes), MPI_BYTE, to, t, in,
                           static_cast<int>(in_bytes), MPI_BYTE, from, t, comm_, MPI_STATUS_IGNORE),
              "MPI_Sendrecv");
    return true;
  }
  if (from >= 0 && in_bytes <= static_cast<std::size_t>(INT_MAX)) {
    check_mpi(MPI_Recv(in, static_cast<int>(in_bytes), MPI_BYTE, from, t, comm_, MPI_STATUS_IGNORE),
              "MPI_Recv");
    return true;
  }
  if (to >= 0 && out_bytes <= kEager) {
    check_mpi(MPI_Send(out, static_cast<int>(out_bytes), MPI_BYTE, to, t, comm_), "MPI_Send");
    return true;
  }
  return false;
}

void MpiChannel::wait_all(Handles& hs) {
  if (fabric_ != nullptr && (any_shm(hs) || fabric_->has_queued_sends())) {
    std::uint64_t began = 0;
    const ShmFabric::Wait wait(*fabric_);
    while (!test_all(hs)) idle_waiting(hs, began);
    return;
  }
  // In slices of kWaitSlice requests: every request is posted and progresses whichever slice is
  // waited on, so the round ends as before. SimGrid's wait on many requests registers the wait
  // with each and unregisters it from each, by a list walk, as one completes: a root taking
  // 4,095 messages on 4,096 simulated ranks spent 4.5 s of host time in one wait, 1.4 s in
  // slices of 64.
  constexpr std::size_t kWaitSlice = 64;
  for (std::size_t at = 0; at < hs.requests.size(); at += kWaitSlice) {
    const std::size_t n = std::min(kWaitSlice, hs.requests.size() - at);
    check_mpi(MPI_Waitall(static_cast<int>(n), hs.requests.data() + at, MPI_STATUSES_IGNORE),
              "MPI_Waitall");
  }
}

std::vector<bool> MpiChannel::unfinished(Handles& hs) {
  std::vector<bool> open(hs.size());
  std::size_t next_request = 0;
  for (std::size_t i = 0; i < hs.size(); ++i) {
    if (hs.ops[i] != nullptr) {
      open[i] = !static_cast<ShmOp*>(hs.ops[i])->done;
      continue;
    }
    MPI_Request& r = hs.requests[next_request++];
    int flag = 1;
    if (r != MPI_REQUEST_NULL) MPI_Test(&r, &flag, MPI_STATUS_IGNORE);
    open[i] = flag == 0;
  }
  return open;
}

void MpiChannel::idle_waiting(const Handles& hs, std::uint64_t& began) {
  for (void* h : hs.ops) {
    const auto* op = static_cast<const ShmOp*>(h);
    if (op == nullptr || op->done) continue;
    if (fabric_->wait_on_running(op->peer, began)) return;
    break;
  }
  fabric_->idle();
}

void MpiChannel::idle() {
  if (fabric_ != nullptr) {
    fabric_->idle();
  } else if (++idle_polls_ % 64 == 0) {
    sched_yield();  // ranks may outnumber cores
  }
}

}  // namespace ccl::detail
