// GoogleTest under MPI: every rank runs every test; rank 0 prints progress, other ranks print
// only their failures; the exit code is non-zero on every rank if any rank failed. When none
// failed but some rank skipped a case this machine cannot run (unsupported.hpp), rank 0 says so
// on a line of its own, which ctest reports as a skip.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdio>

#include "ccl/environment.hpp"
#include "unsupported.hpp"

namespace {

class FailureOnlyPrinter : public ::testing::EmptyTestEventListener {
 public:
  explicit FailureOnlyPrinter(int rank) : rank_(rank) {}
  void OnTestPartResult(const ::testing::TestPartResult& r) override {
    if (r.failed()) {
      std::fprintf(stderr, "[rank %d] %s:%d: %s\n", rank_, r.file_name() ? r.file_name() : "?",
                   r.line_number(), r.summary());
    }
  }

 private:
  int rank_;
};

}  // namespace

int main(int argc, char** argv) {
  ccl::Environment env(argc, argv);
  ::testing::InitGoogleTest(&argc, argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank != 0) {
    auto& listeners = ::testing::UnitTest::GetInstance()->listeners();
    delete listeners.Release(listeners.default_result_printer());
    listeners.Append(new FailureOnlyPrinter(rank));
  }
  int failed = RUN_ALL_TESTS() != 0 ? 1 : 0;
  int any = 0;
  MPI_Allreduce(&failed, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  int unsupported = 0;
  MPI_Allreduce(&ccl_test::unsupported_cases(), &unsupported, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (any == 0 && unsupported > 0 && rank == 0) {
    std::printf("ccl-test: UNSUPPORTED: %d case(s) this machine cannot run were skipped (above)\n",
                unsupported);
  }
  return any;
}
