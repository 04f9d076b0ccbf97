// ccl-bench-collectives: each ccl collective against Open MPI's own equivalent, in the same run,
// on the same buffers, for 8 B to 1 MiB per member (the MPI count × 8 bytes: the vector of
// bcast/reduce/combine/prefix/shift, one member's block for scatter/gather/concat/index).
// Repetitions alternate ccl and MPI; each time is the slowest rank's mean per call, best of the
// repetitions. Writes CSV (ratio = ccl time / MPI time) and prints a one-line summary.
//
//   mpirun -np 4 ccl-bench-collectives [--csv FILE] [--max-bytes N] [--reps N] [--quick]
#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include "ccl/ccl.hpp"

namespace {

struct Options {
  std::string csv;
  std::size_t max_bytes = std::size_t{1} << 20;
  int reps = 3;
  bool quick = false;
};

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) throw ccl::Error("ccl-bench-collectives: " + a + " needs a value");
      return argv[++i];
    };
    if (a == "--csv") {
      o.csv = next();
    } else if (a == "--max-bytes") {
      o.max_bytes = std::stoul(next());
    } else if (a == "--reps") {
      o.reps = std::max(1, std::stoi(next()));
    } else if (a == "--quick") {
      o.quick = true;
    } else {
      throw ccl::Error("ccl-bench-collectives: unknown option '" + a +
                       "' (use --csv FILE, --max-bytes N, --reps N, --quick)");
    }
  }
  return o;
}

// Slowest rank's mean seconds per call of f over `iters` calls.
double time_calls(const std::function<void()>& f, int iters) {
  MPI_Barrier(MPI_COMM_WORLD);
  const auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < iters; ++i) f();
  const double mine =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() / iters;
  double slowest = 0;
  MPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return slowest;
}

struct Case {
  std::string name, mpi;
  std::function<void()> ccl_call, mpi_call;
  std::function<bool()> same_result;  // after one call of each: do they agree?
};

struct Buffers {
  std::vector<double> send, recv, recv_mpi;
};

}  // namespace

int main(int argc, char** argv) {
  ccl::Environment env(argc, argv);
  const ccl::Group w = ccl::world();
  const int P = w.size(), r = w.rank();
  const auto Pn = static_cast<std::size_t>(P);
  Options opt;
  try {
    opt = parse(argc, argv);
  } catch (const std::exception& e) {
    if (r == 0) std::fprintf(stderr, "%s\n", e.what());
    return 2;
  }

  FILE* csv = nullptr;
  if (r == 0 && !opt.csv.empty()) {
    csv = std::fopen(opt.csv.c_str(), "w");
    if (csv == nullptr) {
      std::fprintf(stderr, "ccl-bench-collectives: cannot write %s\n", opt.csv.c_str());
      MPI_Abort(MPI_COMM_WORLD, 2);
    }
    std::fprintf(csv, "collective,mpi,ranks,bytes,ccl_us,mpi_us,ratio,ccl_algorithm\n");
  }

  double log_ratio_sum = 0;
  int cases = 0, ccl_faster = 0, mismatches = 0;
  const int root = P - 1;
  for (std::size_t bytes : {8, 64, 512, 4096, 32768, 262144, 1048576}) {
    if (bytes > opt.max_bytes) break;
    const std::size_t n = bytes / sizeof(double);
    Buffers b;
    b.send.resize(n * Pn);
    for (std::size_t i = 0; i < b.send.size(); ++i) b.send[i] = static_cast<double>((r + 1) * 1000 + i % 977);
    b.recv.assign(n * Pn, 0);
    b.recv_mpi.assign(n * Pn, 0);
    const int cnt = static_cast<int>(n);
    auto sv = [&](std::size_t len) { return std::span<const double>(b.send.data(), len); };
    auto rv = [&](std::size_t len) { return std::span<double>(b.recv.data(), len); };
    auto same = [&](std::size_t len) {
      return std::equal(b.recv.begin(), b.recv.begin() + static_cast<std::ptrdiff_t>(len), b.recv_mpi.begin());
    };
    std::vector<Case> list{
        {"bcast", "MPI_Bcast", [&] { ccl::bcast(w, rv(n), root); },
         [&] { MPI_Bcast(b.recv_mpi.data(), cnt, MPI_DOUBLE, root, MPI_COMM_WORLD); },
         [&] { return same(n); }},
        {"reduce", "MPI_Reduce", [&] { ccl::reduce(w, sv(n), rv(n), ccl::sum, root); },
         [&] { MPI_Reduce(b.send.data(), b.recv_mpi.data(), cnt, MPI_DOUBLE, MPI_SUM, root, MPI_COMM_WORLD); },
         [&] { return r != root || same(n); }},
        {"combine", "MPI_Allreduce", [&] { ccl::combine(w, sv(n), rv(n), ccl::sum); },
         [&] { MPI_Allreduce(b.send.data(), b.recv_mpi.data(), cnt, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD); },
         [&] { return same(n); }},
        {"scatter", "MPI_Scatter", [&] { ccl::scatter(w, sv(n * Pn), rv(n), root); },
         [&] { MPI_Scatter(b.send.data(), cnt, MPI_DOUBLE, b.recv_mpi.data(), cnt, MPI_DOUBLE, root, MPI_COMM_WORLD); },
         [&] { return same(n); }},
        {"gather", "MPI_Gather", [&] { ccl::gather(w, sv(n), rv(n * Pn), root); },
         [&] { MPI_Gather(b.send.data(), cnt, MPI_DOUBLE, b.recv_mpi.data(), cnt, MPI_DOUBLE, root, MPI_COMM_WORLD); },
         [&] { return r != root || same(n * Pn); }},
        {"concat", "MPI_Allgather", [&] { ccl::concat(w, sv(n), rv(n * Pn)); },
         [&] { MPI_Allgather(b.send.data(), cnt, MPI_DOUBLE, b.recv_mpi.data(), cnt, MPI_DOUBLE, MPI_COMM_WORLD); },
         [&] { return same(n * Pn); }},
        {"index", "MPI_Alltoall", [&] { ccl::index(w, sv(n * Pn), rv(n * Pn)); },
         [&] { MPI_Alltoall(b.send.data(), cnt, MPI_DOUBLE, b.recv_mpi.data(), cnt, MPI_DOUBLE, MPI_COMM_WORLD); },
         [&] { return same(n * Pn); }},
        {"prefix", "MPI_Scan", [&] { ccl::prefix(w, sv(n), rv(n), ccl::sum); },
         [&] { MPI_Scan(b.send.data(), b.recv_mpi.data(), cnt, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD); },
         [&] { return same(n); }},
        {"shift", "MPI_Sendrecv", [&] { ccl::shift(w, sv(n), rv(n), 1); },
         [&] {
           MPI_Sendrecv(b.send.data(), cnt, MPI_DOUBLE, (r + 1) % P, 0, b.recv_mpi.data(), cnt, MPI_DOUBLE,
                        (r - 1 + P) % P, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
         },
         [&] { return same(n); }},
    };
    if (bytes == 8) {
      list.push_back({"sync", "MPI_Barrier", [&] { ccl::sync(w); }, [&] { MPI_Barrier(MPI_COMM_WORLD); },
                      [] { return true; }});
    }
    const int iters = opt.quick ? 2 : static_cast<int>(std::clamp<std::size_t>((std::size_t{4} << 20) / (bytes * Pn), 10, 2000));
    for (const Case& c : list) {
      c.ccl_call();
      c.mpi_call();
      const int ok = c.same_result() ? 1 : 0;
      int all_ok = 0;
      MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
      if (!all_ok) ++mismatches;
      double best_ccl = 1e30, best_mpi = 1e30;
      for (int rep = 0; rep < opt.reps; ++rep) {
        best_ccl = std::min(best_ccl, time_calls(c.ccl_call, iters));
        best_mpi = std::min(best_mpi, time_calls(c.mpi_call, iters));
      }
      const double ratio = best_ccl / best_mpi;
      log_ratio_sum += std::log(ratio);
      ++cases;
      if (ratio < 1) ++ccl_faster;
      if (csv != nullptr) {
        std::string algo;
        for (int k = 0; k < ccl::kCollKinds; ++k) {
          if (ccl::name(static_cast<ccl::CollKind>(k)) == c.name) {
            algo = std::string(ccl::statistics().of(static_cast<ccl::CollKind>(k)).algorithm);
          }
        }
        std::fprintf(csv, "%s,%s,%d,%zu,%.3f,%.3f,%.4f,%s\n", c.name.c_str(), c.mpi.c_str(), P,
                     c.name == "sync" ? std::size_t{0} : bytes, best_ccl * 1e6, best_mpi * 1e6,
                     ratio, algo.c_str());
      }
    }
  }
  if (csv != nullptr) std::fclose(csv);
  if (r == 0) {
    std::printf(
        "ccl-bench-collectives: %d ranks, %d cases, geometric-mean time ratio ccl/MPI = %.2f, "
        "ccl faster in %d, result mismatches %d\n",
        P, cases, std::exp(log_ratio_sum / std::max(cases, 1)), ccl_faster, mismatches);
  }
  return mismatches == 0 ? 0 : 1;
}
