#!/usr/bin/env bash
# Coverage-guided fuzzing of the deck parser (libFuzzer + ASan + UBSan) for a bounded time:
#   run_deck_parser_fuzz.sh SECONDS BUILD_DIR
# Builds BUILD_DIR/deck_parser_fuzz with clang++ (or $CLANGXX) when its sources are newer, fuzzes
# a scratch copy of tests/fuzz/deck_corpus (the repository's corpus is never written), prints a
# one-line tally and exits non-zero on any finding: a crash-, leak-, timeout- or oom- file, or a
# non-zero exit of libFuzzer. No clang++ with libFuzzer is a failure too, never a silent pass.
set -euo pipefail

if [ $# -ne 2 ]; then
  echo "usage: $0 SECONDS BUILD_DIR" >&2
  exit 2
fi
seconds=$1
build=$2
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
cxx=${CLANGXX:-clang++}
binary=$build/deck_parser_fuzz
sources=("$here/deck_parser_fuzz.cpp" "$root/md/src/deck.cpp")
# Debian 12 ships libclang_rt.fuzzer in libclang-rt-14-dev, only recommended by clang.
hint="install clang and libclang-rt-dev (Debian 12), or set CLANGXX to a clang++ with libFuzzer"

if ! command -v "$cxx" >/dev/null; then
  echo "deck_parser_libfuzzer: FAIL: no $cxx; $hint" >&2
  exit 1
fi
mkdir -p "$build"

stale=0
[ -x "$binary" ] || stale=1
for f in "${sources[@]}" "$root/md/include/md/deck.hpp" "$0"; do
  [ "$f" -nt "$binary" ] && stale=1
done
if [ $stale -eq 1 ]; then
  echo "building $binary with $cxx"
  if ! "$cxx" -std=c++20 -g -O1 -Wall -Wextra -fsanitize=fuzzer,address,undefined \
       -fno-sanitize-recover=undefined -I "$root/md/include" "${sources[@]}" -o "$binary.tmp"; then
    echo "deck_parser_libfuzzer: FAIL: $cxx cannot build a libFuzzer target; $hint" >&2
    exit 1
  fi
  mv "$binary.tmp" "$binary"
fi

# A fresh scratch corpus and artifact directory each run: old findings do not linger.
work=$build/deck_fuzz_work
rm -rf "$work"
mkdir -p "$work/corpus" "$work/artifacts"
cp "$here"/deck_corpus/* "$work/corpus/"
log=$work/fuzz.log

status=0
ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1} UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1} \
  "$binary" -max_total_time="$seconds" -dict="$here/deck.dict" -timeout=10 -rss_limit_mb=2048 \
  -print_final_stats=1 -artifact_prefix="$work/artifacts/" "$work/corpus" >"$log" 2>&1 || status=$?

# libFuzzer's final line reads "#RUNS DONE cov: C ft: F corp: N/SIZE ..."; stats follow.
runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
done_line=$(grep -E '^#[0-9]+[[:space:]]+DONE' "$log" | tail -n 1 || true)
cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$done_line")
ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$done_line")
corpus=$(sed -n 's/.* corp: \([0-9]*\)\/.*/\1/p' <<<"$done_line")
found=$(find "$work/artifacts" -type f \( -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' \
        -o -name 'oom-*' \) | sort)
findings=0
if [ -n "$found" ] || [ $status -ne 0 ]; then findings=1; fi

tail -n 30 "$log"
echo "deck_parser_libfuzzer: runs=${runs:-?} corpus=${corpus:-?} cov=${cov:-?} ft=${ft:-?}" \
     "findings=$findings (log: $log)"
if [ $findings -ne 0 ]; then
  echo "deck_parser_libfuzzer: FAIL: libFuzzer exit $status; reproduce with $binary FILE:" >&2
  [ -n "$found" ] && echo "$found" >&2
  exit 1
fi
