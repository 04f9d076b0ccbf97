// Randomised collectives on the simulator: per seed, a world of 1 to 1024 members (mostly
// awkward sizes), split into random groups, runs a random sequence of collectives — every kind,
// root, operator, element type, in place or not, several outstanding at once — and every member's
// every element is checked against the reference. A failure prints its seed and how to rerun it.
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

// The simulator plays every member; one thread cannot block in one member's call.
struct SimPlatform {
  ccl::sim::World world;
  explicit SimPlatform(int size) : world(size) {}

  bool plays(int) const { return true; }
  bool can_block() const { return false; }
  int first_played() const { return 0; }
  std::vector<ccl::Group> world_views() { return world.world_groups(); }

  std::vector<ccl::Group> form(const rnd::Level& lv, const rnd::Level& parent,
                               const std::vector<ccl::Group>& parent_views) {
    std::vector<ccl::Group> out(static_cast<std::size_t>(world.size()));
    if (lv.listed) {
      for (const auto& g : lv.groups) {
        auto views = world.group(g, "listed");
        for (std::size_t i = 0; i < g.size(); ++i) out[static_cast<std::size_t>(g[i])] = views[i];
      }
      return out;
    }
    for (const auto& pg : parent.groups) {
      std::vector<ccl::Group> parents;
      std::vector<int> colors, keys;
      for (int w : pg) {
        parents.push_back(parent_views[static_cast<std::size_t>(w)]);
        colors.push_back(lv.color[static_cast<std::size_t>(w)]);
        keys.push_back(lv.key[static_cast<std::size_t>(w)]);
      }
      auto views = world.partition(parents, colors, keys);
      for (std::size_t i = 0; i < pg.size(); ++i) out[static_cast<std::size_t>(pg[i])] = views[i];
    }
    return out;
  }
};

}  // namespace

int main(int argc, char** argv) {
  rnd::Options opt;
  try {
    opt = rnd::parse_options(argc, argv, 120);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: %s\n%s\n", argv[0], e.what(), rnd::usage(argv[0]).c_str());
    return 2;
  }
  std::vector<std::uint64_t> seeds;
  for (std::uint64_t i = 0; i < opt.seeds; ++i) seeds.push_back(opt.first + i);
  for (int i = 0; i < opt.varying; ++i) {
    seeds.push_back(rnd::clock_seed() + static_cast<std::uint64_t>(i));
    std::printf("random collectives (simulator): varying seed %llu\n",
                static_cast<unsigned long long>(seeds.back()));
  }
  ccl::grids::register_torus_algorithms();  // concat on groups declared a torus may choose them
  const rnd::Watchdog watchdog(opt.stall, argv[0], 0);

  const auto t0 = std::chrono::steady_clock::now();
  std::size_t calls = 0, shared = 0, printed = 0;
  int largest = 0;
  std::vector<std::uint64_t> failed;
  std::set<std::string> forced;
  for (std::uint64_t seed : seeds) {
    const auto t = std::chrono::steady_clock::now();
    const int size = rnd::sim_world_size(seed, opt.max_size);
    const rnd::Case cs = rnd::make_case(seed, size, opt.limits);
    rnd::Outcome out;
    {
      SimPlatform pf(size);
      out = rnd::run_case(pf, cs);
    }
    calls += cs.calls();
    shared += cs.calls(2);
    largest = std::max(largest, size);
    forced.insert(out.forced.begin(), out.forced.end());
    if (opt.verbose) {
      std::printf("seed %llu: world %d, %zu cases, %.2f s\n", static_cast<unsigned long long>(seed),
                  size, cs.calls(),
                  std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count());
    }
    if (out.failures.empty()) continue;
    failed.push_back(seed);
    for (std::size_t i = 0; i < out.failures.size() && i < 3 && printed < 30; ++i, ++printed) {
      std::printf("FAILED: %s\n", out.failures[i].c_str());
    }
    std::printf("  rerun: %s\n", rnd::rerun_command(opt, argv[0], 0, seed).c_str());
    std::fflush(stdout);
  }
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf(
      "random collectives (simulator): %zu cases (collective calls checked, %zu on groups of 2 or "
      "more) in %zu seeds (%llu..%llu%s), "
      "worlds up to %d members, %zu failed seeds, %.1f s\n",
      calls, shared, seeds.size(), static_cast<unsigned long long>(opt.first),
      static_cast<unsigned long long>(opt.first + opt.seeds - 1), opt.varying ? " and varying" : "",
      largest, failed.size(), secs);
  std::printf("algorithms forced: %zu (kind, algorithm) pairs; the catalog has %zu algorithms\n",
              forced.size(), ccl::catalog().size());
  if (opt.verbose) {
    for (const std::string& f : forced) std::printf("  forced: %s\n", f.c_str());
  }
  if (!failed.empty()) {
    std::printf("failed seeds:");
    for (std::uint64_t s : failed) std::printf(" %llu", static_cast<unsigned long long>(s));
    std::printf("\n");
  }
  return failed.empty() ? 0 : 1;
}
