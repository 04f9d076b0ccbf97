// ccl's own computation in a collective: the copies and reductions of its schedules' local
// steps. A program that charges simulated computation by counted work (the MD app under SMPI:
// ewald/work_meter.hpp) sets a hook to count these too; it is called after each run of local
// steps with the bytes they copied and reduced. No hook by default, and none costs nothing.
#pragma once

#include <cstddef>

namespace ccl {

using LocalWorkHook = void (*)(std::size_t copied_bytes, std::size_t reduced_bytes);

// For this process (each simulated rank under SMPI); nullptr removes it.
void set_local_work_hook(LocalWorkHook hook);
LocalWorkHook local_work_hook();

}  // namespace ccl
