// SUMMA (van de Geijn and Watts): C = A B on a pr x pc grid of processes, every matrix in
// blocks of rows over grid rows and of columns over grid columns (uneven when the sizes do not
// divide). For each panel of the inner dimension, the grid column owning A's panel broadcasts
// it along every grid row and the grid row owning B's panel broadcasts it along every grid
// column; each process then adds the panels' product to its block of C. Each process checks
// its block against the product computed from the formulas of A and B.
//
//   mpirun -np 6 summa [m n k [panel]]      (default 240 200 180, panels of at most 32)
#include <ccl/collectives.hpp>
#include <ccl/environment.hpp>
#include <ccl/error.hpp>
#include <ccl/group.hpp>
#include <ccl/request.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

// Split n into p nearly equal blocks: where block b starts.
int block_start(int n, int p, int b) {
  return b * (n / p) + std::min(b, n % p);
}

double a_at(int i, int j) {
  return std::sin(0.37 * i + 0.11 * j) + 0.01 * (i % 7);
}
double b_at(int i, int j) {
  return std::cos(0.23 * i - 0.19 * j) + 0.02 * (j % 5);
}

// The most square grid pr x pc of p processes, pr <= pc.
std::pair<int, int> grid_of(int p) {
  int pr = static_cast<int>(std::sqrt(static_cast<double>(p)));
  while (p % pr != 0) --pr;
  return {pr, p / pr};
}

int parse(const char* text, const char* what) {
  char* end = nullptr;
  const long v = std::strtol(text, &end, 10);
  if (*text == '\0' || *end != '\0' || v < 1 || v > 100000) {
    throw ccl::Error(std::string("summa: ") + what + " must be an integer from 1 to 100000, not '" +
                     text + "'");
  }
  return static_cast<int>(v);
}

}  // namespace

int main(int argc, char** argv) {
  ccl::Environment env(argc, argv);
  const ccl::Group world = ccl::world();
  int m = 240, n = 200, k = 180, panel = 32;
  try {
    if (argc != 1 && argc != 4 && argc != 5)
      throw ccl::Error("summa: usage: summa [m n k [panel]]");
    if (argc >= 4) {
      m = parse(argv[1], "m");
      n = parse(argv[2], "n");
      k = parse(argv[3], "k");
    }
    if (argc == 5) panel = parse(argv[4], "panel");
  } catch (const ccl::Error& e) {
    if (world.rank() == 0) std::fprintf(stderr, "%s\n", e.what());
    return 2;  // every rank sees the same arguments and leaves alike
  }
  const auto [pr, pc] = grid_of(world.size());
  const int my_row = world.rank() / pc, my_col = world.rank() % pc;
  // Row groups hold the processes of one grid row (ranked by column), column groups those of
  // one grid column (ranked by row).
  const ccl::Group row = ccl::partition(world, my_row, my_col, "row");
  const ccl::Group col = ccl::partition(world, my_col, my_row, "column");

  // This process's blocks: rows [r0, r1) of A and C, columns [c0, c1) of B and C; A's columns
  // and B's rows (the inner dimension) split over grid columns and grid rows respectively.
  const int r0 = block_start(m, pr, my_row), r1 = block_start(m, pr, my_row + 1);
  const int c0 = block_start(n, pc, my_col), c1 = block_start(n, pc, my_col + 1);
  const int ka0 = block_start(k, pc, my_col), ka1 = block_start(k, pc, my_col + 1);
  const int kb0 = block_start(k, pr, my_row), kb1 = block_start(k, pr, my_row + 1);
  const int rows = r1 - r0, cols = c1 - c0;
  std::vector<double> a(static_cast<std::size_t>(rows) * (ka1 - ka0)),
      b(static_cast<std::size_t>(kb1 - kb0) * cols);
  for (int i = 0; i < rows; ++i)
    for (int j = ka0; j < ka1; ++j)
      a[static_cast<std::size_t>(i) * (ka1 - ka0) + (j - ka0)] = a_at(r0 + i, j);
  for (int i = kb0; i < kb1; ++i)
    for (int j = 0; j < cols; ++j)
      b[static_cast<std::size_t>(i - kb0) * cols + j] = b_at(i, c0 + j);
  std::vector<double> c(static_cast<std::size_t>(rows) * cols, 0.0);

  ccl::sync(world);
  const auto t0 = std::chrono::steady_clock::now();
  std::vector<double> a_panel, b_panel;
  for (int k0 = 0; k0 < k;) {
    // The panel ends at the next block boundary of either split, or after `panel` columns.
    int owner_a = 0, owner_b = 0;
    while (block_start(k, pc, owner_a + 1) <= k0) ++owner_a;
    while (block_start(k, pr, owner_b + 1) <= k0) ++owner_b;
    const int k1 =
        std::min({k0 + panel, block_start(k, pc, owner_a + 1), block_start(k, pr, owner_b + 1)});
    const int w = k1 - k0;
    a_panel.assign(static_cast<std::size_t>(rows) * w, 0.0);
    b_panel.assign(static_cast<std::size_t>(w) * cols, 0.0);
    if (my_col == owner_a) {
      const int lda = ka1 - ka0;
      for (int i = 0; i < rows; ++i)
        for (int j = 0; j < w; ++j)
          a_panel[static_cast<std::size_t>(i) * w + j] =
              a[static_cast<std::size_t>(i) * lda + (k0 - ka0 + j)];
    }
    if (my_row == owner_b) {
      std::copy_n(b.begin() + static_cast<std::ptrdiff_t>(k0 - kb0) * cols,
                  static_cast<std::ptrdiff_t>(w) * cols, b_panel.begin());
    }
    ccl::Request ra = ccl::ibcast(row, a_panel, owner_a);  // along my grid row
    ccl::bcast(col, b_panel, owner_b);                     // along my grid column
    ra.wait();
    for (int i = 0; i < rows; ++i)
      for (int p = 0; p < w; ++p) {
        const double aip = a_panel[static_cast<std::size_t>(i) * w + p];
        for (int j = 0; j < cols; ++j)
          c[static_cast<std::size_t>(i) * cols + j] +=
              aip * b_panel[static_cast<std::size_t>(p) * cols + j];
      }
    k0 = k1;
  }
  const double elapsed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const double seconds = ccl::combine_value(world, elapsed, ccl::max);

  // Check: each element against the inner product from the formulas.
  double worst = 0;
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j) {
      double want = 0;
      for (int p = 0; p < k; ++p) want += a_at(r0 + i, p) * b_at(p, c0 + j);
      worst = std::max(worst, std::abs(c[static_cast<std::size_t>(i) * cols + j] - want) /
                                  (1.0 + std::abs(want)));
    }
  worst = ccl::combine_value(world, worst, ccl::max);
  const bool ok = worst <= 1e-12;
  if (world.rank() == 0) {
    std::printf(
        "summa: C(%dx%d) = A(%dx%d) B(%dx%d) on a %dx%d grid, panels of at most %d: %.3f ms, "
        "%.2f GFLOP/s, largest relative error %.1e: %s\n",
        m, n, m, k, k, n, pr, pc, panel, seconds * 1e3, 2.0 * m * n * k / seconds * 1e-9, worst,
        ok ? "OK" : "WRONG");
  }
  return ok ? 0 : 1;
}
