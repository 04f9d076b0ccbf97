#!/usr/bin/env bash
# ewald-md against LAMMPS (Debian's lmp) on the same deck: 4096-ion rock salt (perf/md/
# nacl.in.template), Ewald and PPPM at 1e-5, on 1 and 2 ranks. For each case: time per step
# (the 100-step loop), the final potential and total energy, and the measured RMS force error
# (against converged Ewald at the same positions, relative to the force between unit charges
# 1 Å apart) of both codes. The machine is shared and noisy: each case runs CCL_MD_REPEATS times
# (default 5) with the two codes alternating, and the time per step is each code's median.
# Writes perf/results/md.csv and md.png; prints one summary line.
#   perf/run_md.sh     (CCL_MD_RANKS="1 2", CCL_MD_CELLS=8, CCL_MD_ACCURACY=1e-5, CCL_MD_REPEATS=5)
set -euo pipefail
source "$(dirname "$0")/../scripts/common.sh"
root=$(ccl_root)
ccl_perf_prepare
out=$(ccl_results_dir)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
csv="$out/md.csv"
accuracy=${CCL_MD_ACCURACY:-1e-5}
cells=${CCL_MD_CELLS:-8}
source "$root/tests/md/thermo_column.sh"

# RMS over atoms of |F − F_ref| / 14.399645 (eV·Å, metal units) from two custom dumps (id fx fy fz).
rms_error() {
  awk 'FNR == 1 { file++ } /^ITEM: ATOMS/ { body = 1; next } /^ITEM:/ { body = 0 }
       body && NF == 4 { if (file == 1) { fx[$1] = $2; fy[$1] = $3; fz[$1] = $4 }
                         else { dx = $2 - fx[$1]; dy = $3 - fy[$1]; dz = $4 - fz[$1]; s += dx*dx + dy*dy + dz*dz; n++ } }
       END { printf "%.3g", sqrt(s / n) / 14.399645 }' "$1" "$2"
}

# Median of the numbers on stdin.
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }

run_case() {  # code kspace np name → runs the deck, leaves name.log, name.forces, name.reference
  local code=$1 kspace=$2 np=$3 name=$4
  sed -e "s/@CELLS@/$cells/g; s/@KSPACE@/$kspace/; s/@ACCURACY@/$accuracy/; s/@REFERENCE@/1e-10/; s|@OUT@|$name|" \
    "$root/perf/md/nacl.in.template" > "$name.in"
  if [ "$code" = lammps ]; then
    mpirun -np "$np" $(ccl_oversubscribe "$np") lmp -in "$name.in" -log none -screen "$name.log" > /dev/null
  else
    mpirun -np "$np" $(ccl_oversubscribe "$np") "$root/build/md/ewald-md" "$name.in" > "$name.log"
  fi
}

echo "code,kspace,ranks,atoms,ms_per_step,pe,etotal,rms_force_error,runs" > "$csv"
repeats=${CCL_MD_REPEATS:-5}
for kspace in ewald pppm; do
  for np in ${CCL_MD_RANKS:-1 2}; do
    for code in lammps ewald-md; do : > "$work/${code}_${kspace}_np$np.times"; done
    for ((k = 1; k <= repeats; ++k)); do
      for code in lammps ewald-md; do
        name="$work/${code}_${kspace}_np$np"
        run_case "$code" "$kspace" "$np" "$name"
        # The first loop is the timed one (100 steps).
        awk '/^Loop time of/ { printf "%.4f\n", 1000 * $4 / $9; exit }' "$name.log" >> "$name.times"
      done
    done
    for code in lammps ewald-md; do
      name="$work/${code}_${kspace}_np$np"
      atoms=$(awk '/^Loop time of/ { print $12; exit }' "$name.log")
      first_run=$(awk '/^Loop time of/ { exit } { print }' "$name.log")
      pe=$(echo "$first_run" | thermo_column PotEng | tail -1)
      etotal=$(echo "$first_run" | thermo_column TotEng | tail -1)
      error=$(rms_error "$name.forces" "$name.reference")
      ms=$(median < "$name.times")
      echo "$code,$kspace,$np,$atoms,$ms,$pe,$etotal,$error,$repeats" >> "$csv"
      echo "$code $kspace np=$np: $ms ms/step (median of $repeats: $(tr '\n' ' ' < "$name.times")), pe $pe, etotal $etotal, RMS force error $error"
    done
  done
done
"$root/perf/plot_md.sh" "$csv" "$out/md.png"
awk -F, 'NR > 1 { t[$2 " np=" $3, $1] = $5; e[$2 " np=" $3, $1] = $8; k[$2 " np=" $3] = 1 }
  END { line = "ewald-md / LAMMPS time per step:"
        for (c in k) { r = t[c, "ewald-md"] / t[c, "lammps"]; line = line sprintf(" %s %.2f (error %s vs %s);", c, r, e[c, "ewald-md"], e[c, "lammps"]) }
        print line }' "$csv"
echo "wrote $csv and $out/md.png"
