// MPI_Allgather(v), MPI_Alltoall(v) and MPI_Barrier, blocking, nonblocking and persistent, as
// ccl concat(v), index(v) and sync on packed bytes.
#include <algorithm>
#include <cstring>
#include <numeric>
#include <vector>

#include "pass_through.hpp"
#include "persistent.hpp"
#include "wrap_common.hpp"
#include "wrap_support.hpp"

namespace ccl::drop_in {

namespace {

std::vector<int> equal_blocks(int members, int count, std::vector<int>& displacements) {
  displacements.resize(static_cast<std::size_t>(members));
  for (int i = 0; i < members; ++i) displacements[static_cast<std::size_t>(i)] = i * count;
  return std::vector<int>(static_cast<std::size_t>(members), count);
}

std::size_t sum(const std::vector<std::size_t>& v) {
  return std::accumulate(v.begin(), v.end(), std::size_t{0});
}

// Allgather and allgatherv: blocks of `recv` in rank order; with MPI_IN_PLACE a member's own
// block is already in its receive buffer.
int allgather_blocks(MpiCall which, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                     void* recvbuf, const Blocks& blocks, MPI_Datatype recvtype, MPI_Comm comm,
                     const std::shared_ptr<CommEntry>& entry, bool vector_form,
                     MPI_Request* request) {
  const int me = rank_in(comm);
  Plan plan;
  const std::vector<std::size_t> bytes = block_bytes(blocks, recvtype);
  std::byte* recv = recv_blocks(plan, recvbuf, blocks, recvtype);
  const std::size_t offset = std::accumulate(bytes.begin(), bytes.begin() + me, std::size_t{0});
  detail::Call c = byte_call(vector_form ? CollKind::concatv : CollKind::concat);
  if (sendbuf == MPI_IN_PLACE) {
    if (recv != recvbuf) pack_block_into(recv, recvbuf, blocks, me, recvtype, comm);
    c.send = recv + offset;
  } else {
    c.send = send_bytes(plan, sendbuf, sendcount, sendtype, comm);
  }
  c.send_elems = bytes[static_cast<std::size_t>(me)];
  c.recv = recv;
  c.recv_elems = sum(bytes);
  if (vector_form) c.counts = bytes;
  usage(which).bytes += c.send_elems;
  return run_single(which, comm, entry, std::move(plan), std::move(c), request);
}

int allgather(MpiCall which, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
              void* recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
              MPI_Request* request) {
  const InsideWrapper inside;
  const Timed timed(which);
  const bool in_place = sendbuf == MPI_IN_PLACE;
  auto entry = admit(which, comm, {in_place ? 0 : sendcount, recvcount},
                     {in_place ? MPI_BYTE : sendtype, recvtype});
  if (entry == nullptr) {
    return request
               ? PMPI_Iallgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                                 request)
               : PMPI_Allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
  }
  const int members = size_of(comm);
  const Layout& rl = layout_of(recvtype);
  const std::size_t block = static_cast<std::size_t>(recvcount) * rl.size;
  if (returns_at_once(which, request, block)) return MPI_SUCCESS;
  if (request == nullptr && rl.packed && (in_place || layout_of(sendtype).packed)) {
    // Contiguous blocks: ccl concat on the user's buffers as they are, no plan.
    usage(which).bytes += block;
    detail::Call c = byte_call(CollKind::concat);
    c.recv = static_cast<std::byte*>(recvbuf);
    c.send = in_place ? c.recv + block * static_cast<std::size_t>(rank_in(comm))
                      : static_cast<const std::byte*>(sendbuf);
    c.send_elems = block;
    c.recv_elems = block * static_cast<std::size_t>(members);
    return run_call(which, comm, **entry, std::move(c));
  }
  std::vector<int> displacements;
  const std::vector<int> counts = equal_blocks(members, recvcount, displacements);
  return allgather_blocks(which, sendbuf, sendcount, sendtype, recvbuf,
                          Blocks{counts.data(), displacements.data(), members}, recvtype, comm,
                          *entry, false, request);
}

int allgatherv(MpiCall which, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
               void* recvbuf, const int* recvcounts, const int* displs, MPI_Datatype recvtype,
               MPI_Comm comm, MPI_Request* request) {
  const InsideWrapper inside;
  const Timed timed(which);
  const bool in_place = sendbuf == MPI_IN_PLACE;
  auto entry =
      admit(which, comm, {in_place ? 0 : sendcount}, {in_place ? MPI_BYTE : sendtype, recvtype});
  if (entry == nullptr) {
    return request ? PMPI_Iallgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                                      recvtype, comm, request)
                   : PMPI_Allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                                     recvtype, comm);
  }
  return allgather_blocks(which, sendbuf, sendcount, sendtype, recvbuf,
                          Blocks{recvcounts, displs, size_of(comm)}, recvtype, comm, *entry, true,
                          request);
}

// Alltoall and alltoallv. With MPI_IN_PLACE the data to send is taken from the receive buffer
// (receive counts, displacements and type), copied out before anything arrives.
int alltoall_blocks(MpiCall which, const void* sendbuf, const Blocks& send_blocks_in,
                    MPI_Datatype sendtype, void* recvbuf, const Blocks& recv_blocks_in,
                    MPI_Datatype recvtype, MPI_Comm comm, const std::shared_ptr<CommEntry>& entry,
                    bool vector_form, MPI_Request* request) {
  Plan plan;
  const bool in_place = sendbuf == MPI_IN_PLACE;
  const Blocks& sb = in_place ? recv_blocks_in : send_blocks_in;
  const MPI_Datatype st = in_place ? recvtype : sendtype;
  const void* from = in_place ? recvbuf : sendbuf;
  const std::vector<std::size_t> send_bytes_each = block_bytes(sb, st);
  const std::vector<std::size_t> recv_bytes_each = block_bytes(recv_blocks_in, recvtype);
  std::byte* send = nullptr;
  if (in_place) {  // a copy: the receive buffer is written while the send side is still read
    send = plan.temporary(sum(send_bytes_each));
    for (int i = 0; i < sb.n; ++i) pack_block_into(send, from, sb, i, st, comm);
  } else {
    send = send_blocks(plan, from, sb, st, comm);
  }
  detail::Call c = byte_call(vector_form ? CollKind::indexv : CollKind::index);
  c.send = send;
  c.send_elems = sum(send_bytes_each);
  c.recv = recv_blocks(plan, recvbuf, recv_blocks_in, recvtype);
  c.recv_elems = sum(recv_bytes_each);
  if (vector_form) {
    c.counts = send_bytes_each;
    c.recv_counts = recv_bytes_each;
  }
  usage(which).bytes += c.send_elems;
  return run_single(which, comm, entry, std::move(plan), std::move(c), request);
}

int alltoall(MpiCall which, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
             void* recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
             MPI_Request* request) {
  const InsideWrapper inside;
  const Timed timed(which);
  const bool in_place = sendbuf == MPI_IN_PLACE;
  auto entry = admit(which, comm, {in_place ? 0 : sendcount, recvcount},
                     {in_place ? MPI_BYTE : sendtype, recvtype});
  if (entry == nullptr) {
    return request
               ? PMPI_Ialltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                                request)
               : PMPI_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
  }
  const int members = size_of(comm);
  const Layout& rl = layout_of(recvtype);
  const std::size_t block = static_cast<std::size_t>(recvcount) * rl.size;
  if (returns_at_once(which, request, block)) return MPI_SUCCESS;
  if (request == nullptr && !in_place && rl.packed && layout_of(sendtype).packed) {
    // Contiguous blocks: ccl index on the user's buffers as they are, no plan.
    usage(which).bytes += block * static_cast<std::size_t>(members);
    detail::Call c = byte_call(CollKind::index);
    c.send = static_cast<const std::byte*>(sendbuf);
    c.recv = static_cast<std::byte*>(recvbuf);
    c.send_elems = c.recv_elems = block * static_cast<std::size_t>(members);
    return run_call(which, comm, **entry, std::move(c));
  }
  std::vector<int> sd, rd;
  const std::vector<int> sc = equal_blocks(members, sendcount, sd),
                         rc = equal_blocks(members, recvcount, rd);
  return alltoall_blocks(which, sendbuf, Blocks{sc.data(), sd.data(), members}, sendtype, recvbuf,
                         Blocks{rc.data(), rd.data(), members}, recvtype, comm, *entry, false,
                         request);
}

int alltoallv(MpiCall which, const void* sendbuf, const int* sendcounts, const int* sdispls,
              MPI_Datatype sendtype, void* recvbuf, const int* recvcounts, const int* rdispls,
              MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request) {
  const InsideWrapper inside;
  const Timed timed(which);
  const bool in_place = sendbuf == MPI_IN_PLACE;
  auto entry = admit(which, comm, {}, {in_place ? MPI_BYTE : sendtype, recvtype});
  if (entry == nullptr) {
    return request ? PMPI_Ialltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts,
                                     rdispls, recvtype, comm, request)
                   : PMPI_Alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts,
                                    rdispls, recvtype, comm);
  }
  const int members = size_of(comm);
  return alltoall_blocks(which, sendbuf, Blocks{sendcounts, sdispls, members}, sendtype, recvbuf,
                         Blocks{recvcounts, rdispls, members}, recvtype, comm, *entry, true,
                         request);
}

int barrier(MpiCall which, MPI_Comm comm, MPI_Request* request) {
  const InsideWrapper inside;
  const Timed timed(which);
  auto entry = admit(which, comm, {}, {});
  if (entry == nullptr) return request ? PMPI_Ibarrier(comm, request) : PMPI_Barrier(comm);
  if (request == nullptr) return run_call(which, comm, **entry, byte_call(CollKind::sync));
  Plan plan;
  plan.add(byte_call(CollKind::sync));
  return run_plan(which, comm, *entry, std::move(plan), request);
}

}  // namespace

}  // namespace ccl::drop_in

using namespace ccl::drop_in;

extern "C" {

int MPI_Allgather(const void* s, int sn, MPI_Datatype st, void* r, int rn, MPI_Datatype rt,
                  MPI_Comm c) {
  if (passing_through()) return PMPI_Allgather(s, sn, st, r, rn, rt, c);
  return allgather(MpiCall::Allgather, s, sn, st, r, rn, rt, c, nullptr);
}
int MPI_Iallgather(const void* s, int sn, MPI_Datatype st, void* r, int rn, MPI_Datatype rt,
                   MPI_Comm c, MPI_Request* q) {
  if (passing_through()) return PMPI_Iallgather(s, sn, st, r, rn, rt, c, q);
  return allgather(MpiCall::Iallgather, s, sn, st, r, rn, rt, c, q);
}
int MPI_Allgatherv(const void* s, int sn, MPI_Datatype st, void* r, const int rn[], const int rd[],
                   MPI_Datatype rt, MPI_Comm c) {
  if (passing_through()) return PMPI_Allgatherv(s, sn, st, r, rn, rd, rt, c);
  return allgatherv(MpiCall::Allgatherv, s, sn, st, r, rn, rd, rt, c, nullptr);
}
int MPI_Iallgatherv(const void* s, int sn, MPI_Datatype st, void* r, const int rn[], const int rd[],
                    MPI_Datatype rt, MPI_Comm c, MPI_Request* q) {
  if (passing_through()) return PMPI_Iallgatherv(s, sn, st, r, rn, rd, rt, c, q);
  return allgatherv(MpiCall::Iallgatherv, s, sn, st, r, rn, rd, rt, c, q);
}
int MPI_Alltoall(const void* s, int sn, MPI_Datatype st, void* r, int rn, MPI_Datatype rt,
                 MPI_Comm c) {
  if (passing_through()) return PMPI_Alltoall(s, sn, st, r, rn, rt, c);
  return alltoall(MpiCall::Alltoall, s, sn, st, r, rn, rt, c, nullptr);
}
int MPI_Ialltoall(const void* s, int sn, MPI_Datatype st, void* r, int rn, MPI_Datatype rt,
                  MPI_Comm c, MPI_Request* q) {
  if (passing_through()) return PMPI_Ialltoall(s, sn, st, r, rn, rt, c, q);
  return alltoall(MpiCall::Ialltoall, s, sn, st, r, rn, rt, c, q);
}
int MPI_Alltoallv(const void* s, const int sn[], const int sd[], MPI_Datatype st, void* r,
                  const int rn[], const int rd[], MPI_Datatype rt, MPI_Comm c) {
  if (passing_through()) return PMPI_Alltoallv(s, sn, sd, st, r, rn, rd, rt, c);
  return alltoallv(MpiCall::Alltoallv, s, sn, sd, st, r, rn, rd, rt, c, nullptr);
}
int MPI_Ialltoallv(const void* s, const int sn[], const int sd[], MPI_Datatype st, void* r,
                   const int rn[], const int rd[], MPI_Datatype rt, MPI_Comm c, MPI_Request* q) {
  if (passing_through()) return PMPI_Ialltoallv(s, sn, sd, st, r, rn, rd, rt, c, q);
  return alltoallv(MpiCall::Ialltoallv, s, sn, sd, st, r, rn, rd, rt, c, q);
}
int MPI_Barrier(MPI_Comm c) {
  if (passing_through()) return PMPI_Barrier(c);
  return barrier(MpiCall::Barrier, c, nullptr);
}
int MPI_Ibarrier(MPI_Comm c, MPI_Request* q) {
  if (passing_through()) return PMPI_Ibarrier(c, q);
  return barrier(MpiCall::Ibarrier, c, q);
}

// Persistent forms (MPI-4; MPIX_ in Open MPI 4.1): each round is the nonblocking call on the
// bound arguments (persistent.hpp), whose arrays the binding copies.
int MPI_Allgather_init(const void* s, int sn, MPI_Datatype st, void* r, int rn, MPI_Datatype rt,
                       MPI_Comm c, MPI_Info, MPI_Request* q) {
  Binder binder(c);
  st = binder.keep(st);
  rt = binder.keep(rt);
  return binder.bind(
      MpiCall::Allgather_init,
      [=](MPI_Request* round) {
        return allgather(MpiCall::Allgather_init, s, sn, st, r, rn, rt, c, round);
      },
      q);
}
int MPI_Allgatherv_init(const void* s, int sn, MPI_Datatype st, void* r, const int rn[],
                        const int rd[], MPI_Datatype rt, MPI_Comm c, MPI_Info, MPI_Request* q) {
  Binder binder(c);
  st = binder.keep(st);
  rt = binder.keep(rt);
  const int members = size_of(c);
  std::vector<int> counts(rn, rn + members), displs(rd, rd + members);
  return binder.bind(
      MpiCall::Allgatherv_init,
      [=](MPI_Request* round) {
        return allgatherv(MpiCall::Allgatherv_init, s, sn, st, r, counts.data(), displs.data(), rt,
                          c, round);
      },
      q);
}
int MPI_Alltoall_init(const void* s, int sn, MPI_Datatype st, void* r, int rn, MPI_Datatype rt,
                      MPI_Comm c, MPI_Info, MPI_Request* q) {
  Binder binder(c);
  st = binder.keep(st);
  rt = binder.keep(rt);
  return binder.bind(
      MpiCall::Alltoall_init,
      [=](MPI_Request* round) {
        return alltoall(MpiCall::Alltoall_init, s, sn, st, r, rn, rt, c, round);
      },
      q);
}
int MPI_Alltoallv_init(const void* s, const int sn[], const int sd[], MPI_Datatype st, void* r,
                       const int rn[], const int rd[], MPI_Datatype rt, MPI_Comm c, MPI_Info,
                       MPI_Request* q) {
  Binder binder(c);
  st = binder.keep(st);
  rt = binder.keep(rt);
  const int members = size_of(c);
  const bool in_place = s == MPI_IN_PLACE;  // the send arrays are then ignored
  std::vector<int> scounts(in_place ? 0 : members), sdispls(in_place ? 0 : members);
  if (!in_place) {
    std::copy(sn, sn + members, scounts.begin());
    std::copy(sd, sd + members, sdispls.begin());
  }
  std::vector<int> rcounts(rn, rn + members), rdispls(rd, rd + members);
  return binder.bind(
      MpiCall::Alltoallv_init,
      [=](MPI_Request* round) {
        return alltoallv(MpiCall::Alltoallv_init, s, in_place ? nullptr : scounts.data(),
                         in_place ? nullptr : sdispls.data(), st, r, rcounts.data(), rdispls.data(),
                         rt, c, round);
      },
      q);
}
int MPI_Barrier_init(MPI_Comm c, MPI_Info, MPI_Request* q) {
  Binder binder(c);
  return binder.bind(
      MpiCall::Barrier_init,
      [=](MPI_Request* round) { return barrier(MpiCall::Barrier_init, c, round); }, q);
}

int MPIX_Allgather_init(const void* s, int sn, MPI_Datatype st, void* r, int rn, MPI_Datatype rt,
                        MPI_Comm c, MPI_Info i, MPI_Request* q) {
  return MPI_Allgather_init(s, sn, st, r, rn, rt, c, i, q);
}
int MPIX_Allgatherv_init(const void* s, int sn, MPI_Datatype st, void* r, const int rn[],
                         const int rd[], MPI_Datatype rt, MPI_Comm c, MPI_Info i, MPI_Request* q) {
  return MPI_Allgatherv_init(s, sn, st, r, rn, rd, rt, c, i, q);
}
int MPIX_Alltoall_init(const void* s, int sn, MPI_Datatype st, void* r, int rn, MPI_Datatype rt,
                       MPI_Comm c, MPI_Info i, MPI_Request* q) {
  return MPI_Alltoall_init(s, sn, st, r, rn, rt, c, i, q);
}
int MPIX_Alltoallv_init(const void* s, const int sn[], const int sd[], MPI_Datatype st, void* r,
                        const int rn[], const int rd[], MPI_Datatype rt, MPI_Comm c, MPI_Info i,
                        MPI_Request* q) {
  return MPI_Alltoallv_init(s, sn, sd, st, r, rn, rd, rt, c, i, q);
}
int MPIX_Barrier_init(MPI_Comm c, MPI_Info i, MPI_Request* q) {
  return MPI_Barrier_init(c, i, q);
}

}  // extern "C"
