#!/usr/bin/env bash
# The QCDOC torus allgather inside ewald-md's step reaches the link bound: on a simulated 3x3x3x3
# torus of QCDOC links and QCDOC-like nodes (computation and ccl's copies charged at calibrated
# rates, 17.5 times this host's time), the position exchange of owner-computes Ewald (2,592 ions,
# 32 a node: 768-byte blocks) takes at most 1/0.9 of the bound s·x/n_channels + n_hops·L that
# ccl-torus prints for that torus and block. Timed from the last member's entry to the last
# exit (the skew of the work before it is not the allgather's).
#   torus_link_bound.sh SOURCE_DIR BUILD_DIR CCL_TORUS_TOOL DECK
set -euo pipefail
src=$1 build=$2 torus_tool=$3 deck=$4
shape=3x3x3x3 nodes=81 atoms=2592
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$src/perf/smpi/torus_platform.sh" 1 "$work/one"
"$src/perf/smpi/torus_platform.sh" "$shape" "$work/torus" qcdoc
sed -e 's/^region .*/region          box block 0 6 0 6 0 9/' -e 's/^run .*/run 3/' \
  -e 's/^thermo .*/thermo 3/' "$deck" > "$work/in.deck"
cd "$work"
app="$build/smpi/md/ewald-md"
CCL_WORK_CALIBRATE="$work/rates.txt" "$src/perf/smpi/simulate.sh" "$work" one 1 "$app" \
  --decomp owner in.deck > calibrate.out 2>&1 || { cat calibrate.out; exit 1; }
CCL_WORK_RATES="$work/rates.txt" CCL_ALGO_CONCAT=torus_qcdoc CCL_ALGO_CONCATV=bruck \
  "$src/perf/smpi/simulate.sh" "$work" torus "$nodes" --cfg=smpi/host-speed:17.5Gf "$app" \
  --decomp owner --torus "$shape" in.deck > run.out 2> run.err || { cat run.err; exit 1; }
grep -E '^concat|^Position exchange' run.out
span=$(awk '/^Position exchange/ { print $(NF - 1) }' run.out)
bound=$("$torus_tool" plan "$shape" --block-bytes $((atoms / nodes * 24)) |
  awk '/bound s\*x/ { sub(/.*= /, ""); print $1 }')
awk -v s="$span" -v b="$bound" 'BEGIN {
  if (s == "" || b == "") { print "no span or no bound"; exit 1 }
  printf "allgather %.2f us a call against a link bound of %.2f us: %.0f%%\n", s, b, 100 * b / s
  exit !(b / s >= 0.9) }'
