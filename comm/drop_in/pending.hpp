// Nonblocking collectives run on ccl. The user holds a generalized request (MPI_Grequest_start),
// a real MPI handle that can sit in MPI_Waitall beside point-to-point requests; the wrappers of
// MPI_Wait, MPI_Test and their kin drive the ccl collective behind it and mark the generalized
// request complete when it is, before MPI itself looks at it.
#pragma once

#include <mpi.h>

#include <exception>
#include <memory>

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

  void start();    // the group is formed and every collective queued before this one started
  bool advance();  // never blocks; true once complete
  void fail(const std::exception& e);
  void mark_complete();
};

// Start (or queue, while the communicator's group forms) a single-call plan; returns the
// handle for the user.
MPI_Request begin_nonblocking(MpiCall which, std::shared_ptr<CommEntry> entry,
                              std::unique_ptr<Plan> plan);
// The collective behind a handle, or null for any other request.
Pending* pending_of(MPI_Request handle);
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
