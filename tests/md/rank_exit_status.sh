#!/usr/bin/env bash
# Runs one rank's command and reports how it ended, on a line of its own, then exits 0: the
# launcher neither aborts the other ranks nor hides their statuses, so a test sees every rank's.
#   mpirun -np N rank_exit_status.sh COMMAND...
"$@"
status=$?
echo "ccl-rank-exit: rank ${OMPI_COMM_WORLD_RANK:-${PMI_RANK:-?}} status $status"
exit 0
