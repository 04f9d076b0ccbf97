// ccl-soak: a long run of small collectives, then of group creations and frees, watching resident
// memory. A library that allocates per call, or keeps something per group it has freed (a
// communicator, a cached schedule, a shared-memory context), grows here long before a user's
// job would notice. Results are checked as it goes, so a soak is also a correctness run.
//
// Phase 1: N collectives of 8 B cycling through all ten kinds, every root, and pairs of
// nonblocking ones in flight at once. Phase 2: M groups made and freed, alternately by partition
// and from an explicit list, each used once. Resident memory (the largest over ranks) is sampled
// 50 times per phase; growth is measured from the end of a warm-up (the first tenth: pools and
// caches fill, MPI sets up its connections) to the end. Writes CSV (phase, step, KiB), prints a
// summary line and exits 1 when either phase grew by more than the limit.
//
//   mpirun -np 4 ccl-soak [--collectives N] [--groups M] [--limit-kib K] [--csv FILE]
//   [--keep-groups]
// --keep-groups holds on to every group instead of freeing it: what a leak of groups looks like
// (the test suite uses it to show the soak can fail).
#include <mpi.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "ccl/ccl.hpp"

namespace {

struct Options {
  long collectives = 1000000;
  long groups = 10000;
  long limit_kib = 1024;
  std::string csv;
  bool keep_groups = false;
};

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--keep-groups") {
      o.keep_groups = true;
      continue;
    }
    if (i + 1 >= argc)
      throw ccl::Error(
          "ccl-soak: " + a +
          " needs a value (--collectives N, --groups M, --limit-kib K, --csv FILE, --keep-groups)");
    const std::string v = argv[++i];
    auto count = [&] {
      std::size_t used = 0;
      long n = -1;
      try {
        n = std::stol(v, &used);
      } catch (const std::exception&) {
      }
      if (used != v.size() || n < 10)
        throw ccl::Error("ccl-soak: " + a + " needs an integer of at least 10, not '" + v + "'");
      return n;
    };
    if (a == "--collectives") {
      o.collectives = count();
    } else if (a == "--groups") {
      o.groups = count();
    } else if (a == "--limit-kib") {
      o.limit_kib = count();
    } else if (a == "--csv") {
      o.csv = v;
    } else {
      throw ccl::Error("ccl-soak: unknown option '" + a + "'");
    }
  }
  return o;
}

// This process's resident set in KiB (Linux: /proc/self/statm, second field, in pages).
long resident_kib() {
  std::ifstream statm("/proc/self/statm");
  long size = 0, resident = 0;
  statm >> size >> resident;
  return resident * (sysconf(_SC_PAGESIZE) / 1024);
}

void expect(bool ok, const char* what, long step) {
  if (!ok)
    throw ccl::Error(std::string("ccl-soak: wrong result of ") + what + " at step " +
                     std::to_string(step));
}

// Collective `step` of phase 1: one of the ten kinds (two nonblocking at once every 11th).
void small_collective(const ccl::Group& w, long step) {
  const int P = w.size(), r = w.rank();
  const int root = static_cast<int>(step / 11 % P);
  const std::int64_t s = step;
  std::vector<std::int64_t> all(static_cast<std::size_t>(P));
  std::int64_t one = 0;
  switch (step % 11) {
    case 0:
      one = r == root ? s : -1;
      ccl::bcast(w, std::span(&one, 1), root);
      expect(one == s, "bcast", step);
      break;
    case 1: {
      const std::int64_t mine = s + r;
      ccl::reduce(w, std::span(&mine, 1), std::span(&one, 1), ccl::sum, root);
      expect(r != root || one == s * P + std::int64_t{P} * (P - 1) / 2, "reduce", step);
      break;
    }
    case 2:
      expect(ccl::combine_value(w, s + r, ccl::max) == s + P - 1, "combine", step);
      break;
    case 3: {
      std::vector<std::int64_t> blocks(static_cast<std::size_t>(P));
      for (int i = 0; i < P; ++i) blocks[static_cast<std::size_t>(i)] = s + i;
      ccl::scatter(w, blocks, std::span(&one, 1), root);
      expect(one == s + r, "scatter", step);
      break;
    }
    case 4: {
      const std::int64_t mine = s + r;
      ccl::gather(w, std::span(&mine, 1), all, root);
      expect(r != root || all.back() == s + P - 1, "gather", step);
      break;
    }
    case 5: {
      const std::int64_t mine = s + r;
      ccl::concat(w, std::span(&mine, 1), all);
      expect(all.front() == s && all.back() == s + P - 1, "concat", step);
      break;
    }
    case 6: {
      std::vector<std::int64_t> out(static_cast<std::size_t>(P));
      for (int i = 0; i < P; ++i) out[static_cast<std::size_t>(i)] = s * 1000 + r * 10 + i;
      ccl::index(w, out, all);
      expect(all[0] == s * 1000 + r && all.back() == s * 1000 + (P - 1) * 10 + r, "index", step);
      break;
    }
    case 7: {
      const std::int64_t mine = 1;
      ccl::prefix(w, std::span(&mine, 1), std::span(&one, 1), ccl::sum);
      expect(one == r + 1, "prefix", step);
      break;
    }
    case 8: {
      const std::int64_t mine = s + r;
      ccl::shift(w, std::span(&mine, 1), std::span(&one, 1), 1);
      expect(one == s + (r + P - 1) % P, "shift", step);
      break;
    }
    case 9:
      ccl::sync(w);
      break;
    default: {
      const std::int64_t mine = s + r;
      std::int64_t low = 0, b = r == root ? s : -1;
      ccl::Request a = ccl::icombine(w, std::span(&mine, 1), std::span(&low, 1), ccl::min);
      ccl::Request c = ccl::ibcast(w, std::span(&b, 1), root);
      c.wait();
      a.wait();
      expect(low == s && b == s, "icombine + ibcast", step);
    }
  }
}

// Group `step` of phase 2, used once (the caller frees it): a partition in two, or an explicit
// group of all but one rank (which one rotates), each checked with a combine.
ccl::Group make_group(const ccl::Group& w, long step) {
  const int P = w.size(), r = w.rank();
  if (step % 2 == 0) {
    const ccl::Group half = ccl::partition(w, r % 2, -r, "soak-half");
    const int expected = (P - r % 2 + 1) / 2;  // members of my color
    expect(ccl::combine_value(half, 1, ccl::sum) == expected, "partition + combine", step);
    return half;
  }
  const int left_out = static_cast<int>(step / 2 % P);
  if (P > 1 && r == left_out) return {};
  std::vector<int> list;
  for (int i = 0; i < P; ++i) {
    if (P == 1 || i != left_out) list.push_back(i);
  }
  const ccl::Group g = ccl::group(list, "soak-list");
  expect(ccl::combine_value(g, 1, ccl::sum) == static_cast<int>(list.size()),
         "explicit group + combine", step);
  return g;
}

struct Phase {
  const char* name;
  long steps;
  long warm_kib = 0, end_kib = 0;
  double seconds = 0;
};

template <class Step>
void run_phase(const ccl::Group& w, Phase& phase, std::vector<std::string>& rows, Step step) {
  const long every = std::max(1L, phase.steps / 50);
  ccl::sync(w);
  const auto start = std::chrono::steady_clock::now();
  for (long i = 0; i < phase.steps; ++i) {
    step(i);
    if ((i + 1) % every != 0 && i + 1 != phase.steps) continue;
    const long kib = ccl::combine_value(w, resident_kib(), ccl::max);
    rows.push_back(std::string(phase.name) + "," + std::to_string(i + 1) + "," +
                   std::to_string(kib));
    if (phase.warm_kib == 0 && i + 1 >= phase.steps / 10) phase.warm_kib = kib;
    phase.end_kib = kib;
  }
  phase.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

int main(int argc, char** argv) {
  ccl::Environment env(argc, argv);
  const ccl::Group w = ccl::world();
  try {
    const Options o = parse(argc, argv);
    std::vector<std::string> rows;
    Phase calls{"collectives", o.collectives};
    Phase groups{"groups", o.groups};
    run_phase(w, calls, rows, [&](long i) { small_collective(w, i); });
    std::vector<ccl::Group> kept;
    run_phase(w, groups, rows, [&](long i) {
      ccl::Group g = make_group(w, i);
      if (o.keep_groups) kept.push_back(std::move(g));
    });
    const long calls_growth = calls.end_kib - calls.warm_kib;
    const long groups_growth = groups.end_kib - groups.warm_kib;
    const bool flat = calls_growth <= o.limit_kib && groups_growth <= o.limit_kib;
    if (w.rank() == 0) {
      if (!o.csv.empty()) {
        std::ofstream csv(o.csv);
        csv << "phase,step,resident_kib\n";
        for (const std::string& row : rows) csv << row << "\n";
      }
      std::printf(
          "soak np=%d: %ld collectives (%.2f us each), %ld groups made and %s (%.1f us each); "
          "resident memory after warm-up: %ld -> %ld KiB (%+ld), %ld -> %ld KiB (%+ld); limit %ld "
          "KiB: %s\n",
          w.size(), calls.steps, calls.seconds * 1e6 / double(calls.steps), groups.steps,
          o.keep_groups ? "kept" : "freed", groups.seconds * 1e6 / double(groups.steps),
          calls.warm_kib, calls.end_kib, calls_growth, groups.warm_kib, groups.end_kib,
          groups_growth, o.limit_kib, flat ? "flat" : "GROWS");
    }
    return flat ? 0 : 1;
  } catch (const ccl::Error& e) {
    // A bad flag fails alike on every rank; a wrong result may be seen by one rank only, whose
    // peers would wait for it: end the whole job.
    std::fprintf(stderr, "%s\n", e.what());
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  return 2;
}
