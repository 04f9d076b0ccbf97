#!/usr/bin/env bash
# Passes when a command exits non-zero and its output matches a pattern (grep -E). The
# pattern is also tried on a last line "exit status: N", for launchers that may lose a dying
# rank's text but pass on its error code (MPICH's Hydra kills the job on an abort, sometimes
# before it has forwarded the aborting rank's message; the status is the error class).
#   expect_failure.sh PATTERN COMMAND...
pattern=$1
shift
out=$("$@" 2>&1)
status=$?
echo "$out"
if [ "$status" -eq 0 ]; then echo "expected a non-zero exit"; exit 1; fi
printf '%s\nexit status: %d\n' "$out" "$status" | grep -Eq -- "$pattern" ||
  { echo "expected output matching: $pattern"; exit 1; }
