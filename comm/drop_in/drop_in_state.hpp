// Whether the drop-in runs collectives on ccl in this process, and why not when it does not.
#pragma once

namespace ccl::drop_in {

struct DropInState {
  bool active = false;  // ccl is set up and collectives go to it
  const char* inactive_reason = "MPI is not initialised";
  bool report = false;  // CCL_MPI_REPORT=1
};

// Every call reads it: a global, not a function's static (whose guard each call would test).
[[gnu::visibility("hidden")]] extern constinit DropInState drop_in_state_value;
inline DropInState& drop_in_state() {
  return drop_in_state_value;
}

}  // namespace ccl::drop_in
