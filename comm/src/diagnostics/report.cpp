#include "ccl/report.hpp"

#include <string>
#include <vector>

#include "ccl/collectives.hpp"

namespace ccl {

void print_statistics(const Group& g, const Statistics& mine, std::FILE* out) {
  const auto n = static_cast<std::size_t>(kCollKinds);
  std::vector<double> seconds(n), slowest(n);
  std::vector<std::uint64_t> bytes(n), total_bytes(n);
  for (std::size_t k = 0; k < n; ++k) {
    seconds[k] = mine.collectives[k].seconds;
    bytes[k] = mine.collectives[k].bytes;
  }
  combine(g, seconds, slowest, max);
  combine(g, bytes, total_bytes, sum);
  if (g.rank() != 0) return;
  std::fprintf(out, "%-9s %-15s %-20s %8s %14s %12s %11s\n", "ccl", "MPI", "algorithm", "calls",
               "bytes sent", "time [ms]", "us/call");
  for (std::size_t k = 0; k < n; ++k) {
    const CollectiveStats& c = mine.collectives[k];
    if (c.calls == 0) continue;
    const double ms = slowest[k] * 1e3;
    std::fprintf(out, "%-9s %-15s %-20s %8llu %14llu %12.3f %11.2f\n",
                 std::string(name(static_cast<CollKind>(k))).c_str(),
                 std::string(mpi_name(static_cast<CollKind>(k))).c_str(),
                 std::string(c.algorithm).c_str(), static_cast<unsigned long long>(c.calls),
                 static_cast<unsigned long long>(total_bytes[k]), ms,
                 ms * 1e3 / static_cast<double>(c.calls));
  }
}

}  // namespace ccl
