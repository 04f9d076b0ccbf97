#!/usr/bin/env bash
# Run an MPI program with libccl_mpi preloaded and its report on, then check the report: every
# required collective ran on ccl, and whatever went to MPI went for an allowed reason.
#   run_with_drop_in.sh LIB "REQUIRED..." "ALLOWED REASON|..." MPIEXEC ARGS...
# LIB "linked": the program is linked with libccl_mpi before MPI; nothing to preload.
# Prints the program's output; exits non-zero if the program or a check fails.
set -euo pipefail
lib=$1 required=$2 allowed=$3 mpiexec=$4
shift 4
out=$(mktemp)
trap 'rm -f "$out"' EXIT
status=0
preload=(-x LD_PRELOAD="$lib")
[ "$lib" = linked ] && preload=()
"$mpiexec" "${preload[@]}" -x CCL_MPI_REPORT=1 "$@" > "$out" 2>&1 || status=$?
cat "$out"
[ "$status" -eq 0 ] || { echo "run_with_drop_in: the program failed (exit $status)"; exit 1; }
grep -q "^ccl_mpi report" "$out" || { echo "run_with_drop_in: no report - was the drop-in loaded?"; exit 1; }
awk -v required="$required" -v allowed="$allowed" '
  /^ccl_mpi report/ { in_report = 1; next }
  in_report && $1 ~ /^MPI_/ {
    on_ccl[$1] = $2
    if ($3 > 0) {
      split($0, parts, " \\| ")
      n = split(parts[2], reasons, ", ")
      for (i = 1; i <= n; ++i) {
        reason = reasons[i]
        sub(/ x[0-9]+$/, "", reason)
        if (allowed == "" || reason !~ ("^(" allowed ")$")) { print "run_with_drop_in: " $1 " went to MPI: " reason; bad = 1 }
      }
    }
  }
  END {
    n = split(required, want, " ")
    for (i = 1; i <= n; ++i) if (!(on_ccl[want[i]] > 0)) { print "run_with_drop_in: " want[i] " never ran on ccl"; bad = 1 }
    exit bad
  }' "$out"
