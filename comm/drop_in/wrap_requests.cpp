// MPI_Wait, MPI_Test and their kin: before MPI looks at the requests, the nonblocking
// collectives among them are driven (to completion for the waits, one sweep for the tests) and
// their generalized requests marked complete. Without such requests these are plain
// pass-throughs.
#include <vector>

#include "pass_through.hpp"
#include "pending.hpp"

using namespace ccl::drop_in;

namespace {

// The collectives among `requests`.
std::vector<Pending*> collectives_in(int n, const MPI_Request* requests) {
  std::vector<Pending*> out;
  for (int i = 0; i < n; ++i) {
    if (Pending* p = pending_of(requests[i])) out.push_back(p);
  }
  return out;
}

bool advance_each(const std::vector<Pending*>& ps) {
  bool any_complete = false;
  for (Pending* p : ps) any_complete = p->advance() || any_complete;
  return any_complete;
}

bool plain(int n, const MPI_Request* requests) {
  return passing_through() || !any_pending() || collectives_in(n, requests).empty();
}

}  // namespace

extern "C" {

int MPI_Wait(MPI_Request* request, MPI_Status* status) {
  if (plain(1, request)) return PMPI_Wait(request, status);
  const InsideWrapper inside;
  complete(*pending_of(*request));
  return PMPI_Wait(request, status);
}

int MPI_Test(MPI_Request* request, int* flag, MPI_Status* status) {
  if (plain(1, request)) return PMPI_Test(request, flag, status);
  const InsideWrapper inside;
  pending_of(*request)->advance();
  return PMPI_Test(request, flag, status);
}

int MPI_Waitall(int n, MPI_Request requests[], MPI_Status statuses[]) {
  if (plain(n, requests)) return PMPI_Waitall(n, requests, statuses);
  const InsideWrapper inside;
  for (Pending* p : collectives_in(n, requests)) complete(*p);
  return PMPI_Waitall(n, requests, statuses);
}

int MPI_Testall(int n, MPI_Request requests[], int* flag, MPI_Status statuses[]) {
  if (plain(n, requests)) return PMPI_Testall(n, requests, flag, statuses);
  const InsideWrapper inside;
  advance_each(collectives_in(n, requests));
  return PMPI_Testall(n, requests, flag, statuses);
}

int MPI_Waitany(int n, MPI_Request requests[], int* index, MPI_Status* status) {
  if (plain(n, requests)) return PMPI_Waitany(n, requests, index, status);
  const InsideWrapper inside;
  const std::vector<Pending*> ps = collectives_in(n, requests);
  for (;;) {
    if (advance_each(ps)) return PMPI_Waitany(n, requests, index, status);
    int flag = 0;
    const int rc = PMPI_Testany(n, requests, index, &flag, status);
    if (rc != MPI_SUCCESS || flag) return rc;
    advance_everything();
  }
}

int MPI_Testany(int n, MPI_Request requests[], int* index, int* flag, MPI_Status* status) {
  if (plain(n, requests)) return PMPI_Testany(n, requests, index, flag, status);
  const InsideWrapper inside;
  advance_each(collectives_in(n, requests));
  return PMPI_Testany(n, requests, index, flag, status);
}

int MPI_Waitsome(int n, MPI_Request requests[], int* outcount, int indices[],
                 MPI_Status statuses[]) {
  if (plain(n, requests)) return PMPI_Waitsome(n, requests, outcount, indices, statuses);
  const InsideWrapper inside;
  const std::vector<Pending*> ps = collectives_in(n, requests);
  for (;;) {
    if (advance_each(ps)) return PMPI_Waitsome(n, requests, outcount, indices, statuses);
    const int rc = PMPI_Testsome(n, requests, outcount, indices, statuses);
    if (rc != MPI_SUCCESS || *outcount != 0) return rc;
    advance_everything();
  }
}

int MPI_Testsome(int n, MPI_Request requests[], int* outcount, int indices[],
                 MPI_Status statuses[]) {
  if (plain(n, requests)) return PMPI_Testsome(n, requests, outcount, indices, statuses);
  const InsideWrapper inside;
  advance_each(collectives_in(n, requests));
  return PMPI_Testsome(n, requests, outcount, indices, statuses);
}

int MPI_Request_get_status(MPI_Request request, int* flag, MPI_Status* status) {
  if (plain(1, &request)) return PMPI_Request_get_status(request, flag, status);
  const InsideWrapper inside;
  pending_of(request)->advance();
  return PMPI_Request_get_status(request, flag, status);
}

// Freeing an active collective's request is erroneous in MPI; complete it rather than leave it
// unfinished.
int MPI_Request_free(MPI_Request* request) {
  if (plain(1, request)) return PMPI_Request_free(request);
  const InsideWrapper inside;
  complete(*pending_of(*request));
  return PMPI_Request_free(request);
}

}  // extern "C"
