// One ccl group per MPI communicator, made at the communicator's first collective and cached on
// it as an attribute; freeing the communicator (or MPI_Finalize) releases the group. Forming
// the group is itself nonblocking (ccl::GroupFormation): a nonblocking collective called before
// it is formed waits in the entry's queue and starts, in call order, once it is.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <deque>
#include <memory>
#include <optional>

#include "ccl/communicator.hpp"
#include "ccl/group.hpp"

namespace ccl::drop_in {

struct Pending;

class CommEntry {
 public:
  explicit CommEntry(MPI_Comm comm);
  MPI_Comm comm() const { return comm_; }
  int size() const { return size_; }  // the communicator's
  int rank() const { return rank_; }  // this process's in it
  // Advance the formation without blocking; once formed, start the queued collectives. True
  // when formed.
  bool advance();
  // The group, formed (progressing everything else meanwhile) and with the queue started.
  const Group& group();
  // A nonblocking collective to start once the group is formed and the ones before it started.
  void enqueue(Pending* p) { queue_.push_back(p); }
  bool ready() const { return formation_ == nullptr && queue_.empty(); }
  // The group once advance() returned true.
  const Group& formed_group() const { return group_; }
  // The number of the next persistent collective bound on the communicator (persistent.hpp).
  std::uint64_t take_binding() { return bindings_++; }

 private:
  MPI_Comm comm_;
  int size_ = 0;
  int rank_ = 0;
  std::unique_ptr<GroupFormation> formation_;
  Group group_;
  std::deque<Pending*> queue_;
  std::uint64_t bindings_ = 0;
};

// The entry of a communicator, made (and its formation started) on first use: the holder in the
// communicator's attribute, valid until the communicator is freed (a nonblocking collective
// copies it to keep the group). Null when the drop-in cannot run collectives on it, with the
// reason in *why_not. A pointer, not a copy: a copy's atomic count, up and down, cost a call of
// 8 B 15-30 ns.
using EntryRef = const std::shared_ptr<CommEntry>*;
EntryRef entry_of(MPI_Comm comm, const char** why_not);
// The entry of the communicator entry_of() found last, if `comm` is it, else null: programs call
// collectives on one or two communicators over and over, and looking the attribute up (a hash
// table in Open MPI) and checking the communicator again cost a call of 8 B 30-50 ns.
// (Inline, on globals: every collective asks first.)
[[gnu::visibility("hidden")]] extern MPI_Comm last_entry_comm;
[[gnu::visibility("hidden")]] extern std::shared_ptr<CommEntry>* last_entry_holder;
inline EntryRef last_entry(MPI_Comm comm) {
  return last_entry_holder != nullptr && comm == last_entry_comm ? last_entry_holder : nullptr;
}
// Advance the entries whose group is still forming; true while any is.
bool advance_entries();
// At MPI_Finalize: release every group.
void release_entries();

}  // namespace ccl::drop_in
