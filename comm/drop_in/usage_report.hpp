// What the drop-in did, per MPI collective: calls run on ccl and the algorithms ccl chose, calls
// handed to MPI and why, bytes and time. CCL_MPI_REPORT=1 prints it from rank 0 at MPI_Finalize.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>

#include "ccl/shape.hpp"

namespace ccl::drop_in {

enum class MpiCall {
  Bcast,
  Ibcast,
  Reduce,
  Ireduce,
  Allreduce,
  Iallreduce,
  Scatter,
  Iscatter,
  Scatterv,
  Iscatterv,
  Gather,
  Igather,
  Gatherv,
  Igatherv,
  Allgather,
  Iallgather,
  Allgatherv,
  Iallgatherv,
  Alltoall,
  Ialltoall,
  Alltoallv,
  Ialltoallv,
  Scan,
  Iscan,
  Exscan,
  Iexscan,
  Reduce_scatter_block,
  Ireduce_scatter_block,
  Barrier,
  Ibarrier,
  Bcast_init,
  Reduce_init,
  Allreduce_init,
  Scatter_init,
  Scatterv_init,
  Gather_init,
  Gatherv_init,
  Allgather_init,
  Allgatherv_init,
  Alltoall_init,
  Alltoallv_init,
  Scan_init,
  Exscan_init,
  Reduce_scatter_block_init,
  Barrier_init,
  count
};
constexpr int kMpiCalls = static_cast<int>(MpiCall::count);

struct Usage {
  std::uint64_t on_ccl = 0;
  std::uint64_t on_mpi = 0;  // fallbacks
  std::uint64_t bytes = 0;   // this rank's buffer bytes (send side; receive side for a root)
  std::uint64_t ticks = 0;   // inside the MPI call (start only, for nonblocking ones)
  // (ccl collective, algorithm name: static storage) -> calls; no string is built per call.
  std::map<std::pair<CollKind, std::string_view>, std::uint64_t> algorithms;
  // The entry the last call counted into (a map node: stable), which the next call of a loop
  // usually counts into again without a lookup.
  std::pair<CollKind, std::string_view> last_algorithm{};
  std::uint64_t* last_count = nullptr;
  std::map<std::string, std::uint64_t> reasons;  // fallback reason -> calls
};

// Every call counts into it, several times: a table inside a function cost a small MPI_Bcast a
// guard test and a call each time (40 of its 1,080 instructions on 2 ranks).
[[gnu::visibility("hidden")]] extern std::array<Usage, kMpiCalls> usage_table;
inline Usage& usage(MpiCall c) {
  return usage_table[static_cast<std::size_t>(c)];
}
const char* mpi_call_name(MpiCall c);
// Collective over MPI_COMM_WORLD (called from MPI_Finalize when CCL_MPI_REPORT=1).
void print_report();

}  // namespace ccl::drop_in
