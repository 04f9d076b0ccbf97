// Shared by the collective wrappers: timing, the checks made before anything else, the rank.
#pragma once

#include <mpi.h>

#include "ccl/tick_clock.hpp"
#include "comm_entry.hpp"
#include "drop_in_state.hpp"
#include "usage_report.hpp"

namespace ccl::drop_in {

// Adds the time spent in the MPI call to its row of the report, when the report was asked for
// (CCL_MPI_REPORT=1); otherwise reading the clock twice would cost a call of 8 B 30 ns for nothing.
// ccl's tick clock: a third of the cost of MPI_Wtime, which a call of a few hundred ns notices.
struct Timed {
  explicit Timed(MpiCall which)
      : u(usage(which)), on(drop_in_state().report), t0(on ? detail::ticks() : 0) {}
  ~Timed() {
    if (on) u.ticks += detail::ticks() - t0;
  }
  Timed(const Timed&) = delete;
  Timed& operator=(const Timed&) = delete;
  Usage& u;
  bool on;
  std::uint64_t t0;
};

// Arguments MPI itself must judge go to MPI, which reports them through the communicator's
// error handler exactly as without the drop-in.
inline constexpr const char* kInvalid = "invalid arguments (MPI reports them)";

// Null when the communicator is an intracommunicator the drop-in may look at, else the reason
// for handing the call to MPI.
inline const char* communicator_problem(MPI_Comm comm) {
  if (comm == MPI_COMM_NULL) return kInvalid;
  int inter = 0;
  if (PMPI_Comm_test_inter(comm, &inter) != MPI_SUCCESS) return kInvalid;
  return inter ? "intercommunicator" : nullptr;
}

// Rank and size; -1 and 0 for MPI_COMM_NULL, which communicator_problem() then sends to MPI.
inline int rank_in(MPI_Comm comm) {
  int r = -1;
  if (comm != MPI_COMM_NULL) PMPI_Comm_rank(comm, &r);
  return r;
}
// The same, from the communicator's entry when it is the last call's (MPI_Comm_rank cost a
// small MPI_Scatter 28 instructions).
inline int rank_known(MPI_Comm comm) {
  if (const EntryRef known = last_entry(comm)) return (*known)->rank();
  return rank_in(comm);
}
inline int size_of(MPI_Comm comm) {
  int s = 0;
  if (comm != MPI_COMM_NULL) PMPI_Comm_size(comm, &s);
  return s;
}

}  // namespace ccl::drop_in
