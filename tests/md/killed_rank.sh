#!/usr/bin/env bash
# A rank killed mid-run (SIGKILL) ends the whole job with a non-zero exit within a bound, rather
# than leaving the other ranks waiting in a collective, and no rank outlives the job.
#   killed_rank.sh MPIEXEC APP DECK      (DECK is run for 100000 steps: long enough to be killed)
set -uo pipefail
mpiexec=$1 app=$2
bound=60
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
deck="$work/long.in"
sed 's/^run .*/run 100000/' "$3" > "$deck"
"$mpiexec" -np 3 --oversubscribe "$app" "$deck" > /dev/null 2>&1 &
job=$!
# Wait until the three ranks are running, then kill the last one started.
for _ in $(seq 1 100); do
  pids=$(pgrep -f "^$app $deck" || true)
  [ "$(echo "$pids" | grep -c .)" -ge 3 ] && break
  sleep 0.1
done
victim=$(echo "$pids" | tail -1)
[ -n "$victim" ] || { echo "no rank found to kill"; kill "$job"; exit 1; }
sleep 1
kill -9 "$victim"
start=$(date +%s)
while kill -0 "$job" 2> /dev/null; do
  if [ $(( $(date +%s) - start )) -gt "$bound" ]; then
    echo "the job still runs $bound s after a rank was killed"; pkill -9 -f "^$app $deck"; kill -9 "$job"; exit 1
  fi
  sleep 0.2
done
wait "$job"
status=$?
echo "killed rank $victim; the job ended after $(( $(date +%s) - start )) s with status $status"
sleep 2
if pgrep -f "^$app $deck" > /dev/null; then echo "ranks outlived the job"; pkill -9 -f "^$app $deck"; exit 1; fi
[ "$status" -ne 0 ]
