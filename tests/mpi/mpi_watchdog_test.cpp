// A rank that skips a collective: the others must not hang silently. Every rank runs a mix of
// collectives on the world and on a partition, then the last rank skips a reduce and leaves
// (MPI_Finalize, where it waits for the others). Run with CCL_TIMEOUT set, the ranks stuck in the
// reduce must print the watchdog's report and the job end with kHangExitCode
// (tests/mpi/expect_hang_report.sh checks both and the time it took).
//
//   mpi_watchdog_test [--nonblocking]   the reduce is waited on among other requests in flight
#include <cstdio>
#include <string>
#include <vector>

#include "ccl/ccl.hpp"

int main(int argc, char** argv) {
  ccl::Environment env(argc, argv);
  const bool nonblocking = argc > 1 && std::string(argv[1]) == "--nonblocking";
  const ccl::Group world = ccl::world();
  const int rank = world.rank(), size = world.size();
  const ccl::Group pairs = ccl::partition(world, rank / 2, rank, "pairs");
  std::vector<double> v(100, rank), out(100);
  for (int i = 0; i < 20; ++i) {
    ccl::bcast(world, v, i % size);
    ccl::combine(pairs, v, out, ccl::sum);
  }
  if (rank == size - 1) {
    std::printf("rank %d: skipping the reduce\n", rank);
    return 0;
  }
  if (nonblocking) {
    std::vector<double> pair_out(100);
    ccl::Request others = ccl::icombine(pairs, v, pair_out, ccl::sum);
    ccl::Request reduce = ccl::ireduce(world, v, out, ccl::sum, 0);
    reduce.wait();
    others.wait();
  } else {
    ccl::reduce(world, v, out, ccl::sum, 0);
  }
  // Ranks outside the skipped rank's subtree may finish the reduce; they then wait in
  // MPI_Finalize until the watchdog of a rank stuck in the reduce ends the job.
  return 0;
}
