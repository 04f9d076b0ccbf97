// ccl-bench-drop-in: a plain MPI program (no ccl in it) that times each MPI collective the
// drop-in covers twice in the same run, on the same buffers: as MPI_X, which libccl_mpi runs on
// ccl when it is preloaded, and as PMPI_X, which is always Open MPI's own. Without the drop-in
// both are Open MPI, and the ratios measure only the noise.
//
// Sizes, timing and ratios as in ccl-bench-collectives (8 B to 4 MiB per member; blocks of
// calls, the slowest rank's mean per call, medians over sweeps and repetitions, the ratio
// paired block by block; Open MPI timed a second time as the A/A control). The data are
// integers held in doubles, so sums are exact in any order and both results must agree bit for
// bit; the run fails otherwise. Each call's time includes everything the drop-in adds in front
// of ccl: finding the communicator's group, checking the arguments, packing.
//
// Writes CSV (call,ccl_collective,ranks,bytes,drop_in_us,open_mpi_us,ratio,open_mpi_again_us,
// aa_ratio) and prints a summary line.
//
//   mpirun -np 4 -x LD_PRELOAD=libccl_mpi.so ccl-bench-drop-in [--csv FILE] [--min-bytes N]
//   [--max-bytes N] [--only CALL[,CALL...]] [--reps N] [--sweeps N] [--quick]
#include <dlfcn.h>
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench_common.hpp"

namespace {

// The calls measured, with the ccl collective each becomes in the drop-in.
const char* const kCalls[][2] = {
    {"MPI_Bcast", "bcast"},         {"MPI_Reduce", "reduce"},
    {"MPI_Allreduce", "combine"},   {"MPI_Scatter", "scatter"},
    {"MPI_Gather", "gather"},       {"MPI_Allgather", "concat"},
    {"MPI_Allgatherv", "concatv"},  {"MPI_Alltoall", "index"},
    {"MPI_Alltoallv", "indexv"},    {"MPI_Scan", "prefix"},
    {"MPI_Exscan", "prefix+shift"}, {"MPI_Reduce_scatter_block", "index+local reduce"},
    {"MPI_Ibcast", "bcast"},        {"MPI_Iallreduce", "combine"},
    {"MPI_Barrier", "sync"}};

const char* ccl_collective_of(const std::string& call) {
  for (const auto& c : kCalls)
    if (call == c[0]) return c[1];
  return nullptr;
}

// The shared object MPI_Allreduce resolves to in this process: libccl_mpi when it is preloaded
// or linked first, Open MPI's libmpi otherwise.
std::string provider_of_mpi_calls() {
  Dl_info info{};
  void* f = dlsym(RTLD_DEFAULT, "MPI_Allreduce");
  if (f == nullptr || dladdr(f, &info) == 0 || info.dli_fname == nullptr) return "unknown";
  const std::string path = info.dli_fname;
  return path.substr(path.find_last_of('/') + 1);
}

struct Case {
  std::string call;
  std::function<void()> via_mpi, via_pmpi;  // the same call, on recv and on recv_pmpi
  std::size_t compared;                     // elements of the results that must agree
};

struct Result {
  std::string call;
  std::size_t bytes;
  std::vector<double> drop_in{}, open_mpi{}, open_mpi_again{};  // seconds per call, by block
};

int run(const BenchOptions& opt) {
  int P = 1, r = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &P);
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  const auto Pn = static_cast<std::size_t>(P);
  const MPI_Comm w = MPI_COMM_WORLD;
  const int root = P - 1;

  FILE* csv = open_csv(opt.csv, "ccl-bench-drop-in",
                       "call,ccl_collective,ranks,bytes,drop_in_us,open_mpi_us,ratio,"
                       "open_mpi_again_us,aa_ratio");

  std::vector<Result> results;  // in order of the first sweep
  int mismatches = 0;
  for (int sweep = 0; sweep < opt.sweeps; ++sweep) {
    std::size_t next = 0;
    for (std::size_t bytes : kBytesPerMember) {
      if (bytes > opt.max_bytes) break;
      if (bytes < opt.min_bytes) continue;
      const std::size_t n = bytes / sizeof(double);
      const std::size_t idx = std::max<std::size_t>(n / Pn, 1);  // alltoall: block per destination
      const std::size_t len = std::max(n * Pn, idx * Pn);
      std::vector<double> send(len), recv(len), recv_pmpi(len);
      for (std::size_t i = 0; i < len; ++i)
        send[i] = static_cast<double>((r + 1) * 1000 + static_cast<int>(i % 977));
      const int cnt = static_cast<int>(n), icnt = static_cast<int>(idx);
      const std::vector<int> counts(Pn, cnt), icounts(Pn, icnt);
      std::vector<int> displs(Pn), idispls(Pn);
      for (std::size_t k = 0; k < Pn; ++k) {
        displs[k] = static_cast<int>(k * n);
        idispls[k] = static_cast<int>(k * idx);
      }
      const double* s = send.data();
      double* a = recv.data();
      double* b = recv_pmpi.data();
      const MPI_Datatype D = MPI_DOUBLE;
      std::vector<Case> list{
          {"MPI_Bcast", [&] { MPI_Bcast(a, cnt, D, root, w); },
           [&] { PMPI_Bcast(b, cnt, D, root, w); }, n},
          {"MPI_Reduce", [&] { MPI_Reduce(s, a, cnt, D, MPI_SUM, root, w); },
           [&] { PMPI_Reduce(s, b, cnt, D, MPI_SUM, root, w); }, r == root ? n : 0},
          {"MPI_Allreduce", [&] { MPI_Allreduce(s, a, cnt, D, MPI_SUM, w); },
           [&] { PMPI_Allreduce(s, b, cnt, D, MPI_SUM, w); }, n},
          {"MPI_Scatter", [&] { MPI_Scatter(s, cnt, D, a, cnt, D, root, w); },
           [&] { PMPI_Scatter(s, cnt, D, b, cnt, D, root, w); }, n},
          {"MPI_Gather", [&] { MPI_Gather(s, cnt, D, a, cnt, D, root, w); },
           [&] { PMPI_Gather(s, cnt, D, b, cnt, D, root, w); }, r == root ? n * Pn : 0},
          {"MPI_Allgather", [&] { MPI_Allgather(s, cnt, D, a, cnt, D, w); },
           [&] { PMPI_Allgather(s, cnt, D, b, cnt, D, w); }, n * Pn},
          {"MPI_Allgatherv",
           [&] { MPI_Allgatherv(s, cnt, D, a, counts.data(), displs.data(), D, w); },
           [&] { PMPI_Allgatherv(s, cnt, D, b, counts.data(), displs.data(), D, w); }, n * Pn},
          {"MPI_Alltoall", [&] { MPI_Alltoall(s, icnt, D, a, icnt, D, w); },
           [&] { PMPI_Alltoall(s, icnt, D, b, icnt, D, w); }, idx * Pn},
          {"MPI_Alltoallv",
           [&] {
             MPI_Alltoallv(s, icounts.data(), idispls.data(), D, a, icounts.data(), idispls.data(),
                           D, w);
           },
           [&] {
             PMPI_Alltoallv(s, icounts.data(), idispls.data(), D, b, icounts.data(), idispls.data(),
                            D, w);
           },
           idx * Pn},
          {"MPI_Scan", [&] { MPI_Scan(s, a, cnt, D, MPI_SUM, w); },
           [&] { PMPI_Scan(s, b, cnt, D, MPI_SUM, w); }, n},
          {"MPI_Exscan", [&] { MPI_Exscan(s, a, cnt, D, MPI_SUM, w); },
           [&] { PMPI_Exscan(s, b, cnt, D, MPI_SUM, w); }, r == 0 ? 0 : n},
          // Every member's block of the sum: bytes per member is the block.
          {"MPI_Reduce_scatter_block", [&] { MPI_Reduce_scatter_block(s, a, cnt, D, MPI_SUM, w); },
           [&] { PMPI_Reduce_scatter_block(s, b, cnt, D, MPI_SUM, w); }, n},
          {"MPI_Ibcast",
           [&] {
             MPI_Request q;
             MPI_Ibcast(a, cnt, D, root, w, &q);
             MPI_Wait(&q, MPI_STATUS_IGNORE);
           },
           [&] {
             MPI_Request q;
             PMPI_Ibcast(b, cnt, D, root, w, &q);
             PMPI_Wait(&q, MPI_STATUS_IGNORE);
           },
           n},
          {"MPI_Iallreduce",
           [&] {
             MPI_Request q;
             MPI_Iallreduce(s, a, cnt, D, MPI_SUM, w, &q);
             MPI_Wait(&q, MPI_STATUS_IGNORE);
           },
           [&] {
             MPI_Request q;
             PMPI_Iallreduce(s, b, cnt, D, MPI_SUM, w, &q);
             PMPI_Wait(&q, MPI_STATUS_IGNORE);
           },
           n},
      };
      if (bytes == 8)
        list.push_back({"MPI_Barrier", [&] { MPI_Barrier(w); }, [&] { PMPI_Barrier(w); }, 0});
      if (!opt.only.empty()) {
        std::erase_if(list, [&](const Case& c) {
          return std::find(opt.only.begin(), opt.only.end(), c.call) == opt.only.end();
        });
      }
      const int iters = opt.quick ? 2 : calls_per_block(bytes * Pn);
      for (const Case& c : list) {
        if (sweep == 0) {
          std::fill(recv.begin(), recv.end(), 0.0);
          std::fill(recv_pmpi.begin(), recv_pmpi.end(), 0.0);
          // Bcast sends the root's buffer: give it the same data on both sides.
          if (r == root) {
            std::copy(send.begin(), send.end(), recv.begin());
            std::copy(send.begin(), send.end(), recv_pmpi.begin());
          }
          c.via_mpi();
          c.via_pmpi();
          const int ok = std::memcmp(a, b, c.compared * sizeof(double)) == 0 ? 1 : 0;
          int all_ok = 0;
          PMPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, w);
          if (!all_ok) {
            ++mismatches;
            if (r == 0)
              std::fprintf(stderr, "ccl-bench-drop-in: %s at %zu bytes: results differ\n",
                           c.call.c_str(), bytes);
          }
          results.push_back(Result{.call = c.call, .bytes = c.call == "MPI_Barrier" ? 0 : bytes});
        }
        Result& res = results[next++];
        time_in_turns(c.via_mpi, c.via_pmpi, iters, opt.reps, res.drop_in, res.open_mpi,
                      res.open_mpi_again);
      }
    }
  }

  std::vector<double> ratios, aa_ratios;
  const Result* slowest_case = nullptr;
  double slowest_ratio = 0;
  for (const Result& res : results) {
    const double ratio = paired_ratio(res.drop_in, res.open_mpi);
    const double aa_ratio = paired_ratio(res.open_mpi_again, res.open_mpi);
    ratios.push_back(ratio);
    aa_ratios.push_back(std::max(aa_ratio, 1 / aa_ratio));
    if (ratio > slowest_ratio) {
      slowest_ratio = ratio;
      slowest_case = &res;
    }
    if (csv != nullptr) {
      std::fprintf(csv, "%s,%s,%d,%zu,%.3f,%.3f,%.4f,%.3f,%.4f\n", res.call.c_str(),
                   ccl_collective_of(res.call), P, res.bytes, median(res.drop_in) * 1e6,
                   median(res.open_mpi) * 1e6, ratio, median(res.open_mpi_again) * 1e6, aa_ratio);
    }
  }
  if (csv != nullptr) std::fclose(csv);
  if (r == 0) {
    std::printf(
        "ccl-bench-drop-in: %d ranks, MPI_ calls from %s, %zu cases: ratio MPI_/PMPI_ (Open MPI) "
        "median %.2f, worst %.2f (%s, %zu B), faster in %ld; result mismatches %d; Open MPI "
        "against itself (A/A): worst %.2f, %ld cases apart by more than 1.25\n",
        P, provider_of_mpi_calls().c_str(), ratios.size(), median(ratios), slowest_ratio,
        slowest_case ? slowest_case->call.c_str() : "-", slowest_case ? slowest_case->bytes : 0,
        count_above(ratios, 1.0, false), mismatches, worst(aa_ratios),
        count_above(aa_ratios, 1.25, true));
  }
  return mismatches == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  BenchOptions opt;
  try {
    opt = parse_bench_options(argc, argv, "ccl-bench-drop-in", [](const std::string& call) {
      return ccl_collective_of(call) != nullptr;
    });
  } catch (const std::exception& e) {
    if (rank == 0) std::fprintf(stderr, "%s\n", e.what());
    MPI_Finalize();
    return 2;
  }
  const int status = run(opt);
  MPI_Finalize();
  return status;
}
