// ccl-calibrate: measures the machine model ccl selects algorithms with, on this machine, through
// ccl itself, and writes it for CCL_MODEL.
//   α  start-up: a one-message collective (shift by one) of 8 bytes, per call;
//   β  per byte: the slope of that call's time between 64 KiB and 1 MiB;
//   γ  per byte reduced: the sum kernel on 1 MiB of doubles;
//   torus links (when the job is laid out as a torus: CCL_TORUS, as a launcher sets it): α, the
//   time per link crossed, β and the links driven at once, between neighbours (torus_links.hpp);
//   per-algorithm profiles: every algorithm (each segment size of a pipeline) measured from one
//   element per member to 4 MiB, as measured / predicted at each size (algorithm_profiles.hpp).
// For α, β and γ times are the slowest rank's mean over repeated calls, the best of several
// repetitions; profiles time each call alone, as users do, over passes and, with more ranks than
// cores, placements of the ranks (algorithm_profiles.hpp). Run it at
// the rank count of the job: the profiles are measured for that many members per node.
//
//   mpirun -np 2 ccl-calibrate [--output FILE] [--quick] [--no-profiles]   (default ccl-model.txt)
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include <mpi.h>

#include "algorithm_profiles.hpp"
#include "ccl/ccl.hpp"
#include "ccl/selection.hpp"
#include "torus_links.hpp"

namespace {

// Slowest rank's seconds per call of f, best of `reps` repetitions of `iters` calls.
template <class F>
double per_call(const ccl::Group& w, int iters, int reps, F f) {
  double best = 1e30;
  for (int r = 0; r < reps; ++r) {
    ccl::sync(w);
    const double t0 = MPI_Wtime();  // simulated time under SMPI
    for (int i = 0; i < iters; ++i) f();
    const double mine = (MPI_Wtime() - t0) / iters;
    best = std::min(best, ccl::combine_value(w, mine, ccl::max));
  }
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  ccl::Environment env(argc, argv);
  const ccl::Group w = ccl::world();
  std::string output = "ccl-model.txt";
  bool quick = false, profiles = true;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--output" && i + 1 < argc) {
      output = argv[++i];
    } else if (a == "--quick") {
      quick = true;
    } else if (a == "--no-profiles") {
      profiles = false;
    } else {
      if (w.rank() == 0) {
        std::fprintf(
            stderr,
            "ccl-calibrate: unknown option '%s' (use --output FILE, --quick, --no-profiles)\n",
            a.c_str());
      }
      return 2;
    }
  }
  if (w.size() < 2) {
    std::fprintf(stderr,
                 "ccl-calibrate: run it on at least 2 ranks (mpirun -np 2 ccl-calibrate)\n");
    return 2;
  }

  auto shift_time = [&](std::size_t bytes, int iters) {
    std::vector<char> in(bytes, 1), out(bytes);
    return per_call(w, iters, 5, [&] { ccl::shift(w, in, out, 1); });
  };
  const double t_small = shift_time(8, quick ? 400 : 4000);
  const double t_mid = shift_time(64 << 10, quick ? 40 : 400);
  const double t_large = shift_time(1 << 20, quick ? 6 : 60);
  ccl::MachineModel m;
  m.beta = std::max((t_large - t_mid) / static_cast<double>((1 << 20) - (64 << 10)), 1e-12);
  m.alpha = std::max(t_small - 8 * m.beta, 1e-9);

  // γ: the reduce kernel alone, on data that fits no cache level worth speaking of.
  const std::size_t n = (1 << 20) / sizeof(double);
  std::vector<double> a(n, 1.0), b(n, 2.0);
  const ccl::ReduceKernel k = ccl::make_kernel<double>(ccl::sum);
  const double t_reduce = per_call(w, 200, 5, [&] {
    k.apply(reinterpret_cast<const std::byte*>(a.data()),
            reinterpret_cast<const std::byte*>(b.data()), reinterpret_cast<std::byte*>(b.data()),
            n);
  });
  m.gamma = t_reduce / static_cast<double>(n * sizeof(double));
  m.source = output;
  if (!w.torus().empty()) m.torus = measure_torus_links(w, quick);
  if (profiles) measure_algorithm_profiles(w, m, quick, stdout);

  if (w.rank() == 0) {
    ccl::save_machine_model(m, output);
    std::printf(
        "ccl-calibrate: %d ranks; shift 8 B %.3f us, 64 KiB %.1f us, 1 MiB %.1f us; "
        "reduce 1 MiB %.1f us\n",
        w.size(), t_small * 1e6, t_mid * 1e6, t_large * 1e6, t_reduce * 1e6);
    std::printf(
        "ccl-calibrate: alpha %.3g s, beta %.3g s/B (%.2f GB/s), gamma %.3g s/B (%.2f GB/s) -> "
        "%s\n",
        m.alpha, m.beta, 1e-9 / m.beta, m.gamma, 1e-9 / m.gamma, output.c_str());
    if (m.torus.known()) {
      std::printf(
          "ccl-calibrate: torus links: alpha %.3g s, %.3g s per link crossed, beta %.3g s/B "
          "(%.2f GB/s), %d links at once\n",
          m.torus.alpha, m.torus.hop, m.torus.beta, m.torus.beta > 0 ? 1e-9 / m.torus.beta : 0.0,
          m.torus.ports);
    }
  }
  return 0;
}
