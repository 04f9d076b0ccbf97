// Whether the drop-in runs collectives on ccl in this process, and why not when it does not.
#pragma once

namespace ccl::drop_in {

struct DropInState {
  bool active = false;  // ccl is set up and collectives go to it
  const char* inactive_reason = "MPI is not initialised";
  bool report = false;  // CCL_MPI_REPORT=1
};

DropInState& drop_in_state();

}  // namespace ccl::drop_in
