// A collective ccl refuses, on a communicator whose errors return: an allgather whose send
// buffer overlaps its receive buffer without being the member's own block (not MPI_IN_PLACE).
// Every rank must get an error code back (the drop-in calls the communicator's error handler,
// MPI_ERRORS_RETURN here, and returns what it reported), and the communicator must still work
// after. Each rank checks its own result and exits non-zero on its own. Run with the drop-in
// only: plain MPI need not detect the overlap.
#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

void require(bool ok, int rank, const char* what) {
  if (ok) return;
  std::fprintf(stderr, "errors_returned: rank %d: FAILED: %s\n", rank, what);
  std::exit(1);
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm comm;
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
  int rank = 0, size = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  std::vector<int> buf(2 * static_cast<std::size_t>(size) + 1, 0);
  const int rc = MPI_Allgather(buf.data() + 1, 2, MPI_INT, buf.data(), 2, MPI_INT, comm);
  require(rc != MPI_SUCCESS, rank, "an allgather with overlapping buffers returned MPI_SUCCESS");
  int eclass = MPI_SUCCESS;
  MPI_Error_class(rc, &eclass);
  require(eclass == MPI_ERR_OTHER, rank, "its error class is not MPI_ERR_OTHER");
  int one = 1, total = 0;
  require(MPI_Allreduce(&one, &total, 1, MPI_INT, MPI_SUM, comm) == MPI_SUCCESS && total == size,
          rank, "the communicator no longer works after the refused call");
  MPI_Comm_free(&comm);
  if (rank == 0) std::printf("errors_returned: %d ranks, every rank got the error back\n", size);
  MPI_Finalize();
  return 0;
}
