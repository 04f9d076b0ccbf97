#!/usr/bin/env bash
# Passes when every C++ source of the tree is as clang-format leaves it (.clang-format: Google
# style, 100 columns); lists the files that are not. Reformat with
#   git ls-files '*.cpp' '*.hpp' '*.h' | xargs clang-format -i
#   format_check.sh SOURCE_DIR [CLANG_FORMAT]
root=$1 clang_format=${2:-clang-format}
cd "$root" || exit 1
if git rev-parse --is-inside-work-tree > /dev/null 2>&1; then
  mapfile -t files < <(git ls-files '*.cpp' '*.hpp' '*.h')
else  # an unpacked copy of the tree
  mapfile -t files < <(find comm ewald examples grids md perf tests tools \
    \( -name '*.cpp' -o -name '*.hpp' -o -name '*.h' \) -not -path '*/build*')
fi
unformatted=()
for f in "${files[@]}"; do
  "$clang_format" --dry-run --Werror "$f" > /dev/null 2>&1 || unformatted+=("$f")
done
if [ "${#unformatted[@]}" -gt 0 ]; then
  echo "format_check: ${#unformatted[@]} of ${#files[@]} files differ from clang-format's layout:"
  printf '  %s\n' "${unformatted[@]}"
  exit 1
fi
echo "format_check: all ${#files[@]} C++ files as clang-format leaves them"
