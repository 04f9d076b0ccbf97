// The CCL cost measures of one collective as a member sees it, on its critical path:
//   C1  start-ups (messages sent one after another),
//   C2  bytes sent one after another,
//   C3  bytes reduced one after another (reduce work).
// Each algorithm states them as a function of the shape (ccl/algorithm.hpp); the simulator
// measures them by carrying these clocks along every message, and the tests require both to
// agree exactly. A machine model turns them into time: α·C1 + β·C2 + γ·C3.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>

namespace ccl {

struct Cost {
  std::uint64_t c1 = 0;  // start-ups
  std::uint64_t c2 = 0;  // bytes
  std::uint64_t c3 = 0;  // bytes reduced

  friend bool operator==(const Cost&, const Cost&) = default;
  Cost& operator+=(const Cost& o) {
    c1 += o.c1;
    c2 += o.c2;
    c3 += o.c3;
    return *this;
  }
  friend Cost operator+(Cost a, const Cost& b) { return a += b; }
  // Component-wise maximum: the critical path of each measure.
  friend Cost longest(const Cost& a, const Cost& b) {
    return {std::max(a.c1, b.c1), std::max(a.c2, b.c2), std::max(a.c3, b.c3)};
  }
  std::string str() const {
    return "C1=" + std::to_string(c1) + " C2=" + std::to_string(c2) + " C3=" + std::to_string(c3);
  }
};

}  // namespace ccl
