// ccl-demo: every collective on the world group and on the row and column groups of a 2D split,
// each result checked against a direct computation, then a table of calls, bytes and time per
// collective (max over ranks). Exit status is non-zero on every rank if any check failed.
//
//   mpirun -np 4 ccl-demo [--iterations N] [--length N]
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <string>
#include <vector>

#include "ccl/ccl.hpp"

namespace {

using I64 = std::int64_t;

I64 value(int member, std::size_t i) {
  return (member + 1) * 1000 + static_cast<I64>(i);
}

std::vector<I64> data(int member, std::size_t n) {
  std::vector<I64> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = value(member, i);
  return v;
}

struct Checker {
  int failures = 0;
  void expect(bool ok, const ccl::Group& g, const char* what) {
    if (ok) return;
    ++failures;
    std::fprintf(stderr, "ccl-demo: %s wrong on group '%s' at rank %d\n", what, g.label().c_str(),
                 g.rank());
  }
};

// One round of every collective on group g with vectors of n elements, each result checked.
void exercise(const ccl::Group& g, std::size_t n, Checker& check) {
  const int P = g.size(), r = g.rank(), root = P - 1;
  const auto Pn = static_cast<std::size_t>(P);

  std::vector<I64> buf = r == root ? data(root, n) : std::vector<I64>(n, 0);
  ccl::bcast(g, buf, root);
  check.expect(buf == data(root, n), g, "bcast");

  std::vector<I64> sum(n, 0);
  for (int m = 0; m < P; ++m) {
    for (std::size_t i = 0; i < n; ++i) sum[i] += value(m, i);
  }
  std::vector<I64> out(n, 0);
  ccl::reduce(g, data(r, n), out, ccl::sum, root);
  if (r == root) check.expect(out == sum, g, "reduce");

  out.assign(n, 0);
  ccl::combine(g, data(r, n), out, ccl::sum);
  check.expect(out == sum, g, "combine");

  std::vector<I64> all(Pn * n);
  for (int m = 0; m < P; ++m) {
    auto d = data(m, n);
    std::copy(d.begin(), d.end(),
              all.begin() + static_cast<std::ptrdiff_t>(static_cast<std::size_t>(m) * n));
  }
  std::vector<I64> mine(n, 0);
  ccl::scatter(g, r == root ? all : std::vector<I64>{}, mine, root);
  check.expect(mine == data(r, n), g, "scatter");

  std::vector<I64> gathered(r == root ? Pn * n : 0);
  ccl::gather(g, data(r, n), gathered, root);
  if (r == root) check.expect(gathered == all, g, "gather");

  std::vector<I64> cat(Pn * n, 0);
  ccl::concat(g, data(r, n), cat);
  check.expect(cat == all, g, "concat");

  // index: block j of member i holds value(i, j); member r receives value(i, r) from each i.
  std::vector<I64> idx_in(Pn), idx_out(Pn);
  for (int j = 0; j < P; ++j)
    idx_in[static_cast<std::size_t>(j)] = value(r, static_cast<std::size_t>(j));
  ccl::index(g, idx_in, idx_out);
  bool idx_ok = true;
  for (int i = 0; i < P; ++i)
    idx_ok =
        idx_ok && idx_out[static_cast<std::size_t>(i)] == value(i, static_cast<std::size_t>(r));
  check.expect(idx_ok, g, "index");

  out.assign(n, 0);
  ccl::prefix(g, data(r, n), out, ccl::sum);
  std::vector<I64> partial(n, 0);
  for (int m = 0; m <= r; ++m) {
    for (std::size_t i = 0; i < n; ++i) partial[i] += value(m, i);
  }
  check.expect(out == partial, g, "prefix");

  out.assign(n, 0);
  ccl::shift(g, data(r, n), out, 1);
  check.expect(out == data((r - 1 + P) % P, n), g, "shift");

  ccl::sync(g);

  // concatv: member m contributes m % 3 elements.
  std::vector<std::size_t> counts(Pn);
  for (int m = 0; m < P; ++m) counts[static_cast<std::size_t>(m)] = static_cast<std::size_t>(m % 3);
  std::vector<I64> expect_v;
  for (int m = 0; m < P; ++m) {
    auto d = data(m, counts[static_cast<std::size_t>(m)]);
    expect_v.insert(expect_v.end(), d.begin(), d.end());
  }
  std::vector<I64> got_v(expect_v.size(), 0);
  ccl::concatv(g, data(r, counts[static_cast<std::size_t>(r)]), got_v, counts);
  check.expect(got_v == expect_v, g, "concatv");
}

std::size_t parse(int argc, char** argv, const std::string& flag, std::size_t fallback) {
  for (int i = 1; i + 1 < argc; ++i) {
    if (argv[i] == flag) {
      char* end = nullptr;
      const long v = std::strtol(argv[i + 1], &end, 10);
      if (*end != '\0' || v < 0) {
        throw ccl::Error("ccl-demo: " + flag + " needs a non-negative integer, got '" +
                         argv[i + 1] + "'");
      }
      return static_cast<std::size_t>(v);
    }
  }
  return fallback;
}

}  // namespace

int main(int argc, char** argv) {
  ccl::Environment env(argc, argv);
  ccl::set_timing(true);  // the table below reports each collective's time
  const ccl::Group world = ccl::world();
  std::size_t iterations = 0, length = 0;
  try {
    iterations = parse(argc, argv, "--iterations", 20);
    length = parse(argc, argv, "--length", 1000);
  } catch (const ccl::Error& e) {
    if (world.rank() == 0) std::fprintf(stderr, "%s\n", e.what());
    return 2;
  }
  const int P = world.size();
  const int cols = static_cast<int>(std::ceil(std::sqrt(static_cast<double>(P))));
  const ccl::Group row = ccl::partition(world, world.rank() / cols, world.rank(), "row");
  const ccl::Group col = ccl::partition(world, world.rank() % cols, world.rank(), "col");

  ccl::reset_statistics();
  Checker check;
  for (std::size_t it = 0; it < iterations; ++it) {
    for (const ccl::Group* g : {&world, &row, &col}) exercise(*g, length, check);
  }
  const ccl::Statistics stats = ccl::statistics();  // before the reductions below count in it
  const int failures = ccl::combine_value(world, check.failures, ccl::sum);
  if (world.rank() == 0) {
    std::printf(
        "ccl-demo: %d ranks, grid %d x %d (rows of %d), %zu iterations, vectors of %zu int64\n", P,
        (P + cols - 1) / cols, cols, cols, iterations, length);
  }
  ccl::print_statistics(world, stats, stdout);
  if (world.rank() == 0) {
    std::printf("checks: %s (%d failures)\n", failures == 0 ? "all results correct" : "FAILED",
                failures);
  }
  return failures == 0 ? 0 : 1;
}
