// MPI_Wait, MPI_Test and their kin. While nonblocking collectives run on ccl, every one of these
// calls progresses all of them, whichever requests it was given: MPI's progress rule, which a
// program relies on when it polls a point-to-point request that a peer answers only after a
// collective completed. Waits drive the collectives among their requests to completion and
// poll the rest while other collectives are unfinished; tests make one sweep. The collectives'
// generalized requests are marked complete before MPI itself looks at them. With no collective
// in flight these are plain pass-throughs. MPI_Start and MPI_Startall start the rounds of
// persistent collectives.
#include <sched.h>

#include <vector>

#include "pass_through.hpp"
#include "pending.hpp"
#include "persistent.hpp"

using namespace ccl::drop_in;

namespace {

void complete_collectives_in(int n, const MPI_Request* requests) {
  for (int i = 0; i < n; ++i) {
    if (Pending* p = pending_of(requests[i])) complete(*p);
  }
}

bool plain() {
  return passing_through() || !any_pending();
}

// Poll `test` (a PMPI_Test* call, setting its flag when what it tests completed), progressing
// every collective in between, until it succeeds; once no collective is unfinished, hand the
// wait to MPI (`wait`), which may block.
template <class Test, class Wait>
int wait_polling(Test test, Wait wait) {
  for (unsigned idle = 1;; ++idle) {
    if (!advance_everything()) return wait();
    int flag = 0;
    const int rc = test(&flag);
    if (rc != MPI_SUCCESS || flag) return rc;
    if (idle % 64 == 0) sched_yield();  // ranks may outnumber cores
  }
}

}  // namespace

extern "C" {

int MPI_Wait(MPI_Request* request, MPI_Status* status) {
  if (plain()) return PMPI_Wait(request, status);
  const InsideWrapper inside;
  complete_collectives_in(1, request);
  return wait_polling([&](int* flag) { return PMPI_Test(request, flag, status); },
                      [&] { return PMPI_Wait(request, status); });
}

int MPI_Test(MPI_Request* request, int* flag, MPI_Status* status) {
  if (plain()) return PMPI_Test(request, flag, status);
  const InsideWrapper inside;
  advance_everything();
  return PMPI_Test(request, flag, status);
}

int MPI_Waitall(int n, MPI_Request requests[], MPI_Status statuses[]) {
  if (plain()) return PMPI_Waitall(n, requests, statuses);
  const InsideWrapper inside;
  complete_collectives_in(n, requests);
  return wait_polling([&](int* flag) { return PMPI_Testall(n, requests, flag, statuses); },
                      [&] { return PMPI_Waitall(n, requests, statuses); });
}

int MPI_Testall(int n, MPI_Request requests[], int* flag, MPI_Status statuses[]) {
  if (plain()) return PMPI_Testall(n, requests, flag, statuses);
  const InsideWrapper inside;
  advance_everything();
  return PMPI_Testall(n, requests, flag, statuses);
}

int MPI_Waitany(int n, MPI_Request requests[], int* index, MPI_Status* status) {
  if (plain()) return PMPI_Waitany(n, requests, index, status);
  const InsideWrapper inside;
  return wait_polling([&](int* flag) { return PMPI_Testany(n, requests, index, flag, status); },
                      [&] { return PMPI_Waitany(n, requests, index, status); });
}

int MPI_Testany(int n, MPI_Request requests[], int* index, int* flag, MPI_Status* status) {
  if (plain()) return PMPI_Testany(n, requests, index, flag, status);
  const InsideWrapper inside;
  advance_everything();
  return PMPI_Testany(n, requests, index, flag, status);
}

int MPI_Waitsome(int n, MPI_Request requests[], int* outcount, int indices[],
                 MPI_Status statuses[]) {
  if (plain()) return PMPI_Waitsome(n, requests, outcount, indices, statuses);
  const InsideWrapper inside;
  // Testsome reports MPI_UNDEFINED (no active request) as done, like Waitsome would.
  return wait_polling(
      [&](int* flag) {
        const int rc = PMPI_Testsome(n, requests, outcount, indices, statuses);
        *flag = *outcount != 0;
        return rc;
      },
      [&] { return PMPI_Waitsome(n, requests, outcount, indices, statuses); });
}

int MPI_Testsome(int n, MPI_Request requests[], int* outcount, int indices[],
                 MPI_Status statuses[]) {
  if (plain()) return PMPI_Testsome(n, requests, outcount, indices, statuses);
  const InsideWrapper inside;
  advance_everything();
  return PMPI_Testsome(n, requests, outcount, indices, statuses);
}

int MPI_Request_get_status(MPI_Request request, int* flag, MPI_Status* status) {
  if (plain()) return PMPI_Request_get_status(request, flag, status);
  const InsideWrapper inside;
  advance_everything();
  return PMPI_Request_get_status(request, flag, status);
}

// Freeing an active collective's request is erroneous in MPI; complete it rather than leave it
// unfinished. A persistent collective's handle takes its binding with it.
int MPI_Request_free(MPI_Request* request) {
  if (!passing_through() && request != nullptr && is_bound(*request)) return free_bound(request);
  if (plain()) return PMPI_Request_free(request);
  const InsideWrapper inside;
  complete_collectives_in(1, request);
  return PMPI_Request_free(request);
}

// Persistent collectives start their rounds here (persistent.hpp); any other request is MPI's.
int MPI_Start(MPI_Request* request) {
  if (passing_through() || request == nullptr || !is_bound(*request)) return PMPI_Start(request);
  return start_round(request);
}

int MPI_Startall(int n, MPI_Request requests[]) {
  if (passing_through()) return PMPI_Startall(n, requests);
  int rc = MPI_SUCCESS;
  for (int i = 0; i < n && rc == MPI_SUCCESS; ++i) {
    rc = is_bound(requests[i]) ? start_round(&requests[i]) : PMPI_Start(&requests[i]);
  }
  return rc;
}

}  // extern "C"
