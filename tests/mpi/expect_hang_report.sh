#!/usr/bin/env bash
# Passes when a command ends with the watchdog's exit code (124) within SECONDS and its output
# matches every PATTERN (grep -E).
#   expect_hang_report.sh SECONDS PATTERN [PATTERN...] -- COMMAND...
limit=$1
shift
patterns=()
while [ "$1" != "--" ]; do patterns+=("$1"); shift; done
shift
start=$(date +%s)
# --preserve-status: a command killed at the limit ends 137, never the watchdog's 124.
out=$(timeout --preserve-status -s KILL "$limit" "$@" 2>&1)
status=$?
took=$(( $(date +%s) - start ))
echo "$out"
echo "exit status $status after $took s"
[ "$status" -eq 124 ] || { echo "expected exit status 124 (the watchdog) within $limit s"; exit 1; }
for p in "${patterns[@]}"; do
  echo "$out" | grep -Eq -- "$p" || { echo "expected output matching: $p"; exit 1; }
done
