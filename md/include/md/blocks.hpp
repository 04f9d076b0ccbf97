// How the decompositions and PPPM cut things up among members.
#pragma once

#include <cstddef>
#include <utility>

namespace md {

// Part i of n items cut into `parts` contiguous blocks as even as can be: [first, last).
inline std::pair<std::size_t, std::size_t> block_range(std::size_t n, int parts, int i) {
  return {n * std::size_t(i) / std::size_t(parts), n * std::size_t(i + 1) / std::size_t(parts)};
}

// Rows × columns of a grid of `members`: the most nearly square factorisation with rows ≤ cols.
inline std::pair<int, int> nearly_square(int members) {
  int rows = 1;
  for (int r = 1; r * r <= members; ++r) {
    if (members % r == 0) rows = r;
  }
  return {rows, members / rows};
}

}  // namespace md
