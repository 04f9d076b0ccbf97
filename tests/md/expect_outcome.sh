#!/usr/bin/env bash
# Passes when a command ends as expected (fails: a non-zero exit; succeeds: exit 0) and its
# output matches a pattern (grep -E). For failures the pattern is also tried on a last line
# "exit status: N", for launchers that may lose a dying rank's text but pass on its error code
# (MPICH's Hydra kills the job on an abort, sometimes before it has forwarded the aborting rank's
# message; the status is the error class).
#   expect_outcome.sh fails|succeeds PATTERN COMMAND...
outcome=$1 pattern=$2
shift 2
out=$("$@" 2>&1)
status=$?
echo "$out"
if [ "$outcome" = fails ] && [ "$status" -eq 0 ]; then echo "expected a non-zero exit"; exit 1; fi
if [ "$outcome" = succeeds ] && [ "$status" -ne 0 ]; then
  echo "expected exit status 0, got $status"
  exit 1
fi
printf '%s\nexit status: %d\n' "$out" "$status" | grep -Eq -- "$pattern" ||
  { echo "expected output matching: $pattern"; exit 1; }
