#!/usr/bin/env bash
# A run resumed from its step-50 restart file ends where the uninterrupted run ends: bit for bit
# on the same ranks and decomposition, to 1e-10 relative on others; damaged restart files are
# refused with a message on every rank.   restart_resume.sh MPIEXEC APP
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/thermo_column.sh"
mpiexec=$1 app=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
last_row() { awk '$1 == 100 { print $2, $3, $5, $6 }'; }  # Temp PotEng TotEng Press at step 100
# A run that printed no step-100 row (or a short one) must fail, not compare two empty rows.
has_row() {  # what run
  [ "$(wc -w <<< "$2")" -eq 4 ] || { echo "no step-100 thermo row from the $1 run: '$2'"; exit 1; }
}
full=$("$mpiexec" -np 2 --oversubscribe "$app" "$here/restart/full.in" | last_row)
[ -f resume_test.50.restart ] && [ -f resume_test.100.restart ] || { echo "restart files missing"; exit 1; }
echo "uninterrupted:            $full"
has_row uninterrupted "$full"
resumed=$("$mpiexec" -np 2 --oversubscribe "$app" "$here/restart/resumed.in" | last_row)
echo "resumed, same ranks:      $resumed"
has_row resumed "$resumed"
[ "$full" = "$resumed" ] || { echo "not bit for bit"; exit 1; }
for run in "3" "4 --decomp force2d" "3 --decomp ring"; do
  set -- $run
  np=$1
  shift
  other=$("$mpiexec" -np "$np" --oversubscribe "$app" "$@" "$here/restart/resumed.in" | last_row)
  echo "resumed on $np $*: $other"
  has_row "resumed on $np $*" "$other"
  awk -v a="$full" -v b="$other" 'BEGIN { n = split(a, x, " "); split(b, y, " ");
    for (i = 1; i <= n; ++i) { d = (x[i] - y[i]) / x[i]; if (d < 0) d = -d; if (!(d <= 1e-10)) { print "differs by", d; exit 1 } } }'
done
# Damaged files: truncated, a flipped byte, not a restart file at all.
expect_error() {  # pattern file
  sed "s|resume_test.50.restart|$2|" "$here/restart/resumed.in" > damaged.in
  if out=$("$mpiexec" -np 2 --oversubscribe "$app" damaged.in 2>&1); then echo "accepted $2"; exit 1; fi
  echo "$out" | grep -q -- "$1" || { echo "$out"; echo "expected: $1"; exit 1; }
  echo "refused $2: $1"
}
head -c 5000 resume_test.50.restart > truncated.restart
expect_error "truncated.restart: restart file is truncated" truncated.restart
cp resume_test.50.restart flipped.restart
printf '\x55' | dd of=flipped.restart bs=1 seek=9000 conv=notrunc status=none
expect_error "flipped.restart: restart file is corrupted (checksum mismatch)" flipped.restart
expect_error "full.in: not an ewald-md restart file" "$here/restart/full.in"
expect_error "missing.restart: cannot read restart file" missing.restart
