#!/usr/bin/env bash
# A model that knows the torus it runs on: ccl-calibrate, on a simulated 2x2x2 torus of QCDOC
# links told by CCL_TORUS, measures those links (660 ns a link, 500 MB/s, the platform's), and
# with its model ewald-md's position allgather on the torus is a torus allgather; without
# CCL_TORUS (a plain group) the same model leaves it to the others.
#   torus_model_choice.sh SOURCE_DIR BUILD_DIR DECK
set -euo pipefail
src=$1 build=$2 deck=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$src/perf/smpi/torus_platform.sh" 2x2x2 "$work/torus" qcdoc
cd "$work"
CCL_TORUS=2x2x2 "$src/perf/smpi/simulate.sh" "$work" torus 8 "$build/smpi/tools/ccl-calibrate" \
  --quick --no-profiles --output model.txt > calibrate.out 2>&1 || { cat calibrate.out; exit 1; }
grep '^ccl-calibrate' calibrate.out
awk '$1 == "torus" { found = 1
       ok = $5 > 0.9 * 660e-9 && $5 < 1.1 * 660e-9 && $7 > 0.9 * 2e-9 && $7 < 1.1 * 2e-9 && $9 == 3
       printf "torus links: hop %g s (660e-9), beta %g s/B (2e-9), %d links at once (3)\n", $5, $7, $9 }
     END { if (!found) print "no torus line in the model"; exit !(found && ok) }' model.txt
allgather() {  # the algorithm of the MPI_Allgather row of ewald-md's collectives table
  env "$@" CCL_MODEL="$work/model.txt" "$src/perf/smpi/simulate.sh" "$work" torus 8 \
    "$build/smpi/md/ewald-md" --decomp owner "$deck" 2> /dev/null | awk '$2 == "MPI_Allgather" { print $3 }'
}
on_torus=$(allgather CCL_TORUS=2x2x2)
plain=$(allgather CCL_TORUS=)
echo "allgather: on the torus $on_torus, on a plain group $plain"
[[ "$on_torus" == torus_* ]] && [[ -n "$plain" && "$plain" != torus_* ]]
