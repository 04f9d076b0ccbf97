// ccl::Error: the one exception type the library throws. Collective errors found in develop mode
// are thrown on every member with the same message, so a job never hangs on a mismatch.
#pragma once

#include <stdexcept>
#include <string>

namespace ccl {

class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace ccl
