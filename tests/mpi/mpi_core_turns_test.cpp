// Waiting where ranks share cores (core_turns.cpp): a wait on a peer that runs on another CPU
// spins, and gives up within its bound even while that peer keeps running; a wait on a peer that
// shares our CPU does not spin at all. Ranks 0 and 2 are pinned to one CPU and rank 1 to another,
// so that where each runs is known. Needs more ranks than CPUs (run on 3 ranks, and skipped where
// they each have a core).
#include <gtest/gtest.h>
#include <mpi.h>
#include <sched.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <memory>

#include "shm_fabric.hpp"

namespace {

using ccl::detail::ShmFabric;
using Clock = std::chrono::steady_clock;

// Pins the calling rank to `cpu` for its lifetime, then restores its affinity.
class Pinned {
 public:
  explicit Pinned(int cpu) {
    ok_ = sched_getaffinity(0, sizeof before_, &before_) == 0;
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(cpu, &one);
    ok_ = ok_ && sched_setaffinity(0, sizeof one, &one) == 0;
  }
  ~Pinned() { sched_setaffinity(0, sizeof before_, &before_); }
  bool ok() const { return ok_; }

 private:
  cpu_set_t before_{};
  bool ok_ = false;
};

TEST(CoreTurns, SpinsOnlyOnAPeerRunningElsewhereAndNotForLong) {
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  if (size < 3 || cpus < 2 || size <= cpus) GTEST_SKIP() << "ranks do not share cores here";
  const std::unique_ptr<ShmFabric> fabric = ShmFabric::create();
  if (!fabric) GTEST_SKIP() << "no shared-memory fabric here";

  const Pinned pinned(rank == 1 ? 1 : 0);
  ASSERT_TRUE(pinned.ok());
  fabric->idle();  // a yield: each rank publishes the CPU it now runs on
  MPI_Barrier(MPI_COMM_WORLD);

  constexpr auto kBusy = std::chrono::milliseconds(600);
  if (rank == 1) {
    // Runs on CPU 1 without yielding, so that it reads as running all along.
    const Clock::time_point until = Clock::now() + kBusy;
    while (Clock::now() < until) {
    }
  } else if (rank == 0) {
    std::uint64_t began = 0;
    long spins = 0;
    const Clock::time_point start = Clock::now();
    while (fabric->wait_on_running(1, began)) ++spins;
    const auto spun = Clock::now() - start;
    EXPECT_GT(spins, 0) << "rank 1 runs on another CPU: the wait spins on it";
    EXPECT_LT(spun, kBusy / 2) << "the spin outlasted its bound while rank 1 ran";
    began = 0;
    EXPECT_FALSE(fabric->wait_on_running(2, began)) << "rank 2 shares our CPU: no spin";
  }
  MPI_Barrier(MPI_COMM_WORLD);
}

}  // namespace
