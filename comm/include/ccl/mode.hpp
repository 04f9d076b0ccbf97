// Checking mode, as in the CCL paper: develop mode verifies on every call that all members agree
// on operation, root, counts, element size and reduce op (one extra small concat per call), and
// reports any disagreement on every member; run mode skips those cross-member checks.
#pragma once

namespace ccl {

enum class Mode { run, develop };

// The process-wide mode. Initially taken from the environment: CCL_MODE=develop|run (default run).
Mode mode();
void set_mode(Mode m);

}  // namespace ccl
