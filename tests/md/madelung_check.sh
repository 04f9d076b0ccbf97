#!/usr/bin/env bash
# Runs the rock-salt deck and derives the Madelung constant from its Coulomb energy:
# M = -E r0 / ((N/2) C), N = 512 ions, r0 = a/2 = 2.82 Å, C = 14.399645 eV Å (metal units).
# Passes when M = 1.747564594633 to 1e-6 relative.   madelung_check.sh LAUNCH... APP DECK
set -euo pipefail
out=$("$@")
echo "$out"
# The deck's thermo line: Step PotEng E_coul E_long.
energy=$(echo "$out" | awk '/^ *Step +PotEng/ {getline; print $2; exit}')
[ -n "$energy" ] || { echo "no thermo line in the output"; exit 1; }
awk -v e="$energy" 'BEGIN {
  m = -e * 2.82 / (256 * 14.399645); rel = (m - 1.747564594633) / 1.747564594633;
  if (rel < 0) rel = -rel;
  printf "Madelung constant %.12f, relative error %.2e\n", m, rel;
  exit !(rel < 1e-6) }'
