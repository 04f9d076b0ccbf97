#!/usr/bin/env bash
# Passes when every one of NP ranks exits with STATUS (not killed by the launcher, not crashed)
# and the output matches PATTERN (grep -E). The launch must run each rank under
# rank_exit_status.sh, which reports its status.
#   every_rank_fails.sh PATTERN NP STATUS LAUNCH...
pattern=$1 np=$2 expected=$3
shift 3
out=$("$@" 2>&1)
echo "$out"
echo "$out" | grep -Eq -- "$pattern" || { echo "expected output matching: $pattern"; exit 1; }
for ((r = 0; r < np; ++r)); do
  got=$(echo "$out" | sed -n "s/^ccl-rank-exit: rank $r status \([0-9]*\)$/\1/p")
  if [ "$got" != "$expected" ]; then
    echo "rank $r: expected exit status $expected, got '${got:-none reported}'"
    exit 1
  fi
done
