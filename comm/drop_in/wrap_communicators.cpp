// The communicator constructors: each new intracommunicator gets its ccl group at once, inside
// the call that made it, while no other operation can be under way on it.
//
// Why not at the communicator's first collective, as before: forming a group starts with
// MPI_Comm_idup on the communicator, and Open MPI 4.1's idup hangs when the program starts
// nonblocking collectives on the same communicator before the idup completes (its context-id
// agreement runs rounds of nonblocking allreduce started from progress callbacks, whose order
// against the program's own then differs between ranks). MPICH's nonblocking3 test hung so.
// Inside the constructor every member is in the same call, so forming there blocks on nothing
// but the members themselves. Communicators made otherwise (MPI_Comm_idup) still form on first
// use.
#include <mpi.h>

#include "comm_entry.hpp"
#include "drop_in_state.hpp"
#include "pass_through.hpp"

using namespace ccl::drop_in;

namespace {

// The constructor's result: form the new communicator's group now, where the drop-in may.
int formed(int rc, const MPI_Comm* made) {
  if (rc != MPI_SUCCESS || passing_through() || !drop_in_state().active) return rc;
  if (*made == MPI_COMM_NULL) return rc;
  const InsideWrapper inside;
  const char* why_not = nullptr;
  if (const EntryRef entry = entry_of(*made, &why_not)) (*entry)->group();
  return rc;
}

}  // namespace

extern "C" {

int MPI_Comm_dup(MPI_Comm comm, MPI_Comm* out) {
  return formed(PMPI_Comm_dup(comm, out), out);
}

int MPI_Comm_dup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm* out) {
  return formed(PMPI_Comm_dup_with_info(comm, info, out), out);
}

int MPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm* out) {
  return formed(PMPI_Comm_split(comm, color, key, out), out);
}

int MPI_Comm_split_type(MPI_Comm comm, int type, int key, MPI_Info info, MPI_Comm* out) {
  return formed(PMPI_Comm_split_type(comm, type, key, info, out), out);
}

int MPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm* out) {
  return formed(PMPI_Comm_create(comm, group, out), out);
}

int MPI_Comm_create_group(MPI_Comm comm, MPI_Group group, int tag, MPI_Comm* out) {
  return formed(PMPI_Comm_create_group(comm, group, tag, out), out);
}

int MPI_Cart_create(MPI_Comm comm, int ndims, const int dims[], const int periods[], int reorder,
                    MPI_Comm* out) {
  return formed(PMPI_Cart_create(comm, ndims, dims, periods, reorder, out), out);
}

int MPI_Cart_sub(MPI_Comm comm, const int remain_dims[], MPI_Comm* out) {
  return formed(PMPI_Cart_sub(comm, remain_dims, out), out);
}

int MPI_Graph_create(MPI_Comm comm, int nnodes, const int index[], const int edges[], int reorder,
                     MPI_Comm* out) {
  return formed(PMPI_Graph_create(comm, nnodes, index, edges, reorder, out), out);
}

int MPI_Dist_graph_create_adjacent(MPI_Comm comm, int indegree, const int sources[],
                                   const int sourceweights[], int outdegree,
                                   const int destinations[], const int destweights[], MPI_Info info,
                                   int reorder, MPI_Comm* out) {
  return formed(PMPI_Dist_graph_create_adjacent(comm, indegree, sources, sourceweights, outdegree,
                                                destinations, destweights, info, reorder, out),
                out);
}

int MPI_Dist_graph_create(MPI_Comm comm, int n, const int sources[], const int degrees[],
                          const int destinations[], const int weights[], MPI_Info info, int reorder,
                          MPI_Comm* out) {
  return formed(
      PMPI_Dist_graph_create(comm, n, sources, degrees, destinations, weights, info, reorder, out),
      out);
}

int MPI_Intercomm_merge(MPI_Comm intercomm, int high, MPI_Comm* out) {
  return formed(PMPI_Intercomm_merge(intercomm, high, out), out);
}

}  // extern "C"
