// Built against the installed package only: sums ranks with combine and checks the result.
#include <ccl/ccl.hpp>
#include <cstdio>

int main(int argc, char** argv) {
  ccl::Environment env(argc, argv);
  const ccl::Group w = ccl::world();
  const int sum = ccl::combine_value(w, w.rank(), ccl::sum);
  const int expected = w.size() * (w.size() - 1) / 2;
  if (w.rank() == 0) std::printf("consumer: %d ranks, sum of ranks %d\n", w.size(), sum);
  return sum == expected ? 0 : 1;
}
