// Command line of the randomised collective tests (simulator and MPI alike):
//   --seeds N        run seeds first .. first+N-1            --first-seed S   (default 1)
//   --seed S         run seed S alone (as does CCL_RANDOM_SEED=S in the environment)
//   --varying N      also N seeds drawn from the clock, printed (not reproducible run to run)
//   --steps K        collectives per case                    --budget BYTES   data per collective
//   --max-size P     largest simulated world                 --stall SECONDS  hang limit
//   --verbose        one line per seed: world size, cases, time
// A case depends on its seed, its world size and --steps, --budget, --max-size: a failure prints
// the command that reruns it.
#pragma once

#include <unistd.h>  // environ
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

#include "random_case.hpp"

namespace rnd {

struct Options {
  std::uint64_t first = 1;
  std::uint64_t seeds = 0;  // 0: the program's default
  bool single = false;      // --seed or CCL_RANDOM_SEED
  int varying = 0;
  Limits limits;
  int max_size = 1024;
  double stall = 120;
  bool verbose = false;

  // The flags a rerun of one seed needs besides --seed.
  std::string case_flags(bool sim) const {
    const Limits d;
    std::string f;
    if (limits.steps != d.steps) f += " --steps " + std::to_string(limits.steps);
    if (limits.budget != d.budget) f += " --budget " + std::to_string(limits.budget);
    if (sim && max_size != 1024) f += " --max-size " + std::to_string(max_size);
    return f;
  }
};

inline std::uint64_t parse_number(const std::string& flag, const char* text) {
  if (text == nullptr) throw std::invalid_argument(flag + " needs a value");
  const std::string s(text);
  std::size_t used = 0;
  unsigned long long v = 0;
  try {
    v = std::stoull(s, &used, 0);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != s.size() || s.empty() || s[0] == '-') {
    throw std::invalid_argument(flag + ": '" + s + "' is not a non-negative integer");
  }
  return v;
}

inline Options parse_options(int argc, char** argv, std::uint64_t default_seeds) {
  Options o;
  o.seeds = default_seeds;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const char* v = i + 1 < argc ? argv[i + 1] : nullptr;
    if (a == "--verbose") {
      o.verbose = true;
      continue;
    }
    if (a == "--seeds")
      o.seeds = parse_number(a, v);
    else if (a == "--first-seed")
      o.first = parse_number(a, v);
    else if (a == "--seed")
      o.first = parse_number(a, v), o.seeds = 1, o.single = true;
    else if (a == "--varying")
      o.varying = static_cast<int>(parse_number(a, v));
    else if (a == "--steps")
      o.limits.steps = static_cast<int>(parse_number(a, v));
    else if (a == "--budget")
      o.limits.budget = parse_number(a, v);
    else if (a == "--max-size")
      o.max_size = static_cast<int>(parse_number(a, v));
    else if (a == "--stall")
      o.stall = static_cast<double>(parse_number(a, v));
    else
      throw std::invalid_argument("unknown flag " + a);
    ++i;
  }
  if (const char* env = std::getenv("CCL_RANDOM_SEED"); env != nullptr && *env != '\0') {
    o.first = parse_number("CCL_RANDOM_SEED", env);
    o.seeds = 1;
    o.single = true;
    o.varying = 0;
  }
  if (o.max_size < 1) throw std::invalid_argument("--max-size must be at least 1");
  return o;
}

inline std::string usage(const char* program) {
  return std::string("usage: ") + program +
         " [--seeds N] [--first-seed S] [--seed S] [--varying N] [--steps K] [--budget BYTES]"
         " [--max-size P] [--stall SECONDS] [--verbose]  (CCL_RANDOM_SEED=S runs seed S alone)";
}

// The command that reruns one seed: ccl's settings from the environment (CCL_TAG_UB, CCL_SHM,
// CCL_ALGO_*, ...) change what runs, so they go with it. `ranks` 0: the simulator.
inline std::string rerun_command(const Options& o, const char* program, int ranks,
                                 std::uint64_t seed) {
  std::string env, forward;
  for (char** e = environ; *e != nullptr; ++e) {
    const std::string setting = *e;
    if (setting.rfind("CCL_", 0) != 0 || setting.rfind("CCL_RANDOM_SEED=", 0) == 0) continue;
    env += setting + " ";
    forward += " -x " + setting.substr(0, setting.find('='));
  }
  std::string cmd = env;
  if (ranks > 0) cmd += "mpiexec -n " + std::to_string(ranks) + " --oversubscribe" + forward + " ";
  cmd += program;
  cmd += " --seed " + std::to_string(seed) + o.case_flags(ranks == 0);
  return cmd;
}

// Seeds for --varying: from the clock, far from the fixed ones.
inline std::uint64_t clock_seed() {
  const auto t = std::chrono::system_clock::now().time_since_epoch().count();
  return (mix(static_cast<std::uint64_t>(t)) >> 20) | (std::uint64_t{1} << 40);
}

}  // namespace rnd
