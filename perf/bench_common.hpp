// What ccl-bench-collectives and ccl-bench-drop-in share: their options, and paired timing of two
// implementations of one call in the same job (each timed in blocks of back-to-back calls,
// blocks_of_calls.hpp, the two taking turns, compared block by block).
#pragma once

#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "blocks_of_calls.hpp"

struct BenchOptions {
  std::string csv;
  std::size_t min_bytes = 0, max_bytes = std::size_t{4} << 20;
  std::vector<std::string> only;  // the cases to keep, by name; empty: all
  int reps = 3;
  int sweeps = 3;
  bool quick = false;
  bool cold_cache = false;   // buffers taken in turn from a region larger than the last-level cache
  bool barrier = false;      // ccl in barrier mode (ccl/mode.hpp), to price it
  bool mpi_barrier = false;  // per call, ccl's calls too between the MPI library's barriers
  bool persistent = false;   // also time ccl's persistent form against its blocking one
  std::string peer;  // the peer's name in the CSV (perf/run_peers.sh: tuned, sm, mpich, ...)
};

// The command line of `program`; `known(name)` says whether --only may name a case. Throws
// std::runtime_error with a message naming the option.
template <class Known>
BenchOptions parse_bench_options(int argc, char** argv, const std::string& program, Known known) {
  BenchOptions o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) throw std::runtime_error(program + ": " + a + " needs a value");
      return argv[++i];
    };
    auto number = [&]() -> long {
      const std::string v = next();
      std::size_t used = 0;
      long x = -1;
      try {
        x = std::stol(v, &used);
      } catch (const std::exception&) {
      }
      if (used != v.size() || x < 0)
        throw std::runtime_error(program + ": " + a + " needs a number, not '" + v + "'");
      return x;
    };
    if (a == "--csv") {
      o.csv = next();
    } else if (a == "--min-bytes") {
      o.min_bytes = static_cast<std::size_t>(number());
    } else if (a == "--max-bytes") {
      o.max_bytes = static_cast<std::size_t>(number());
    } else if (a == "--only") {
      const std::string list = next() + ",";
      for (std::size_t at = 0, comma; (comma = list.find(',', at)) != std::string::npos;
           at = comma + 1) {
        const std::string name = list.substr(at, comma - at);
        if (!known(name))
          throw std::runtime_error(program + ": --only: unknown case '" + name + "'");
        o.only.push_back(name);
      }
    } else if (a == "--reps") {
      o.reps = std::max(1, static_cast<int>(number()));
    } else if (a == "--sweeps") {
      o.sweeps = std::max(1, static_cast<int>(number()));
    } else if (a == "--quick") {
      o.quick = true;
    } else if (a == "--cold-cache") {
      o.cold_cache = true;
    } else if (a == "--barrier") {
      o.barrier = true;
    } else if (a == "--mpi-barrier") {
      o.mpi_barrier = true;
    } else if (a == "--persistent") {
      o.persistent = true;
    } else if (a == "--peer") {
      o.peer = next();
    } else {
      throw std::runtime_error(program + ": unknown option '" + a +
                               "' (use --csv FILE, --min-bytes N, --max-bytes N, --only NAME,..., "
                               "--reps N, --sweeps N, --quick, --cold-cache, --barrier, "
                               "--mpi-barrier, --persistent, --peer NAME)");
    }
  }
  return o;
}

// The MPI library the benchmarks race: Open MPI here, SMPI's collectives on a simulated platform.
#if defined(CCL_SMPI)
inline constexpr const char* kPeerMpi = "SMPI";
#else
inline constexpr const char* kPeerMpi = "Open MPI";
#endif

// Slowest rank's mean seconds per call of f over a block of `iters` calls in a stream, back to
// back. One untimed call first: the block before may have been the other implementation's, and
// the first call after a switch pays for it (seen as Open MPI's first block after ccl's at
// 1.0-2.2x its next one). The barrier and the maximum go straight to MPI (PMPI_) so that the
// harness stays the same when a profiling library such as libccl_mpi intercepts MPI_ calls. The
// clock is MPI's: under SMPI it is the simulated one.
inline double time_calls(const std::function<void()>& f, int iters) {
  f();
  PMPI_Barrier(MPI_COMM_WORLD);
  const double t0 = PMPI_Wtime();
  for (int i = 0; i < iters; ++i) f();
  const double mine = (PMPI_Wtime() - t0) / iters;
  double slowest = 0;
  PMPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return slowest;
}

// Seconds per call as IMB and OSU time it: each call alone between barriers, so that no member
// runs ahead into the next call; call i is f(i) (the caller rotates the root with i, as IMB does).
// The barrier is the timed library's own, as under IMB, where MPI_Barrier is the library's: the
// order and skew in which members leave it are part of what its users see (coll/sm's barrier
// on ranks sharing cores leaves members descheduled, which made the next call of any library
// 3-8x slower). After warm_up_calls untimed, as IMB warms up. The mean over ranks of each rank's
// mean, and the slowest rank's mean.
struct PerCall {
  double avg, max;
};
inline void mpi_barrier() {
  PMPI_Barrier(MPI_COMM_WORLD);
}
inline PerCall time_each_call(const std::function<void(int)>& f, int iters,
                              const std::function<void()>& barrier = mpi_barrier) {
  for (int i = 0; i < warm_up_calls(iters); ++i) {
    barrier();
    f(i);
  }
  double sum = 0;
  for (int i = 0; i < iters; ++i) {
    barrier();
    const double t0 = PMPI_Wtime();
    f(i);
    sum += PMPI_Wtime() - t0;
  }
  const double mine = sum / iters;
  double total = 0, slowest = 0;
  int ranks = 1;
  PMPI_Comm_size(MPI_COMM_WORLD, &ranks);
  PMPI_Allreduce(&mine, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  PMPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return {total / ranks, slowest};
}

inline double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const std::size_t h = v.size() / 2;
  return v.size() % 2 ? v[h] : 0.5 * (v[h - 1] + v[h]);
}

// The median of a[i] / b[i]: blocks i of a and of b ran one right after the other (same sweep,
// same repetition), so a slow spell of a shared machine that lasts a few blocks slows both and
// cancels out of their ratio, where it would move one median and not the other.
inline double paired_ratio(const std::vector<double>& a, const std::vector<double>& b) {
  std::vector<double> r;
  for (std::size_t i = 0; i < std::min(a.size(), b.size()); ++i) r.push_back(a[i] / b[i]);
  return median(r);
}

inline double worst(const std::vector<double>& v) {
  return v.empty() ? 0.0 : *std::max_element(v.begin(), v.end());
}

// How many of v are above x (or, with above false, below it).
inline long count_above(const std::vector<double>& v, double x, bool above) {
  return static_cast<long>(
      std::count_if(v.begin(), v.end(), [&](double y) { return above ? y > x : y < x; }));
}

// The sizes per member both benchmarks sweep: 8 B to 4 MiB.
inline constexpr std::size_t kBytesPerMember[] = {8,     64,     512,     4096,
                                                  32768, 262144, 1048576, 4194304};

// The order of the blocks: `reps` rounds of three, turn(0) a, turn(1) b, turn(2) b again (the
// A/A control), who goes first rotating from round to round.
template <class Turn>
void in_turns(int reps, Turn turn) {
  for (int rep = 0; rep < reps; ++rep) {
    for (int t = 0; t < 3; ++t) turn((t + rep) % 3);
  }
}

// Blocks of back-to-back calls (time_calls) of a, b and b again, in turns.
inline void time_in_turns(const std::function<void()>& a, const std::function<void()>& b, int iters,
                          int reps, std::vector<double>& a_times, std::vector<double>& b_times,
                          std::vector<double>& b_again) {
  in_turns(reps, [&](int which) {
    (which == 0   ? a_times
     : which == 1 ? b_times
                  : b_again)
        .push_back(time_calls(which == 0 ? a : b, iters));
  });
}

// Per-call samples of one implementation in one case: per block, the mean over ranks and the
// slowest rank's mean.
struct PerCallSamples {
  std::vector<double> avg, max;
  void add(const PerCall& t) {
    avg.push_back(t.avg);
    max.push_back(t.max);
  }
};

// time_in_turns for calls timed one at a time, a's between a_barrier, b's between b_barrier.
inline void time_each_in_turns(const std::function<void(int)>& a, const std::function<void(int)>& b,
                               int iters, int reps, PerCallSamples& a_times,
                               PerCallSamples& b_times, PerCallSamples& b_again,
                               const std::function<void()>& a_barrier = mpi_barrier,
                               const std::function<void()>& b_barrier = mpi_barrier) {
  in_turns(reps, [&](int which) {
    (which == 0   ? a_times
     : which == 1 ? b_times
                  : b_again)
        .add(which == 0 ? time_each_call(a, iters, a_barrier)
                        : time_each_call(b, iters, b_barrier));
  });
}

// Rank 0's CSV file with its header line written (null elsewhere or without a path); a file that
// cannot be written ends the job.
inline FILE* open_csv(const std::string& path, const char* program, const char* header) {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank != 0 || path.empty()) return nullptr;
  FILE* csv = std::fopen(path.c_str(), "w");
  if (csv == nullptr) {
    std::fprintf(stderr, "%s: cannot write %s\n", program, path.c_str());
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  std::fprintf(csv, "%s\n", header);
  return csv;
}
