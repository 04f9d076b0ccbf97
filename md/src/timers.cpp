#include "md/timers.hpp"
#include "ccl/collectives.hpp"

#include <cmath>
#include <numeric>

namespace md {

double Timers::total() const {
  return std::accumulate(seconds_.begin(), seconds_.end(), 0.0);
}

void Timers::report(const ccl::Group& g, std::FILE* out) const {
  // One reduce per statistic; the variation needs Σ t² as well.
  std::array<double, kSections> lo{}, hi{}, sum{}, sum2{}, squares{};
  for (int s = 0; s < kSections; ++s)
    squares[std::size_t(s)] = seconds_[std::size_t(s)] * seconds_[std::size_t(s)];
  ccl::reduce(g, seconds_, lo, ccl::min, 0);
  ccl::reduce(g, seconds_, hi, ccl::max, 0);
  ccl::reduce(g, seconds_, sum, ccl::sum, 0);
  ccl::reduce(g, squares, sum2, ccl::sum, 0);
  if (g.rank() != 0) return;
  static const char* kNames[kSections] = {"Pair",   "Kspace", "Neigh", "Comm",
                                          "Output", "Modify", "Other"};
  const double p = g.size();
  const double loop = std::accumulate(sum.begin(), sum.end(), 0.0) / p;
  std::fprintf(out, "\nMPI task timing breakdown:\n");
  std::fprintf(out, "Section |  min time  |  avg time  |  max time  |%%varavg| %%total\n");
  std::fprintf(out, "---------------------------------------------------------------\n");
  for (std::size_t s = 0; s < kSections; ++s) {
    const double avg = sum[s] / p;
    const double var = std::sqrt(std::max(0.0, sum2[s] / p - avg * avg));
    std::fprintf(out, "%-8s| %-10.5g | %-10.5g | %-10.5g | %5.1f | %6.2f\n", kNames[s], lo[s], avg,
                 hi[s], avg > 0 ? 100 * var / avg : 0.0, loop > 0 ? 100 * avg / loop : 0.0);
  }
}

}  // namespace md
