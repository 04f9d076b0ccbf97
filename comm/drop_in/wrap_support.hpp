// What every collective wrapper does: decide between ccl and MPI, build the buffers ccl moves,
// run the plan blocking or start it nonblocking, and count it all.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <initializer_list>
#include <memory>
#include <optional>
#include <vector>

#include "ccl/call.hpp"
#include "comm_entry.hpp"
#include "datatype_layout.hpp"
#include "drop_in_state.hpp"
#include "plan.hpp"
#include "usage_report.hpp"

namespace ccl::drop_in {

// The communicator's entry when the collective can run on ccl; else null, the reason counted.
// Called with the arguments already checked.
EntryRef route(MpiCall which, MPI_Comm comm);
// The communicator as the checks found it: an intracommunicator MPI accepts, of `size` members.
// `known`: its entry when it is the last call's communicator (which has one, so no MPI call was
// made to check it), else null and still to be looked up (route()).
struct CheckedComm {
  EntryRef known;
  int size;
};
// Nullopt, the reason counted, when the call must go to MPI.
std::optional<CheckedComm> check_communicator(MpiCall which, MPI_Comm comm);
// The checks before route(): an intracommunicator, counts not negative, datatypes not null and
// (for rooted collectives) a root in range; anything else is counted and left to MPI (null).
EntryRef admit_slow(MpiCall which, MPI_Comm comm, std::initializer_list<int> counts,
                    std::initializer_list<MPI_Datatype> types, std::optional<int> root);
// The argument checks of both: counts not negative, datatypes not null, a root in range.
inline bool arguments_in_range(std::initializer_list<int> counts,
                               std::initializer_list<MPI_Datatype> types, std::optional<int> root,
                               int size) {
  bool good = !root || (*root >= 0 && *root < size);
  for (int n : counts) good = good && n >= 0;
  for (MPI_Datatype t : types) good = good && t != MPI_DATATYPE_NULL;
  return good;
}
// Inline for the usual call, on the last call's communicator with its arguments in range, which
// needs no call out of line: the checks out of line cost a small MPI_Bcast 100 instructions.
inline EntryRef admit(MpiCall which, MPI_Comm comm, std::initializer_list<int> counts,
                      std::initializer_list<MPI_Datatype> types,
                      std::optional<int> root = std::nullopt) {
  if (const EntryRef known = drop_in_state().active ? last_entry(comm) : nullptr) {
    if (arguments_in_range(counts, types, root, (*known)->size())) return known;
  }
  return admit_slow(which, comm, counts, types, root);
}
// Count a call handed to MPI, with its reason.
void count_fallback(MpiCall which, const char* why);

// Run a plan: blocking when request is null, else start it and set *request.
int run_plan(MpiCall which, MPI_Comm comm, const std::shared_ptr<CommEntry>& entry, Plan&& plan,
             MPI_Request* request);
// Run one call, blocking, when that is the whole collective (contiguous data, nothing to unpack
// or reduce after it): no plan. A plan, whose call is moved in and out of it, cost a
// zero-byte MPI_Bcast on 2 ranks a third of its 0.25 us.
int run_call(MpiCall which, MPI_Comm comm, CommEntry& entry, detail::Call&& call);
// A collective of one call: run_call when it is blocking and its plan holds nothing (no
// temporary, nothing to do after, no datatype kept), else the call added to the plan and run.
// A plan cost a small reduce on 2 ranks a fifth of its instructions (1,533 -> 1,255).
int run_single(MpiCall which, MPI_Comm comm, const std::shared_ptr<CommEntry>& entry, Plan&& plan,
               detail::Call&& call, MPI_Request* request);
// A blocking collective that moves no bytes on any member (its type signature says so on every
// one) returns at once, as MPI allows, once its arguments passed the checks; not in develop mode,
// whose checks still run, nor in barrier mode, where it is a barrier (as ccl itself decides).
// Counted as run on ccl. A zero-byte MPI_Bcast on 2 ranks took 0.16 us through the drop-in
// without this, against Open MPI's 0.005.
bool returns_at_once(MpiCall which, MPI_Request* request, std::size_t bytes);

// A ccl call moving raw bytes (elements of one byte, the reductions' set by their caller).
// Inline: built in place in its caller, whose fields it sets next.
inline detail::Call byte_call(CollKind kind, int root = 0) {
  detail::Call c;
  c.kind = kind;
  c.root = root;
  return c;
}

// The packed bytes of `count` elements of `type` at `buf`: the buffer itself when its layout
// is packed, else a temporary of the plan, packed now.
std::byte* send_bytes(Plan& plan, const void* buf, int count, MPI_Datatype type, MPI_Comm comm);
// Where ccl should put the packed bytes of `count` elements of `type` at `buf`: the buffer
// itself, or a temporary unpacked into it after the calls.
std::byte* recv_bytes(Plan& plan, void* buf, int count, MPI_Datatype type);

// Blocks of a v-form, in rank order: element counts and displacements (in extents).
struct Blocks {
  const int* counts;
  const int* displacements;
  int n;
};
std::vector<std::size_t> block_bytes(const Blocks& b, MPI_Datatype type);
// The same as send_bytes / recv_bytes for blocks packed one after another in rank order.
std::byte* send_blocks(Plan& plan, const void* buf, const Blocks& b, MPI_Datatype type,
                       MPI_Comm comm);
std::byte* recv_blocks(Plan& plan, void* buf, const Blocks& b, MPI_Datatype type);
// Pack the block of one rank into its place among packed blocks (an in-place member's own
// contribution when the whole receive buffer is a temporary).
void pack_block_into(std::byte* packed, const void* buf, const Blocks& b, int which,
                     MPI_Datatype type, MPI_Comm comm);

// Do two byte ranges overlap?
bool overlap(const void* a, std::size_t a_bytes, const void* b, std::size_t b_bytes);
// Bytes a buffer of count elements spans (true extent of the last element included).
std::size_t span_bytes(int count, MPI_Datatype type);

}  // namespace ccl::drop_in
