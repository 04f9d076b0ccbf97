#!/usr/bin/env bash
# Passes when a command exits non-zero and its output matches a pattern (grep -E).
#   expect_failure.sh PATTERN COMMAND...
pattern=$1
shift
out=$("$@" 2>&1)
status=$?
echo "$out"
if [ "$status" -eq 0 ]; then echo "expected a non-zero exit"; exit 1; fi
echo "$out" | grep -Eq -- "$pattern" || { echo "expected output matching: $pattern"; exit 1; }
