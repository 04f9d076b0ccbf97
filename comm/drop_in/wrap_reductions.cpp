// MPI_Reduce, MPI_Allreduce, MPI_Scan, MPI_Exscan and MPI_Reduce_scatter_block, blocking,
// nonblocking and persistent, as ccl reduce, combine, prefix, prefix (short) or prefix + shift
// (long), and index + a local reduction.
#include <cstring>

#include "ccl/copy_bytes.hpp"
#include "exclusive_scan.hpp"
#include "pass_through.hpp"
#include "persistent.hpp"
#include "reduction_kernel.hpp"
#include "wrap_common.hpp"
#include "wrap_support.hpp"

namespace ccl::drop_in {

namespace {

// The checks and the kernel every reduction needs; null kernel plan when MPI must do it.
struct Reduction {
  EntryRef entry;
  const ReductionPlan* plan;  // kept by kernel_for() until the operator or datatype is freed
  std::size_t elems = 0;      // kernel elements in `count` datatype elements
  std::size_t bytes = 0;
};

std::optional<Reduction> prepare(MpiCall which, int count, MPI_Datatype type, MPI_Op op,
                                 MPI_Comm comm, int root = 0) {
  if (op == MPI_OP_NULL) {
    count_fallback(which, kInvalid);
    return std::nullopt;
  }
  const EntryRef entry = admit(which, comm, {count}, {type}, root);
  if (entry == nullptr) return std::nullopt;
  const KernelChoice& k = kernel_for(op, type);
  if (!k.plan) {
    count_fallback(which, k.why_not.c_str());
    return std::nullopt;
  }
  Reduction r{entry, &*k.plan};
  const Layout& l = layout_of(type);
  r.elems = r.plan->user_op ? static_cast<std::size_t>(count)
                            : static_cast<std::size_t>(count) * l.basic_count;
  r.bytes = r.elems * r.plan->elem;
  usage(which).bytes += r.bytes;
  return r;
}

detail::Call reduction_call(CollKind kind, const Reduction& r, const void* send, void* recv,
                            std::size_t recv_elems) {
  detail::Call c;
  c.kind = kind;
  c.elem = r.plan->elem;
  c.send = static_cast<const std::byte*>(send);
  c.send_elems = r.elems;
  c.recv = static_cast<std::byte*>(recv);
  c.recv_elems = recv_elems;
  c.kernel = r.plan->kernel;
  return c;
}

// MPI forbids send and receive buffers that overlap, but programs that pass the same buffer
// run under MPI implementations that tolerate it: take a copy of the send side instead.
const void* separate(Plan& plan, const void* send, const void* recv, std::size_t bytes) {
  if (!overlap(send, bytes, recv, bytes)) return send;
  std::byte* copy = plan.temporary(bytes);
  detail::copy_bytes(copy, static_cast<const std::byte*>(send), bytes);
  return copy;
}

int reduce(MpiCall which, const void* sendbuf, void* recvbuf, int count, MPI_Datatype type,
           MPI_Op op, int root, MPI_Comm comm, MPI_Request* request) {
  const InsideWrapper inside;
  const Timed timed(which);
  auto r = prepare(which, count, type, op, comm, root);
  if (!r) {
    return request ? PMPI_Ireduce(sendbuf, recvbuf, count, type, op, root, comm, request)
                   : PMPI_Reduce(sendbuf, recvbuf, count, type, op, root, comm);
  }
  if (returns_at_once(which, request, r->bytes)) return MPI_SUCCESS;
  const bool at_root = (*r->entry)->rank() == root;
  const void* send = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;
  auto call_from = [&](const void* from) {
    detail::Call c = reduction_call(CollKind::reduce, *r, from, at_root ? recvbuf : nullptr,
                                    at_root ? r->elems : 0);
    c.root = root;
    return c;
  };
  const bool apart =
      !at_root || sendbuf == MPI_IN_PLACE || !overlap(send, r->bytes, recvbuf, r->bytes);
  if (request == nullptr && apart) {  // no plan: nothing to keep (a plan cost 60 instructions)
    return run_call(which, comm, **r->entry, call_from(send));
  }
  Plan plan;
  if (!apart) send = separate(plan, send, recvbuf, r->bytes);
  return run_single(which, comm, *r->entry, std::move(plan), call_from(send), request);
}

// Allreduce and scan: every member sends and receives `count` elements.
int all_members(MpiCall which, CollKind kind, const void* sendbuf, void* recvbuf, int count,
                MPI_Datatype type, MPI_Op op, MPI_Comm comm, MPI_Request* request,
                int (*to_mpi)(const void*, void*, int, MPI_Datatype, MPI_Op, MPI_Comm),
                int (*to_mpi_nonblocking)(const void*, void*, int, MPI_Datatype, MPI_Op, MPI_Comm,
                                          MPI_Request*)) {
  const InsideWrapper inside;
  const Timed timed(which);
  auto r = prepare(which, count, type, op, comm);
  if (!r) {
    return request ? to_mpi_nonblocking(sendbuf, recvbuf, count, type, op, comm, request)
                   : to_mpi(sendbuf, recvbuf, count, type, op, comm);
  }
  if (returns_at_once(which, request, r->bytes)) return MPI_SUCCESS;
  const bool apart = sendbuf == MPI_IN_PLACE || !overlap(sendbuf, r->bytes, recvbuf, r->bytes);
  if (request == nullptr && apart) {
    const void* send = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;
    return run_call(which, comm, **r->entry, reduction_call(kind, *r, send, recvbuf, r->elems));
  }
  Plan plan;
  const void* send = sendbuf == MPI_IN_PLACE ? recvbuf : separate(plan, sendbuf, recvbuf, r->bytes);
  return run_single(which, comm, *r->entry, std::move(plan),
                    reduction_call(kind, *r, send, recvbuf, r->elems), request);
}

// Exclusive scan. Short vectors: one prefix on (A, B, f) elements (exclusive_scan.hpp), blocking
// or not. Longer ones: an inclusive prefix into a temporary, then a shift by one member, so
// member r receives x0 op ... op x(r-1) in rank order; two ccl calls, the second depending on the
// first, so the nonblocking form goes to MPI. Member 0's result is undefined in MPI: its buffer
// is left alone.
int exscan(MpiCall which, const void* sendbuf, void* recvbuf, int count, MPI_Datatype type,
           MPI_Op op, MPI_Comm comm, MPI_Request* request) {
  const InsideWrapper inside;
  const Timed timed(which);
  auto to_mpi = [&] {
    return request ? PMPI_Iexscan(sendbuf, recvbuf, count, type, op, comm, request)
                   : PMPI_Exscan(sendbuf, recvbuf, count, type, op, comm);
  };
  if (request != nullptr && type != MPI_DATATYPE_NULL && count > 0 &&
      static_cast<std::size_t>(count) * layout_of(type).size > kExclusiveScanMaxBytes) {
    count_fallback(which, "vector above 2 KiB (a second ccl call would wait on the first)");
    return to_mpi();
  }
  auto r = prepare(which, count, type, op, comm);
  if (!r) return to_mpi();
  Plan plan;
  const void* send = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;
  const bool first = rank_in(comm) == 0;
  if (r->bytes <= kExclusiveScanMaxBytes) {
    const std::size_t element = exclusive_element_bytes(r->bytes);
    std::byte* mine = plan.temporary(element);
    std::byte* scanned = plan.temporary(element);
    make_exclusive_element(mine, send, r->bytes);
    detail::Call c = byte_call(CollKind::prefix);
    c.elem = element;
    c.send = mine;
    c.recv = scanned;
    c.send_elems = c.recv_elems = 1;
    c.kernel = exclusive_scan_kernel(r->plan->kernel, r->elems, r->plan->elem);
    plan.add(std::move(c));
    if (!first && r->bytes > 0) {
      plan.after.push_back([recvbuf, scanned, bytes = r->bytes] {
        detail::copy_bytes(static_cast<std::byte*>(recvbuf), exclusive_result(scanned, bytes),
                           bytes);
      });
    }
    return run_plan(which, comm, *r->entry, std::move(plan), request);
  }
  std::byte* inclusive = plan.temporary(r->bytes);
  void* result = first ? plan.temporary(r->bytes) : recvbuf;
  plan.add(reduction_call(CollKind::prefix, *r, send, inclusive, r->elems));
  detail::Call shift = byte_call(CollKind::shift);
  shift.elem = r->plan->elem;
  shift.send = inclusive;
  shift.send_elems = shift.recv_elems = r->elems;
  shift.recv = static_cast<std::byte*>(result);
  shift.distance = 1;
  plan.add(std::move(shift));
  return run_plan(which, comm, *r->entry, std::move(plan), nullptr);
}

// Reduce-scatter with equal blocks: an index (all-to-all) brings member r block r of every
// member, in rank order; reducing them locally keeps rank order for any operator. Moves
// (P-1)/P of the vector per member, as the bandwidth-optimal reduce-scatter does.
int reduce_scatter_block(MpiCall which, const void* sendbuf, void* recvbuf, int recvcount,
                         MPI_Datatype type, MPI_Op op, MPI_Comm comm, MPI_Request* request) {
  const InsideWrapper inside;
  const Timed timed(which);
  auto r = prepare(which, recvcount, type, op, comm);
  if (!r) {
    return request
               ? PMPI_Ireduce_scatter_block(sendbuf, recvbuf, recvcount, type, op, comm, request)
               : PMPI_Reduce_scatter_block(sendbuf, recvbuf, recvcount, type, op, comm);
  }
  const auto members = static_cast<std::size_t>(size_of(comm));
  Plan plan;
  const void* send = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;
  std::byte* blocks = plan.temporary(members * r->bytes);
  detail::Call c = byte_call(CollKind::index);
  c.elem = r->plan->elem;
  c.send = static_cast<const std::byte*>(send);
  c.recv = blocks;
  c.send_elems = c.recv_elems = members * r->elems;
  plan.add(std::move(c));
  plan.after.push_back(
      [blocks, recvbuf, members, elems = r->elems, bytes = r->bytes, kernel = r->plan->kernel] {
        auto* out = static_cast<std::byte*>(recvbuf);
        if (bytes == 0) return;  // an empty vector may be a null buffer
        if (members == 1) {
          detail::copy_bytes(out, blocks, bytes);
          return;
        }
        // From the last block down: out = b(j) op out, so a user function updates `out` in place.
        kernel.apply(blocks + (members - 2) * bytes, blocks + (members - 1) * bytes, out, elems);
        for (std::size_t j = members - 2; j-- > 0;)
          kernel.apply(blocks + j * bytes, out, out, elems);
      });
  return run_plan(which, comm, *r->entry, std::move(plan), request);
}

}  // namespace

}  // namespace ccl::drop_in

using namespace ccl::drop_in;
using ccl::CollKind;

extern "C" {

int MPI_Reduce(const void* s, void* r, int n, MPI_Datatype t, MPI_Op op, int root, MPI_Comm c) {
  if (passing_through()) return PMPI_Reduce(s, r, n, t, op, root, c);
  return reduce(MpiCall::Reduce, s, r, n, t, op, root, c, nullptr);
}
int MPI_Ireduce(const void* s, void* r, int n, MPI_Datatype t, MPI_Op op, int root, MPI_Comm c,
                MPI_Request* q) {
  if (passing_through()) return PMPI_Ireduce(s, r, n, t, op, root, c, q);
  return reduce(MpiCall::Ireduce, s, r, n, t, op, root, c, q);
}
int MPI_Allreduce(const void* s, void* r, int n, MPI_Datatype t, MPI_Op op, MPI_Comm c) {
  if (passing_through()) return PMPI_Allreduce(s, r, n, t, op, c);
  return all_members(MpiCall::Allreduce, CollKind::combine, s, r, n, t, op, c, nullptr,
                     PMPI_Allreduce, PMPI_Iallreduce);
}
int MPI_Iallreduce(const void* s, void* r, int n, MPI_Datatype t, MPI_Op op, MPI_Comm c,
                   MPI_Request* q) {
  if (passing_through()) return PMPI_Iallreduce(s, r, n, t, op, c, q);
  return all_members(MpiCall::Iallreduce, CollKind::combine, s, r, n, t, op, c, q, PMPI_Allreduce,
                     PMPI_Iallreduce);
}
int MPI_Scan(const void* s, void* r, int n, MPI_Datatype t, MPI_Op op, MPI_Comm c) {
  if (passing_through()) return PMPI_Scan(s, r, n, t, op, c);
  return all_members(MpiCall::Scan, CollKind::prefix, s, r, n, t, op, c, nullptr, PMPI_Scan,
                     PMPI_Iscan);
}
int MPI_Iscan(const void* s, void* r, int n, MPI_Datatype t, MPI_Op op, MPI_Comm c,
              MPI_Request* q) {
  if (passing_through()) return PMPI_Iscan(s, r, n, t, op, c, q);
  return all_members(MpiCall::Iscan, CollKind::prefix, s, r, n, t, op, c, q, PMPI_Scan, PMPI_Iscan);
}
int MPI_Exscan(const void* s, void* r, int n, MPI_Datatype t, MPI_Op op, MPI_Comm c) {
  if (passing_through()) return PMPI_Exscan(s, r, n, t, op, c);
  return exscan(MpiCall::Exscan, s, r, n, t, op, c, nullptr);
}
int MPI_Iexscan(const void* s, void* r, int n, MPI_Datatype t, MPI_Op op, MPI_Comm c,
                MPI_Request* q) {
  if (passing_through()) return PMPI_Iexscan(s, r, n, t, op, c, q);
  return exscan(MpiCall::Iexscan, s, r, n, t, op, c, q);
}
int MPI_Reduce_scatter_block(const void* s, void* r, int n, MPI_Datatype t, MPI_Op op, MPI_Comm c) {
  if (passing_through()) return PMPI_Reduce_scatter_block(s, r, n, t, op, c);
  return reduce_scatter_block(MpiCall::Reduce_scatter_block, s, r, n, t, op, c, nullptr);
}
int MPI_Ireduce_scatter_block(const void* s, void* r, int n, MPI_Datatype t, MPI_Op op, MPI_Comm c,
                              MPI_Request* q) {
  if (passing_through()) return PMPI_Ireduce_scatter_block(s, r, n, t, op, c, q);
  return reduce_scatter_block(MpiCall::Ireduce_scatter_block, s, r, n, t, op, c, q);
}

// Persistent forms (MPI-4; MPIX_ in Open MPI 4.1): each round is the nonblocking call on the
// bound arguments (persistent.hpp).
int MPI_Reduce_init(const void* s, void* r, int n, MPI_Datatype t, MPI_Op op, int root, MPI_Comm c,
                    MPI_Info, MPI_Request* q) {
  Binder binder(c);
  t = binder.keep(t);
  return binder.bind(
      MpiCall::Reduce_init,
      [=](MPI_Request* round) {
        return reduce(MpiCall::Reduce_init, s, r, n, t, op, root, c, round);
      },
      q);
}
int MPI_Allreduce_init(const void* s, void* r, int n, MPI_Datatype t, MPI_Op op, MPI_Comm c,
                       MPI_Info, MPI_Request* q) {
  Binder binder(c);
  t = binder.keep(t);
  return binder.bind(
      MpiCall::Allreduce_init,
      [=](MPI_Request* round) {
        return all_members(MpiCall::Allreduce_init, CollKind::combine, s, r, n, t, op, c, round,
                           PMPI_Allreduce, PMPI_Iallreduce);
      },
      q);
}
int MPI_Scan_init(const void* s, void* r, int n, MPI_Datatype t, MPI_Op op, MPI_Comm c, MPI_Info,
                  MPI_Request* q) {
  Binder binder(c);
  t = binder.keep(t);
  return binder.bind(
      MpiCall::Scan_init,
      [=](MPI_Request* round) {
        return all_members(MpiCall::Scan_init, CollKind::prefix, s, r, n, t, op, c, round,
                           PMPI_Scan, PMPI_Iscan);
      },
      q);
}
int MPI_Exscan_init(const void* s, void* r, int n, MPI_Datatype t, MPI_Op op, MPI_Comm c, MPI_Info,
                    MPI_Request* q) {
  Binder binder(c);
  t = binder.keep(t);
  return binder.bind(
      MpiCall::Exscan_init,
      [=](MPI_Request* round) { return exscan(MpiCall::Exscan_init, s, r, n, t, op, c, round); },
      q);
}
int MPI_Reduce_scatter_block_init(const void* s, void* r, int n, MPI_Datatype t, MPI_Op op,
                                  MPI_Comm c, MPI_Info, MPI_Request* q) {
  Binder binder(c);
  t = binder.keep(t);
  return binder.bind(
      MpiCall::Reduce_scatter_block_init,
      [=](MPI_Request* round) {
        return reduce_scatter_block(MpiCall::Reduce_scatter_block_init, s, r, n, t, op, c, round);
      },
      q);
}

int MPIX_Reduce_init(const void* s, void* r, int n, MPI_Datatype t, MPI_Op op, int root, MPI_Comm c,
                     MPI_Info i, MPI_Request* q) {
  return MPI_Reduce_init(s, r, n, t, op, root, c, i, q);
}
int MPIX_Allreduce_init(const void* s, void* r, int n, MPI_Datatype t, MPI_Op op, MPI_Comm c,
                        MPI_Info i, MPI_Request* q) {
  return MPI_Allreduce_init(s, r, n, t, op, c, i, q);
}
int MPIX_Scan_init(const void* s, void* r, int n, MPI_Datatype t, MPI_Op op, MPI_Comm c, MPI_Info i,
                   MPI_Request* q) {
  return MPI_Scan_init(s, r, n, t, op, c, i, q);
}
int MPIX_Exscan_init(const void* s, void* r, int n, MPI_Datatype t, MPI_Op op, MPI_Comm c,
                     MPI_Info i, MPI_Request* q) {
  return MPI_Exscan_init(s, r, n, t, op, c, i, q);
}
int MPIX_Reduce_scatter_block_init(const void* s, void* r, int n, MPI_Datatype t, MPI_Op op,
                                   MPI_Comm c, MPI_Info i, MPI_Request* q) {
  return MPI_Reduce_scatter_block_init(s, r, n, t, op, c, i, q);
}

}  // extern "C"
