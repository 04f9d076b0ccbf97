// Checking mode, as in the CCL paper: develop mode verifies on every call that all members agree
// on operation, root, counts, element size and reduce op (one extra small concat per call), and
// reports any disagreement on every member; run mode skips those cross-member checks.
#pragma once

namespace ccl {

enum class Mode { run, develop };

// The process-wide mode. Initially taken from the environment: CCL_MODE=develop|run (default run).
Mode mode();
void set_mode(Mode m);

// Barrier semantics, as in the CCL paper: in barrier mode no member leaves a collective before
// every member has entered it. combine, concat, index and sync imply that already; bcast and
// scatter then wait for a sync-in tree to their root first, reduce, gather and prefix end with a
// sync-out tree from their root (prefix: from the highest rank), and shift, and any call that
// moves no data, with both. A program that completes only in nonbarrier mode relies on a call
// returning early; wildcard receives around collectives match in one order only in barrier mode.
// Process-wide and set for the whole program: initially CCL_BARRIER=1|0, or when unset on in
// develop mode and off in run mode.
bool barrier_mode();
void set_barrier_mode(bool on);

}  // namespace ccl
