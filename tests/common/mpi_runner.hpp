// Runner for collective_cases.hpp over MPI: plays this rank's member of one group.
#pragma once

#include <cmath>

#include "ccl/ccl.hpp"

struct MpiRunner {
  ccl::Group group;

  int size() const { return group.size(); }
  template <class F>
  void each(F f) {
    f(group.rank());
  }
  template <class F>
  void collective(F f) {
    f(group, group.rank()).wait();
  }
};

// Rows and columns of the world seen as a grid with ceil(sqrt(P)) columns; the last row may be
// short, so rows and columns have uneven, often odd, sizes.
inline int grid_columns(int p) {
  int c = static_cast<int>(std::ceil(std::sqrt(static_cast<double>(p))));
  return c < 1 ? 1 : c;
}
