#include "usage_report.hpp"

#include <mpi.h>

#include <array>
#include <cstdio>
#include <string>
#include <vector>

#include "ccl/tick_clock.hpp"

namespace ccl::drop_in {

namespace {

std::string human_bytes(double b) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int u = 0;
  while (b >= 1024 && u < 4) {
    b /= 1024;
    ++u;
  }
  char text[32];
  std::snprintf(text, sizeof text, u == 0 ? "%.0f %s" : "%.1f %s", b, units[u]);
  return text;
}

// "name x3, other x1"; names as `name_of` spells the map's keys.
template <class Key, class Name>
std::string joined(const std::map<Key, std::uint64_t>& m, Name name_of) {
  std::string s;
  for (const auto& [key, calls] : m) {
    if (!s.empty()) s += ", ";
    s += name_of(key);
    s += " x" + std::to_string(calls);
  }
  return s.empty() ? "-" : s;
}

}  // namespace

std::array<Usage, kMpiCalls> usage_table;

const char* mpi_call_name(MpiCall c) {
  static const char* names[kMpiCalls] = {"MPI_Bcast",
                                         "MPI_Ibcast",
                                         "MPI_Reduce",
                                         "MPI_Ireduce",
                                         "MPI_Allreduce",
                                         "MPI_Iallreduce",
                                         "MPI_Scatter",
                                         "MPI_Iscatter",
                                         "MPI_Scatterv",
                                         "MPI_Iscatterv",
                                         "MPI_Gather",
                                         "MPI_Igather",
                                         "MPI_Gatherv",
                                         "MPI_Igatherv",
                                         "MPI_Allgather",
                                         "MPI_Iallgather",
                                         "MPI_Allgatherv",
                                         "MPI_Iallgatherv",
                                         "MPI_Alltoall",
                                         "MPI_Ialltoall",
                                         "MPI_Alltoallv",
                                         "MPI_Ialltoallv",
                                         "MPI_Scan",
                                         "MPI_Iscan",
                                         "MPI_Exscan",
                                         "MPI_Iexscan",
                                         "MPI_Reduce_scatter_block",
                                         "MPI_Ireduce_scatter_block",
                                         "MPI_Barrier",
                                         "MPI_Ibarrier",
                                         "MPI_Bcast_init",
                                         "MPI_Reduce_init",
                                         "MPI_Allreduce_init",
                                         "MPI_Scatter_init",
                                         "MPI_Scatterv_init",
                                         "MPI_Gather_init",
                                         "MPI_Gatherv_init",
                                         "MPI_Allgather_init",
                                         "MPI_Allgatherv_init",
                                         "MPI_Alltoall_init",
                                         "MPI_Alltoallv_init",
                                         "MPI_Scan_init",
                                         "MPI_Exscan_init",
                                         "MPI_Reduce_scatter_block_init",
                                         "MPI_Barrier_init"};
  return names[static_cast<int>(c)];
}

void print_report() {
  // Counts and bytes summed over ranks, time the slowest rank's; names as rank 0 saw them.
  std::vector<double> mine(3 * kMpiCalls), sums(3 * kMpiCalls), slowest(kMpiCalls),
      seconds(kMpiCalls);
  for (int i = 0; i < kMpiCalls; ++i) {
    const Usage& u = usage_table[static_cast<std::size_t>(i)];
    mine[3 * i] = static_cast<double>(u.on_ccl);
    mine[3 * i + 1] = static_cast<double>(u.on_mpi);
    mine[3 * i + 2] = static_cast<double>(u.bytes);
    seconds[i] = static_cast<double>(u.ticks) * detail::seconds_per_tick();
  }
  PMPI_Reduce(mine.data(), sums.data(), 3 * kMpiCalls, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  PMPI_Reduce(seconds.data(), slowest.data(), kMpiCalls, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  int rank = 0, size = 0;
  PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
  PMPI_Comm_size(MPI_COMM_WORLD, &size);
  if (rank != 0) return;
  std::printf(
      "ccl_mpi report, %d ranks: calls and bytes summed over ranks, time of the slowest rank,\n"
      "algorithms and fallback reasons as rank 0 saw them\n",
      size);
  std::printf("%-29s %10s %10s %12s %10s  %s\n", "collective", "on ccl", "on MPI", "bytes",
              "time s", "ccl algorithms (rank 0) | fallback reasons (rank 0)");
  bool any = false;
  for (int i = 0; i < kMpiCalls; ++i) {
    if (sums[3 * i] + sums[3 * i + 1] == 0) continue;
    any = true;
    const Usage& u = usage_table[static_cast<std::size_t>(i)];
    std::string names = joined(u.algorithms, [](const std::pair<CollKind, std::string_view>& k) {
      return std::string(name(k.first)) + " " + std::string(k.second);
    });
    if (!u.reasons.empty())
      names += " | " + joined(u.reasons, [](const std::string& reason) { return reason; });
    std::printf("%-29s %10.0f %10.0f %12s %10.4f  %s\n", mpi_call_name(static_cast<MpiCall>(i)),
                sums[3 * i], sums[3 * i + 1], human_bytes(sums[3 * i + 2]).c_str(), slowest[i],
                names.c_str());
  }
  if (!any) std::printf("(no collectives called)\n");
  std::fflush(stdout);
}

}  // namespace ccl::drop_in
