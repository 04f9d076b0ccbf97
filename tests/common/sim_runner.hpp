// Runner for collective_cases.hpp on the simulator: plays every member of a group.
#pragma once

#include <vector>

#include "ccl/ccl.hpp"

struct SimRunner {
  std::vector<ccl::Group> groups;  // groups[r]: member r's view

  int size() const { return static_cast<int>(groups.size()); }
  template <class F>
  void each(F f) {
    for (int r = 0; r < size(); ++r) f(r);
  }
  template <class F>
  void collective(F f) {
    std::vector<ccl::Request> req;
    req.reserve(groups.size());
    for (int r = 0; r < size(); ++r) req.push_back(f(groups[static_cast<std::size_t>(r)], r));
    ccl::wait_all(req);
  }
};
