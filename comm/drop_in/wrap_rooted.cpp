// MPI_Bcast, MPI_Scatter(v) and MPI_Gather(v), blocking, nonblocking and persistent, as ccl
// bcast, scatter and gather of packed bytes. The v-forms broadcast the root's counts first (the
// other members do not know them, and ccl's trees need them): two ccl calls, so blocking forms
// only.
#include <algorithm>
#include <cstring>
#include <utility>
#include <vector>

#include "pass_through.hpp"
#include "persistent.hpp"
#include "wrap_common.hpp"
#include "wrap_support.hpp"

namespace ccl::drop_in {

namespace {

int bcast(MpiCall which, void* buf, int count, MPI_Datatype type, int root, MPI_Comm comm,
          MPI_Request* request) {
  const InsideWrapper inside;
  const Timed timed(which);
  auto entry = admit(which, comm, {count}, {type}, root);
  if (entry == nullptr) {
    return request ? PMPI_Ibcast(buf, count, type, root, comm, request)
                   : PMPI_Bcast(buf, count, type, root, comm);
  }
  const Layout& layout = layout_of(type);
  const std::size_t bytes = static_cast<std::size_t>(count) * layout.size;
  usage(which).bytes += bytes;
  if (returns_at_once(which, request, bytes)) return MPI_SUCCESS;
  detail::Call c = byte_call(CollKind::bcast, root);
  c.send_elems = c.recv_elems = bytes;
  if (request == nullptr && layout.packed) {
    c.send = c.recv = static_cast<std::byte*>(buf);
    return run_call(which, comm, **entry, std::move(c));
  }
  Plan plan;
  std::byte* wire = rank_in(comm) == root ? send_bytes(plan, buf, count, type, comm)
                                          : recv_bytes(plan, buf, count, type);
  c.send = c.recv = wire;
  return run_single(which, comm, *entry, std::move(plan), std::move(c), request);
}

// Scatter and gather with no datatype to pack on this member: the root's all-blocks buffer (of
// `root_type`) when it is the root, and its own block (of `own_type`) unless the root passed
// MPI_IN_PLACE for it.
bool contiguous_sides(bool at_root, bool in_place, MPI_Datatype root_type, MPI_Datatype own_type) {
  return (!at_root || layout_of(root_type).packed) && (in_place || layout_of(own_type).packed);
}

// Scatter and gather: the root's side holds every member's block; `own` is the root's block
// when it passed MPI_IN_PLACE for its small buffer.
int scatter(MpiCall which, const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
            int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* request) {
  const InsideWrapper inside;
  const Timed timed(which);
  const bool at_root = rank_known(comm) == root;
  const bool in_place = at_root && recvbuf == MPI_IN_PLACE;
  auto entry = at_root ? admit(which, comm, {sendcount}, {sendtype}, root)
                       : admit(which, comm, {recvcount}, {recvtype}, root);
  if (entry == nullptr) {
    return request ? PMPI_Iscatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root,
                                   comm, request)
                   : PMPI_Scatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root,
                                  comm);
  }
  const int members = (*entry)->size();
  // Every member's block has the bytes of its own (the type signatures match).
  const std::size_t own_block =
      at_root ? static_cast<std::size_t>(sendcount) * layout_of(sendtype).size
              : static_cast<std::size_t>(recvcount) * layout_of(recvtype).size;
  if (returns_at_once(which, request, own_block)) return MPI_SUCCESS;
  detail::Call c = byte_call(CollKind::scatter, root);
  if (request == nullptr && contiguous_sides(at_root, in_place, sendtype, recvtype)) {
    // ccl scatter on the user's buffers as they are, no plan (as bcast).
    if (at_root) {
      usage(which).bytes += own_block * static_cast<std::size_t>(members);
      c.send = static_cast<const std::byte*>(sendbuf);
      c.send_elems = own_block * static_cast<std::size_t>(members);
    }
    c.recv = in_place ? const_cast<std::byte*>(c.send) + own_block * static_cast<std::size_t>(root)
                      : static_cast<std::byte*>(recvbuf);
    c.recv_elems = own_block;
    return run_call(which, comm, **entry, std::move(c));
  }
  Plan plan;
  if (at_root) {
    const std::size_t block = static_cast<std::size_t>(sendcount) * layout_of(sendtype).size;
    usage(which).bytes += block * static_cast<std::size_t>(members);
    c.send = send_bytes(plan, sendbuf, sendcount * members, sendtype, comm);
    c.send_elems = block * static_cast<std::size_t>(members);
    c.recv = in_place ? const_cast<std::byte*>(c.send) + block * static_cast<std::size_t>(root)
                      : recv_bytes(plan, recvbuf, recvcount, recvtype);
    c.recv_elems = block;
  } else {
    c.recv = recv_bytes(plan, recvbuf, recvcount, recvtype);
    c.recv_elems = static_cast<std::size_t>(recvcount) * layout_of(recvtype).size;
  }
  return run_single(which, comm, *entry, std::move(plan), std::move(c), request);
}

int gather(MpiCall which, const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
           int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* request) {
  const InsideWrapper inside;
  const Timed timed(which);
  const bool at_root = rank_known(comm) == root;
  const bool in_place = at_root && sendbuf == MPI_IN_PLACE;
  auto entry = at_root ? admit(which, comm, {recvcount}, {recvtype}, root)
                       : admit(which, comm, {sendcount}, {sendtype}, root);
  if (entry == nullptr) {
    return request ? PMPI_Igather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root,
                                  comm, request)
                   : PMPI_Gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root,
                                 comm);
  }
  const int members = (*entry)->size();
  // Every member's block has the bytes of its own (the type signatures match).
  const std::size_t own_block =
      at_root ? static_cast<std::size_t>(recvcount) * layout_of(recvtype).size
              : static_cast<std::size_t>(sendcount) * layout_of(sendtype).size;
  if (returns_at_once(which, request, own_block)) return MPI_SUCCESS;
  detail::Call c = byte_call(CollKind::gather, root);
  if (request == nullptr && contiguous_sides(at_root, in_place, recvtype, sendtype)) {
    // ccl gather on the user's buffers as they are, no plan (as bcast).
    usage(which).bytes += at_root ? own_block * static_cast<std::size_t>(members) : own_block;
    if (at_root) {
      c.recv = static_cast<std::byte*>(recvbuf);
      c.recv_elems = own_block * static_cast<std::size_t>(members);
    }
    c.send = in_place ? c.recv + own_block * static_cast<std::size_t>(root)
                      : static_cast<const std::byte*>(sendbuf);
    c.send_elems = own_block;
    return run_call(which, comm, **entry, std::move(c));
  }
  Plan plan;
  if (at_root) {
    const Layout& l = layout_of(recvtype);
    const std::size_t block = static_cast<std::size_t>(recvcount) * l.size;
    usage(which).bytes += block * static_cast<std::size_t>(members);
    c.recv = recv_bytes(plan, recvbuf, recvcount * members, recvtype);
    c.recv_elems = block * static_cast<std::size_t>(members);
    std::byte* own = c.recv + block * static_cast<std::size_t>(root);
    if (in_place && !l.packed) {  // the root's block sits in the user's buffer, not the temporary
      const std::vector<int> counts(static_cast<std::size_t>(members), recvcount);
      std::vector<int> displacements(static_cast<std::size_t>(members));
      for (int i = 0; i < members; ++i) displacements[static_cast<std::size_t>(i)] = i * recvcount;
      pack_block_into(c.recv, recvbuf, Blocks{counts.data(), displacements.data(), members}, root,
                      recvtype, comm);
    }
    c.send = in_place ? own : send_bytes(plan, sendbuf, sendcount, sendtype, comm);
    c.send_elems = block;
  } else {
    c.send = send_bytes(plan, sendbuf, sendcount, sendtype, comm);
    c.send_elems = static_cast<std::size_t>(sendcount) * layout_of(sendtype).size;
    usage(which).bytes += c.send_elems;
  }
  return run_single(which, comm, *entry, std::move(plan), std::move(c), request);
}

// The root's counts in bytes, broadcast to every member before a v-form; read when the v-form's
// call is built.
const std::size_t* counts_from_root(Plan& plan, int members, int root,
                                    const std::vector<std::size_t>& at_root) {
  auto* counts = reinterpret_cast<std::size_t*>(
      plan.temporary(sizeof(std::size_t) * static_cast<std::size_t>(members)));
  std::copy(at_root.begin(), at_root.end(), counts);
  detail::Call c = byte_call(CollKind::bcast, root);
  c.elem = sizeof(std::size_t);
  c.send = c.recv = reinterpret_cast<std::byte*>(counts);
  c.send_elems = c.recv_elems = static_cast<std::size_t>(members);
  plan.add(std::move(c));
  return counts;
}

// Where member `me`'s block starts among packed blocks, and their total.
std::pair<std::size_t, std::size_t> offset_and_total(const std::vector<std::size_t>& counts,
                                                     int me) {
  std::size_t offset = 0, total = 0;
  for (std::size_t i = 0; i < counts.size(); ++i) {
    if (static_cast<int>(i) < me) offset += counts[i];
    total += counts[i];
  }
  return {offset, total};
}

int scatterv(const void* sendbuf, const int* sendcounts, const int* displs, MPI_Datatype sendtype,
             void* recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
  const MpiCall which = MpiCall::Scatterv;
  const InsideWrapper inside;
  const Timed timed(which);
  const bool at_root = rank_in(comm) == root;
  const bool in_place = at_root && recvbuf == MPI_IN_PLACE;
  auto entry = admit(which, comm, {at_root ? 0 : recvcount}, {at_root ? sendtype : recvtype}, root);
  if (entry == nullptr) {
    return PMPI_Scatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root,
                         comm);
  }
  const int members = size_of(comm);
  const int me = rank_in(comm);
  Plan plan;
  const Blocks blocks{sendcounts, displs, members};
  const std::size_t* counts = counts_from_root(
      plan, members, root, at_root ? block_bytes(blocks, sendtype) : std::vector<std::size_t>{});
  std::byte* send = at_root ? send_blocks(plan, sendbuf, blocks, sendtype, comm) : nullptr;
  std::byte* recv = nullptr;
  if (!in_place) recv = recv_bytes(plan, recvbuf, recvcount, recvtype);
  plan.add_built([=] {
    detail::Call c = byte_call(CollKind::scatterv, root);
    c.counts.assign(counts, counts + members);
    const auto [offset, total] = offset_and_total(c.counts, me);
    c.send = send;
    c.send_elems = at_root ? total : 0;
    c.recv = in_place ? send + offset : recv;
    c.recv_elems = c.counts[static_cast<std::size_t>(me)];
    usage(which).bytes += at_root ? total : c.recv_elems;
    return c;
  });
  return run_plan(which, comm, *entry, std::move(plan), nullptr);
}

int gatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
            const int* recvcounts, const int* displs, MPI_Datatype recvtype, int root,
            MPI_Comm comm) {
  const MpiCall which = MpiCall::Gatherv;
  const InsideWrapper inside;
  const Timed timed(which);
  const bool at_root = rank_in(comm) == root;
  const bool in_place = at_root && sendbuf == MPI_IN_PLACE;
  auto entry =
      admit(which, comm, {in_place ? 0 : sendcount}, {at_root ? recvtype : sendtype}, root);
  if (entry == nullptr) {
    return PMPI_Gatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root,
                        comm);
  }
  const int members = size_of(comm);
  const int me = rank_in(comm);
  Plan plan;
  const Blocks blocks{recvcounts, displs, members};
  const std::size_t* counts = counts_from_root(
      plan, members, root, at_root ? block_bytes(blocks, recvtype) : std::vector<std::size_t>{});
  std::byte* recv = at_root ? recv_blocks(plan, recvbuf, blocks, recvtype) : nullptr;
  std::byte* send = nullptr;
  if (in_place) {  // the root's own block is in the user's buffer: put it among the packed ones
    if (recv != recvbuf) pack_block_into(recv, recvbuf, blocks, me, recvtype, comm);
  } else {
    send = send_bytes(plan, sendbuf, sendcount, sendtype, comm);
  }
  plan.add_built([=] {
    detail::Call c = byte_call(CollKind::gatherv, root);
    c.counts.assign(counts, counts + members);
    const auto [offset, total] = offset_and_total(c.counts, me);
    c.send = in_place ? recv + offset : send;
    c.send_elems = c.counts[static_cast<std::size_t>(me)];
    c.recv = recv;
    c.recv_elems = at_root ? total : 0;
    usage(which).bytes += at_root ? total : c.send_elems;
    return c;
  });
  return run_plan(which, comm, *entry, std::move(plan), nullptr);
}

}  // namespace

}  // namespace ccl::drop_in

using namespace ccl::drop_in;

extern "C" {

int MPI_Bcast(void* b, int n, MPI_Datatype t, int root, MPI_Comm c) {
  if (passing_through()) return PMPI_Bcast(b, n, t, root, c);
  return bcast(MpiCall::Bcast, b, n, t, root, c, nullptr);
}
int MPI_Ibcast(void* b, int n, MPI_Datatype t, int root, MPI_Comm c, MPI_Request* q) {
  if (passing_through()) return PMPI_Ibcast(b, n, t, root, c, q);
  return bcast(MpiCall::Ibcast, b, n, t, root, c, q);
}
int MPI_Scatter(const void* s, int sn, MPI_Datatype st, void* r, int rn, MPI_Datatype rt, int root,
                MPI_Comm c) {
  if (passing_through()) return PMPI_Scatter(s, sn, st, r, rn, rt, root, c);
  return scatter(MpiCall::Scatter, s, sn, st, r, rn, rt, root, c, nullptr);
}
int MPI_Iscatter(const void* s, int sn, MPI_Datatype st, void* r, int rn, MPI_Datatype rt, int root,
                 MPI_Comm c, MPI_Request* q) {
  if (passing_through()) return PMPI_Iscatter(s, sn, st, r, rn, rt, root, c, q);
  return scatter(MpiCall::Iscatter, s, sn, st, r, rn, rt, root, c, q);
}
int MPI_Gather(const void* s, int sn, MPI_Datatype st, void* r, int rn, MPI_Datatype rt, int root,
               MPI_Comm c) {
  if (passing_through()) return PMPI_Gather(s, sn, st, r, rn, rt, root, c);
  return gather(MpiCall::Gather, s, sn, st, r, rn, rt, root, c, nullptr);
}
int MPI_Igather(const void* s, int sn, MPI_Datatype st, void* r, int rn, MPI_Datatype rt, int root,
                MPI_Comm c, MPI_Request* q) {
  if (passing_through()) return PMPI_Igather(s, sn, st, r, rn, rt, root, c, q);
  return gather(MpiCall::Igather, s, sn, st, r, rn, rt, root, c, q);
}
int MPI_Scatterv(const void* s, const int sn[], const int sd[], MPI_Datatype st, void* r, int rn,
                 MPI_Datatype rt, int root, MPI_Comm c) {
  if (passing_through()) return PMPI_Scatterv(s, sn, sd, st, r, rn, rt, root, c);
  return scatterv(s, sn, sd, st, r, rn, rt, root, c);
}
int MPI_Iscatterv(const void* s, const int sn[], const int sd[], MPI_Datatype st, void* r, int rn,
                  MPI_Datatype rt, int root, MPI_Comm c, MPI_Request* q) {
  if (!passing_through())
    count_fallback(MpiCall::Iscatterv, "counts known only at the root: two ccl calls");
  return PMPI_Iscatterv(s, sn, sd, st, r, rn, rt, root, c, q);
}
int MPI_Gatherv(const void* s, int sn, MPI_Datatype st, void* r, const int rn[], const int rd[],
                MPI_Datatype rt, int root, MPI_Comm c) {
  if (passing_through()) return PMPI_Gatherv(s, sn, st, r, rn, rd, rt, root, c);
  return gatherv(s, sn, st, r, rn, rd, rt, root, c);
}
int MPI_Igatherv(const void* s, int sn, MPI_Datatype st, void* r, const int rn[], const int rd[],
                 MPI_Datatype rt, int root, MPI_Comm c, MPI_Request* q) {
  if (!passing_through())
    count_fallback(MpiCall::Igatherv, "counts known only at the root: two ccl calls");
  return PMPI_Igatherv(s, sn, st, r, rn, rd, rt, root, c, q);
}

// Persistent forms (MPI-4; MPIX_ in Open MPI 4.1): each round is the nonblocking call on the
// bound arguments (persistent.hpp). The v-forms' rounds are MPI's, as their nonblocking forms.
int MPI_Bcast_init(void* b, int n, MPI_Datatype t, int root, MPI_Comm c, MPI_Info, MPI_Request* q) {
  Binder binder(c);
  t = binder.keep(t);
  return binder.bind(
      MpiCall::Bcast_init,
      [=](MPI_Request* round) { return bcast(MpiCall::Bcast_init, b, n, t, root, c, round); }, q);
}
int MPI_Scatter_init(const void* s, int sn, MPI_Datatype st, void* r, int rn, MPI_Datatype rt,
                     int root, MPI_Comm c, MPI_Info, MPI_Request* q) {
  Binder binder(c);
  st = binder.keep(st);
  rt = binder.keep(rt);
  return binder.bind(
      MpiCall::Scatter_init,
      [=](MPI_Request* round) {
        return scatter(MpiCall::Scatter_init, s, sn, st, r, rn, rt, root, c, round);
      },
      q);
}
int MPI_Gather_init(const void* s, int sn, MPI_Datatype st, void* r, int rn, MPI_Datatype rt,
                    int root, MPI_Comm c, MPI_Info, MPI_Request* q) {
  Binder binder(c);
  st = binder.keep(st);
  rt = binder.keep(rt);
  return binder.bind(
      MpiCall::Gather_init,
      [=](MPI_Request* round) {
        return gather(MpiCall::Gather_init, s, sn, st, r, rn, rt, root, c, round);
      },
      q);
}
int MPI_Scatterv_init(const void* s, const int sn[], const int sd[], MPI_Datatype st, void* r,
                      int rn, MPI_Datatype rt, int root, MPI_Comm c, MPI_Info, MPI_Request* q) {
  Binder binder(c);
  st = binder.keep(st);
  rt = binder.keep(rt);
  // The counts matter at the root only (elsewhere they may be null).
  const int members = rank_in(c) == root ? size_of(c) : 0;
  std::vector<int> counts(sn, sn + members), displs(sd, sd + members);
  return binder.bind(
      MpiCall::Scatterv_init,
      [=](MPI_Request* round) {
        count_fallback(MpiCall::Scatterv_init, "counts known only at the root: two ccl calls");
        return PMPI_Iscatterv(s, counts.data(), displs.data(), st, r, rn, rt, root, c, round);
      },
      q);
}
int MPI_Gatherv_init(const void* s, int sn, MPI_Datatype st, void* r, const int rn[],
                     const int rd[], MPI_Datatype rt, int root, MPI_Comm c, MPI_Info,
                     MPI_Request* q) {
  Binder binder(c);
  st = binder.keep(st);
  rt = binder.keep(rt);
  const int members = rank_in(c) == root ? size_of(c) : 0;
  std::vector<int> counts(rn, rn + members), displs(rd, rd + members);
  return binder.bind(
      MpiCall::Gatherv_init,
      [=](MPI_Request* round) {
        count_fallback(MpiCall::Gatherv_init, "counts known only at the root: two ccl calls");
        return PMPI_Igatherv(s, sn, st, r, counts.data(), displs.data(), rt, root, c, round);
      },
      q);
}

int MPIX_Bcast_init(void* b, int n, MPI_Datatype t, int root, MPI_Comm c, MPI_Info i,
                    MPI_Request* q) {
  return MPI_Bcast_init(b, n, t, root, c, i, q);
}
int MPIX_Scatter_init(const void* s, int sn, MPI_Datatype st, void* r, int rn, MPI_Datatype rt,
                      int root, MPI_Comm c, MPI_Info i, MPI_Request* q) {
  return MPI_Scatter_init(s, sn, st, r, rn, rt, root, c, i, q);
}
int MPIX_Gather_init(const void* s, int sn, MPI_Datatype st, void* r, int rn, MPI_Datatype rt,
                     int root, MPI_Comm c, MPI_Info i, MPI_Request* q) {
  return MPI_Gather_init(s, sn, st, r, rn, rt, root, c, i, q);
}
int MPIX_Scatterv_init(const void* s, const int sn[], const int sd[], MPI_Datatype st, void* r,
                       int rn, MPI_Datatype rt, int root, MPI_Comm c, MPI_Info i, MPI_Request* q) {
  return MPI_Scatterv_init(s, sn, sd, st, r, rn, rt, root, c, i, q);
}
int MPIX_Gatherv_init(const void* s, int sn, MPI_Datatype st, void* r, const int rn[],
                      const int rd[], MPI_Datatype rt, int root, MPI_Comm c, MPI_Info i,
                      MPI_Request* q) {
  return MPI_Gatherv_init(s, sn, st, r, rn, rd, rt, root, c, i, q);
}

}  // extern "C"
