// Two programs whose behaviour barrier mode changes (ccl/mode.hpp; the CCL paper's "Barrier
// Semantics"). Run with CCL_BARRIER=1 or 0.
//
//   barrier_mode_programs returns-early   (2+ ranks) member 0 broadcasts, then sends to member 1,
//       which receives that message before it joins the broadcast. It completes only when the
//       broadcast lets its root leave early: in barrier mode it deadlocks (the watchdog,
//       CCL_TIMEOUT, reports it).
//   barrier_mode_programs wildcard         (3 ranks) the paper's example: a sends to c, then all
//       three broadcast from b, then b sends to c; c receives from any source before and after
//       the broadcast. In barrier mode b cannot leave the broadcast before c entered it, so c's
//       first receive gets a's message whatever the timing (a sends late on purpose); without,
//       b's later message can overtake it. Prints the order c saw; exits 1 if barrier mode was on
//       and the order was wrong.
#include <mpi.h>

#include <chrono>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include "ccl/ccl.hpp"

int main(int argc, char** argv) {
  ccl::Environment env(argc, argv);
  const ccl::Group w = ccl::world();
  const std::string program = argc > 1 ? argv[1] : "";
  std::vector<int> data(4, w.rank());
  int message = w.rank();
  if (program == "returns-early" && w.size() >= 2) {
    if (w.rank() == 0) {
      ccl::bcast(w, std::span<int>(data), 0);
      MPI_Send(&message, 1, MPI_INT, 1, 7, MPI_COMM_WORLD);
    } else {
      if (w.rank() == 1) MPI_Recv(&message, 1, MPI_INT, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      ccl::bcast(w, std::span<int>(data), 0);
    }
    std::printf("barrier_mode_programs: rank %d completed (barrier mode %s)\n", w.rank(),
                ccl::barrier_mode() ? "on" : "off");
    return 0;
  }
  if (program == "wildcard" && w.size() == 3) {
    constexpr int a = 0, b = 1, c = 2;
    int first = -1, second = -1;
    if (w.rank() == a) {
      std::this_thread::sleep_for(std::chrono::milliseconds(300));  // a's message comes late
      MPI_Send(&message, 1, MPI_INT, c, 0, MPI_COMM_WORLD);
      ccl::bcast(w, std::span<int>(data), b);
    } else if (w.rank() == b) {
      ccl::bcast(w, std::span<int>(data), b);
      MPI_Send(&message, 1, MPI_INT, c, 0, MPI_COMM_WORLD);
    } else {
      MPI_Recv(&first, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      ccl::bcast(w, std::span<int>(data), b);
      MPI_Recv(&second, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      std::printf(
          "barrier_mode_programs: c received from %s first, then from %s (barrier mode %s)\n",
          first == a ? "a" : "b", second == a ? "a" : "b", ccl::barrier_mode() ? "on" : "off");
      if (ccl::barrier_mode() && first != a) return 1;
    }
    return 0;
  }
  if (w.rank() == 0) {
    std::fprintf(stderr, "usage: barrier_mode_programs returns-early | wildcard (3 ranks)\n");
  }
  return 2;
}
