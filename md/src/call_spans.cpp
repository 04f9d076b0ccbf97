#include "md/call_spans.hpp"

#include <mpi.h>

#include <functional>
#include <string>

#include "ccl/collectives.hpp"

namespace md {

namespace {

// Whether every member reads the same clock: always under SMPI; else when all run on one host.
bool common_clock(const ccl::Group& g) {
#if defined(CCL_SMPI)
  (void)g;
  return true;
#else
  char name[MPI_MAX_PROCESSOR_NAME] = {};
  int length = 0;
  MPI_Get_processor_name(name, &length);
  const auto hash = static_cast<long>(std::hash<std::string>{}(std::string(name, length)) >> 1);
  return ccl::combine_value(g, hash, ccl::min) == ccl::combine_value(g, hash, ccl::max);
#endif
}

}  // namespace

void CallSpans::enter() {
  if (entries_.size() < kCalls) entries_.push_back(MPI_Wtime());
}

void CallSpans::leave() {
  if (exits_.size() < kCalls) exits_.push_back(MPI_Wtime());
}

double CallSpans::mean_span(const ccl::Group& g) const {
  if (entries_.empty() || entries_.size() != exits_.size() || !common_clock(g)) return -1;
  std::vector<double> last_entry(entries_.size()), last_exit(exits_.size());
  ccl::combine(g, entries_, last_entry, ccl::max);
  ccl::combine(g, exits_, last_exit, ccl::max);
  double sum = 0;
  for (std::size_t i = 0; i < last_entry.size(); ++i) sum += last_exit[i] - last_entry[i];
  return sum / static_cast<double>(last_entry.size());
}

}  // namespace md
