// Randomised collectives over MPI: the generator of the simulator test, on the world of however
// many ranks run it. Every rank derives the same case from the seed and plays its own member;
// results are checked locally; a seed failed if any rank saw a wrong element. Blocking forms are
// used as well as nonblocking ones. An exception (the members may now disagree) or a hang ends
// the run with the seed printed.
#include <mpi.h>

#include <chrono>
#include <cstdio>
#include <exception>
#include <set>
#include <string>
#include <vector>

#include "../common/random_exec.hpp"
#include "../common/random_options.hpp"
#include "../common/random_watchdog.hpp"
#include "ccl/ccl.hpp"
#include "ccl/grids/torus.hpp"

namespace {

struct MpiPlatform {
  int me = 0, size = 1;

  bool plays(int w) const { return w == me; }
  bool can_block() const { return true; }
  int first_played() const { return me; }
  std::vector<ccl::Group> world_views() const {
    std::vector<ccl::Group> v(static_cast<std::size_t>(size));
    v[static_cast<std::size_t>(me)] = ccl::world();
    return v;
  }
  std::vector<ccl::Group> form(const rnd::Level& lv, const rnd::Level&,
                               const std::vector<ccl::Group>& parent_views) const {
    std::vector<ccl::Group> v(static_cast<std::size_t>(size));
    const auto w = static_cast<std::size_t>(me);
    v[w] = lv.listed ? ccl::group(lv.groups[static_cast<std::size_t>(lv.group_of[w])], "listed")
                     : ccl::partition(parent_views[w], lv.color[w], lv.key[w]);
    return v;
  }
};

}  // namespace

int main(int argc, char** argv) {
  ccl::Environment env(argc, argv);
  MpiPlatform pf;
  MPI_Comm_rank(MPI_COMM_WORLD, &pf.me);
  MPI_Comm_size(MPI_COMM_WORLD, &pf.size);
  rnd::Options opt;
  try {
    opt = rnd::parse_options(argc, argv, 40);
  } catch (const std::exception& e) {
    if (pf.me == 0)
      std::fprintf(stderr, "%s: %s\n%s\n", argv[0], e.what(), rnd::usage(argv[0]).c_str());
    return 2;
  }
  std::vector<std::uint64_t> seeds;
  for (std::uint64_t i = 0; i < opt.seeds; ++i) seeds.push_back(opt.first + i);
  for (int i = 0; i < opt.varying; ++i) {
    unsigned long long s = rnd::clock_seed() + static_cast<std::uint64_t>(i);
    MPI_Bcast(&s, 1, MPI_UNSIGNED_LONG_LONG, 0, MPI_COMM_WORLD);  // one seed for all ranks
    seeds.push_back(s);
    if (pf.me == 0)
      std::printf("random collectives (MPI, %d ranks): varying seed %llu\n", pf.size, s);
  }
  ccl::grids::register_torus_algorithms();
  const rnd::Watchdog watchdog(opt.stall, argv[0], pf.me);

  const auto t0 = std::chrono::steady_clock::now();
  std::size_t calls = 0, shared = 0, printed = 0;
  std::vector<std::uint64_t> failed;
  std::set<std::string> forced;
  for (std::uint64_t seed : seeds) {
    const auto t = std::chrono::steady_clock::now();
    const rnd::Case cs = rnd::make_case(seed, pf.size, opt.limits);
    const rnd::Outcome out = rnd::run_case(pf, cs);
    calls += cs.calls();
    shared += cs.calls(2);
    forced.insert(out.forced.begin(), out.forced.end());
    if (opt.verbose && pf.me == 0) {
      std::printf("seed %llu: %zu cases, %.2f s\n", static_cast<unsigned long long>(seed),
                  cs.calls(),
                  std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count());
    }
    for (std::size_t i = 0; i < out.failures.size() && i < 3 && printed < 30; ++i, ++printed) {
      std::fprintf(stderr, "[rank %d] FAILED: %s\n", pf.me, out.failures[i].c_str());
    }
    if (out.aborted) {
      std::fprintf(stderr, "[rank %d]   rerun: %s\n", pf.me,
                   rnd::rerun_command(opt, argv[0], pf.size, seed).c_str());
      std::fflush(stderr);
      MPI_Abort(MPI_COMM_WORLD, 1);
    }
    int mine = out.failures.empty() ? 0 : 1, any = 0;
    MPI_Allreduce(&mine, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (any != 0) {
      failed.push_back(seed);
      if (pf.me == 0) {
        std::printf("  rerun: %s\n", rnd::rerun_command(opt, argv[0], pf.size, seed).c_str());
      }
    }
    std::fflush(stderr);
  }
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (pf.me == 0) {
    std::printf(
        "random collectives (MPI, %d ranks): %zu cases (collective calls checked, %zu on groups of "
        "2 or more) in %zu seeds "
        "(%llu..%llu%s), %zu failed seeds, %.1f s\n",
        pf.size, calls, shared, seeds.size(), static_cast<unsigned long long>(opt.first),
        static_cast<unsigned long long>(opt.first + opt.seeds - 1),
        opt.varying ? " and varying" : "", failed.size(), secs);
    std::printf(
        "algorithms forced (rank 0): %zu (kind, algorithm) pairs; the catalog has %zu algorithms\n",
        forced.size(), ccl::catalog().size());
    if (!failed.empty()) {
      std::printf("failed seeds:");
      for (std::uint64_t s : failed) std::printf(" %llu", static_cast<unsigned long long>(s));
      std::printf("\n");
    }
  }
  return failed.empty() ? 0 : 1;
}
