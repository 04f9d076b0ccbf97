#!/usr/bin/env bash
# Simulated computation charged by counted work (ewald/work_meter.hpp) is what the rates say, and
# does not depend on the host's load; the forces stay real.
#   charged_compute.sh SOURCE_DIR BUILD_DIR DECK [APP_FLAGS...]
# With ewald-md as build_smpi_tree.sh built it in BUILD_DIR/smpi: calibrates the rates on one
# simulated node (CCL_WORK_CALIBRATE), then runs DECK on a 2x2 torus timed by SMPI, charged at
# the rates, charged at ten times the rates (and ccl's copies and reductions at a thousand times),
# and charged again with both host cores kept busy.
# Passes when the charged run prints the thermo rows of the timed one (15 digits, 1e-10), its
# pair section takes 9-11 times as long at ten times the rates, the loop is longer when ccl's
# local work costs more, and the loaded run's loop time
# is within 0.1% of the unloaded one's (charged runs time nothing on the host: simulate.sh turns
# SMPI's own timing off, and ccl's copies and reductions are counted through its hook).
set -euo pipefail
src=$1 build=$2 deck=$3
shift 3
flags=("$@")
source "$(cd "$(dirname "$0")" && pwd)/../md/same_thermo_rows.sh"
work=$(mktemp -d)
hogs=()
trap '[ ${#hogs[@]} -eq 0 ] || kill "${hogs[@]}"; rm -rf "$work"' EXIT
app="$build/smpi/md/ewald-md"
"$src/perf/smpi/torus_platform.sh" 1 "$work/one"
"$src/perf/smpi/torus_platform.sh" 2x2 "$work/torus"
sed 's/^\(\s*run\s\)/thermo_modify format float %.15g\n\1/' "$deck" > "$work/in.deck"
cd "$work"
simulate() {  # platform np log [VAR=value...]
  local platform=$1 np=$2 log=$3
  shift 3
  env "$@" "$src/perf/smpi/simulate.sh" "$work" "$platform" "$np" "$app" "${flags[@]}" in.deck \
    > "$log" 2> "$log.err" || { cat "$log.err"; exit 1; }
}
rows() { awk '$1 == "Step" { on = 1; next } /^Loop time/ { on = 0 } on && $1 ~ /^[0-9]+$/' "$1"; }
loop() { awk '/^Loop time of/ { print $4 }' "$1"; }
pair() { awk -F'|' '/^Pair / { print $3 + 0 }' "$1"; }

simulate one 1 calibrate.out CCL_WORK_CALIBRATE="$work/rates.txt"
grep -q '^pair ' rates.txt && grep -q '^forces ' rates.txt || { echo "rates.txt lacks kernels:"; cat rates.txt; exit 1; }
awk '/^#/ { print; next } { $2 = sprintf("%.6e", 10 * $2); print }' rates.txt > rates10.txt
awk '$1 == "copy" || $1 == "reduce" { $2 = sprintf("%.6e", 1000 * $2) } { print }' rates.txt > rates_local.txt

simulate torus 4 timed.out
simulate torus 4 charged.out CCL_WORK_RATES="$work/rates.txt"
simulate torus 4 charged10.out CCL_WORK_RATES="$work/rates10.txt"
simulate torus 4 local.out CCL_WORK_RATES="$work/rates_local.txt"
for _ in 1 2; do
  (while :; do :; done) &
  hogs+=($!)
done
simulate torus 4 loaded.out CCL_WORK_RATES="$work/rates.txt"
kill "${hogs[@]}"
hogs=()

rows timed.out > timed.rows
rows charged.out > charged.rows
same_thermo_rows timed.rows charged.rows
echo "loop time: timed $(loop timed.out), charged $(loop charged.out), at ten times the rates" \
  "$(loop charged10.out), charged under load $(loop loaded.out)"
awk -v a="$(pair charged.out)" -v b="$(pair charged10.out)" 'BEGIN {
  r = b / a; printf "pair section at ten times the rates: %.2f times as long\n", r; exit !(r > 9 && r < 11) }'
awk -v a="$(loop charged.out)" -v b="$(loop local.out)" 'BEGIN {
  r = b / a; printf "ccl copies and reductions at 1000 times their rates: loop %.3f times as long\n", r
  exit !(r > 1.01) }'
awk -v a="$(loop charged.out)" -v b="$(loop loaded.out)" 'BEGIN {
  d = (b - a) / a; printf "under load: %+.2f%%\n", 100 * d; exit !(d < 0.001 && d > -0.001) }'
