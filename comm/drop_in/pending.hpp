// Nonblocking collectives run on ccl. The user holds a generalized request (MPI_Grequest_start),
// a real MPI handle that can sit in MPI_Waitall beside point-to-point requests; the wrappers of
// MPI_Wait, MPI_Test and their kin drive the ccl collective behind it and mark the generalized
// request complete when it is, before MPI itself looks at it. A round of a persistent collective
// (persistent.hpp) is kept the same way under the user's persistent handle, and completes it
// with a message instead; its collective runs on ccl, or on MPI when the drop-in hands it over.
#pragma once

#include <mpi.h>

#include <exception>
#include <memory>
#include <optional>

#include "ccl/request.hpp"
#include "comm_entry.hpp"
#include "plan.hpp"
#include "usage_report.hpp"

namespace ccl::drop_in {

struct Pending {
  MPI_Request handle = MPI_REQUEST_NULL;
  MpiCall which{};
  std::shared_ptr<CommEntry> entry;  // keeps the group alive if the communicator is freed
  std::unique_ptr<Plan> plan;
  Request running;
  CollKind kind{};
  bool started = false;
  bool complete = false;
  int round_tag = -1;                     // a persistent round's (completes the user's handle)
  std::optional<std::uint64_t> binding;   // a persistent round's binding number (start_bound)
  MPI_Request on_mpi = MPI_REQUEST_NULL;  // a persistent round MPI runs itself

  void start();    // the group is formed and every collective queued before this one started
  bool advance();  // never blocks; true once complete
  void fail(const std::exception& e);
  void mark_complete();
};

// Start (or queue, while the communicator's group forms) a single-call plan; returns the
// handle for the user.
MPI_Request begin_nonblocking(MpiCall which, std::shared_ptr<CommEntry> entry,
                              std::unique_ptr<Plan> plan);
// While alive, the plan a nonblocking wrapper starts becomes the round of this persistent handle
// instead of a generalized request (begin_nonblocking then returns MPI_REQUEST_NULL).
class RoundScope {
 public:
  // `binding`: the persistent call's number on its communicator's entry, if it has one.
  RoundScope(MPI_Request handle, int tag, std::optional<std::uint64_t> binding);
  ~RoundScope();
  RoundScope(const RoundScope&) = delete;
  RoundScope& operator=(const RoundScope&) = delete;
  bool taken() const { return taken_; }

 private:
  friend MPI_Request begin_nonblocking(MpiCall, std::shared_ptr<CommEntry>, std::unique_ptr<Plan>);
  MPI_Request handle_;
  int tag_;
  std::optional<std::uint64_t> binding_;
  bool taken_ = false;
};
// A persistent round whose collective MPI runs (request `inner`), under the user's handle.
void begin_round_on_mpi(MpiCall which, MPI_Request handle, int tag, MPI_Request inner);
// Forget a persistent handle's last round (its handle is being freed); it must be complete.
void forget_round(MPI_Request handle);

// The collective behind a handle, or null for any other request.
Pending* pending_of(MPI_Request handle);
// Whether any collective is unfinished.
bool any_pending();
// One sweep over everything in flight: forming groups, queued and running collectives. True
// while any of them is still unfinished.
bool advance_everything();
// Drive one to completion (progressing everything else while it waits).
void complete(Pending& p);
// Record the ccl algorithm of the call of this kind that just completed.
void note_algorithm(MpiCall which, CollKind kind);
// Report a failed ccl collective (a develop-mode mismatch, a bad argument) and hand it to the
// communicator's error handler; returns what the handler returns.
int report_failure(MpiCall which, MPI_Comm comm, const std::exception& e);

}  // namespace ccl::drop_in
