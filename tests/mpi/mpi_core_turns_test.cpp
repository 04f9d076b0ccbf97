// Waiting where ranks share cores (core_turns.cpp): a wait on a peer that runs on another CPU
// spins, and gives up within its bound even while that peer keeps running; a wait on a peer that
// shares our CPU does not spin at all; and a spin outside a ShmFabric::Wait leaves MPI's progress
// running in the polls after it. Ranks 0 and 2 are pinned to one CPU and rank 1 to another, so
// that where each runs is known. Needs more ranks than CPUs (run on 3 ranks, and skipped where
// they each have a core).
#include <gtest/gtest.h>
#include <mpi.h>
#include <sched.h>
#include <unistd.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "../common/unsupported.hpp"
#include "transport/shm/shm_fabric.hpp"

namespace {

using ccl::detail::ShmFabric;
using ccl::detail::ShmOp;
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

constexpr auto kBusy = std::chrono::milliseconds(600);

// Runs on its CPU without yielding for kBusy, so that it reads as running all along.
void stay_busy() {
  const Clock::time_point until = Clock::now() + kBusy;
  while (Clock::now() < until) {
  }
}

// What both tests need: 3 or more ranks on fewer CPUs, a fabric, ranks 0 and 2 pinned to CPU 0
// and rank 1 to CPU 1, each having published where it runs.
class CoreTurns : public ::testing::Test {
 protected:
  void SetUp() override {
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    int size = 0;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    if (size < 3) GTEST_SKIP() << "needs 3 ranks";
    if (cpus < 2 || size <= cpus) SKIP_UNSUPPORTED("ranks do not share cores here");
    fabric_ = ShmFabric::create();
    if (!fabric_) SKIP_UNSUPPORTED("no shared-memory fabric");
    pinned_ = std::make_unique<Pinned>(rank_ == 1 ? 1 : 0);
    ASSERT_TRUE(pinned_->ok());
    fabric_->idle();  // a yield: each rank publishes the CPU it now runs on
    MPI_Barrier(MPI_COMM_WORLD);
  }
  void TearDown() override { MPI_Barrier(MPI_COMM_WORLD); }

  int rank_ = 0;
  std::unique_ptr<ShmFabric> fabric_;
  std::unique_ptr<Pinned> pinned_;
};

TEST_F(CoreTurns, SpinsOnlyOnAPeerRunningElsewhereAndNotForLong) {
  if (rank_ == 1) {
    stay_busy();
  } else if (rank_ == 0) {
    std::uint64_t began = 0;
    long spins = 0;
    const Clock::time_point start = Clock::now();
    while (fabric_->wait_on_running(1, began)) ++spins;
    const auto spun = Clock::now() - start;
    EXPECT_GT(spins, 0) << "rank 1 runs on another CPU: the wait spins on it";
    EXPECT_LT(spun, kBusy / 2) << "the spin outlasted its bound while rank 1 ran";
    began = 0;
    EXPECT_FALSE(fabric_->wait_on_running(2, began)) << "rank 2 shares our CPU: no spin";
  }
}

// Rank 0 spins on rank 1 outside any Wait, as a blocking receive whose message came during the
// spin does, and then only polls the fabric for a message rank 1 sends after an MPI send that
// completes only once rank 0's MPI progress has run (a rendezvous: rank 0 posted its receive
// first, so it cannot match on posting). With the spin's state left set, the polls never ran
// MPI's progress and neither rank got further.
TEST_F(CoreTurns, ASpinOutsideAWaitLeavesMpiProgressRunning) {
  constexpr int kTag = 7;
  constexpr std::size_t kLarge = std::size_t{4} << 20;  // well beyond any eager limit
  const ccl::Pgid context{0, 424242, 0};
  std::vector<std::byte> large(kLarge);
  std::byte note{};
  if (rank_ == 1) {
    stay_busy();
    MPI_Send(large.data(), static_cast<int>(kLarge), MPI_BYTE, 0, kTag, MPI_COMM_WORLD);
    const std::byte done{1};
    while (!fabric_->send_now(fabric_->local_index(0), context, kTag, &done, 1)) {
    }
  } else if (rank_ == 0) {
    MPI_Request large_recv = MPI_REQUEST_NULL;
    MPI_Irecv(large.data(), static_cast<int>(kLarge), MPI_BYTE, 1, kTag, MPI_COMM_WORLD,
              &large_recv);
    std::uint64_t began = 0;
    ASSERT_TRUE(fabric_->wait_on_running(1, began)) << "rank 1 runs on another CPU";
    ShmOp* op = fabric_->acquire();
    op->is_send = false;
    op->peer = fabric_->local_index(1);
    op->context = context;
    op->tag = kTag;
    op->data = &note;
    op->bytes = 1;
    fabric_->start(op);
    const Clock::time_point give_up = Clock::now() + kBusy + std::chrono::seconds(20);
    while (!op->done && Clock::now() < give_up) fabric_->progress();
    EXPECT_TRUE(op->done) << "polls of the fabric never ran MPI's progress after the spin";
    MPI_Wait(&large_recv, MPI_STATUS_IGNORE);  // rank 1's send completes either way
    while (!op->done) fabric_->progress();
    fabric_->release(op);
    EXPECT_EQ(note, std::byte{1});
  }
}

}  // namespace
