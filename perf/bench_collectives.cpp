// ccl-bench-collectives: each of the ten ccl collectives (model-selected algorithm) against the MPI
// library's own equivalent, in the same run, on the same buffers, for 8 B to 4 MiB per member.
// Bytes per member: the vector of bcast/reduce/combine/prefix/shift, one member's block for
// scatter/gather/concat, a member's whole send buffer for index.
//
// Two methods, each a column of the CSV:
//  - per call (the headline, as IMB and OSU time it): each call alone between barriers, the
//    root of rooted calls rotating from call to call; the mean over ranks (and the slowest
//    rank's) of each rank's mean time per call in a block;
//  - stream: blocks of back-to-back calls with one root, the slowest rank's mean per call (an
//    application's loop; a root may run ahead of its leaves).
// Each is the median over blocks: the whole range of sizes is swept several times and each case
// repeated within a sweep, ccl and MPI in turn (who goes first alternates), so that a slow spell
// of a shared machine hits both; the ratio is the median of the ratios of blocks timed one after
// the other. Results must agree (checked at one root, each into its own output buffer). With
// --cold-cache, call i uses the i-th of as many copies of the buffers as fill 64 MiB (more than
// this machine's last-level cache), so no call finds its data in cache. With --barrier ccl runs
// in barrier mode (its cost: the same run without it). Per call, each library's calls are timed
// between its own barriers, as under IMB (--mpi-barrier: ccl's between the MPI library's too).
// With --persistent ccl's persistent form (bound once per root, then start + wait) is also timed
// per call against its blocking form.
//
// Writes CSV (ratio = ccl time / MPI time, the model's prediction, bus bandwidth in the
// nccl-tests convention) and prints a summary line: median and worst ratio per method, and how
// often the model's prediction is within a factor 2 of the measured ccl time (stream).
//
//   mpirun -np 4 ccl-bench-collectives [--csv FILE] [--min-bytes N] [--max-bytes N]
//   [--only COLL[,COLL...]] [--reps N] [--sweeps N] [--quick] [--cold-cache] [--barrier]
//   [--mpi-barrier] [--persistent] [--peer NAME]
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "bench_common.hpp"
#include "ccl/ccl.hpp"
#include "ccl/selection.hpp"

namespace {

// --only names collectives as ccl does (bcast, combine, ...).
BenchOptions parse(int argc, char** argv) {
  return parse_bench_options(argc, argv, "ccl-bench-collectives", [](const std::string& coll) {
    for (int k = 0; k <= static_cast<int>(ccl::CollKind::sync); ++k)
      if (ccl::name(static_cast<ccl::CollKind>(k)) == coll) return true;
    return false;
  });
}

// A call is f(root, copy): the root of rooted calls, and which copy of the buffers it uses.
using CallAt = std::function<void(int, std::size_t)>;

struct Case {
  ccl::CollKind kind;
  CallAt ccl_call, mpi_call;
  std::function<bool()> same_result;  // after one call of each: do they agree?
  ccl::Shape shape;                   // for the model's prediction
  double bus_factor;                  // busbw = bytes · factor / time (nccl-tests convention)
  std::function<ccl::Persistent(int)> bind{};  // the ccl call bound at a root (--persistent)
};

// One measured case: its times (seconds per call) in every sweep and repetition.
struct Result {
  ccl::CollKind kind;
  std::size_t bytes;
  ccl::Shape shape;
  double bus_bytes;                                         // bytes · bus factor
  PerCallSamples ccl_each{}, mpi_each{}, mpi_each_again{};  // per call (the MPI's twice: A/A)
  std::vector<double> ccl_stream{}, mpi_stream{}, mpi_stream_again{};
  PerCallSamples persistent{}, blocking{}, blocking_again{};  // --persistent: ccl's two forms
};

// Copies of a buffer of `elems` doubles per call: one, or with a cold cache as many as fill
// 64 MiB (at least two), so that call i's copy i % copies was evicted since it was last used.
std::size_t copies_for(std::size_t elems, bool cold) {
  constexpr std::size_t kRegion = std::size_t{64} << 20;
  return cold ? std::max<std::size_t>(2, kRegion / std::max<std::size_t>(elems * sizeof(double), 1))
              : 1;
}

}  // namespace

int run(int argc, char** argv);

// A ccl::Error (a CCL_ALGO_* override that does not apply to some size, say) ends the job with its
// message and a non-zero exit instead of an abort; members select alike, so all of them throw.
int main(int argc, char** argv) {
  ccl::Environment env(argc, argv);
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "ccl-bench-collectives: rank %d: %s\n", ccl::world().rank(), e.what());
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  return 2;
}

int run(int argc, char** argv) {
  const ccl::Group w = ccl::world();
  const int P = w.size(), r = w.rank();
  const auto Pn = static_cast<std::size_t>(P);
  BenchOptions opt;
  try {
    opt = parse(argc, argv);
  } catch (const std::exception& e) {
    if (r == 0) std::fprintf(stderr, "%s\n", e.what());
    return 2;
  }
  const std::string peer = opt.peer.empty() ? kPeerMpi : opt.peer;
  if (opt.barrier) ccl::set_barrier_mode(true);
  // Per call, each library between its own barriers (bench_common.hpp, time_each_call).
  const std::function<void()> ccl_barrier =
      opt.mpi_barrier ? std::function<void()>(mpi_barrier) : [&w] { ccl::sync(w); };

  FILE* csv = open_csv(opt.csv, "ccl-bench-collectives",
                       "collective,mpi,ranks,bytes,ccl_us,mpi_us,ratio,predicted_us,ccl_busbw_GBs,"
                       "mpi_busbw_GBs,ccl_algorithm,mpi_again_us,aa_ratio,ccl_max_us,mpi_max_us,"
                       "ccl_stream_us,mpi_stream_us,stream_ratio,peer,cache,barrier,persistent_us,"
                       "blocking_us,persistent_ratio");

  std::vector<Result> results;  // in order of the first sweep
  int mismatches = 0;
  const int check_root = P - 1;  // results are checked, and streams timed, at this root
  const double nm1 = static_cast<double>(P - 1);
  for (int sweep = 0; sweep < opt.sweeps; ++sweep) {
    std::size_t next = 0;
    for (std::size_t bytes : kBytesPerMember) {
      if (bytes > opt.max_bytes) break;
      if (bytes < opt.min_bytes) continue;
      const std::size_t n = bytes / sizeof(double);
      const std::size_t idx = std::max<std::size_t>(n / Pn, 1);  // index: block per destination
      const std::size_t len = std::max(n * Pn, idx * Pn);        // doubles in one buffer copy
      const std::size_t copies = copies_for(2 * len, opt.cold_cache);
      std::vector<double> send(len * copies), recv(len * copies), recv_mpi(len);
      for (std::size_t i = 0; i < send.size(); ++i)
        send[i] = static_cast<double>((r + 1) * 1000 + i % len % 977);
      const int cnt = static_cast<int>(n), icnt = static_cast<int>(idx);
      auto in = [&](std::size_t c) { return send.data() + c * len; };
      auto out = [&](std::size_t c) { return recv.data() + c * len; };
      auto sv = [&](std::size_t c, std::size_t m) { return std::span<const double>(in(c), m); };
      auto rv = [&](std::size_t c, std::size_t m) { return std::span<double>(out(c), m); };
      // The MPI library writes into recv_mpi for the check of the results (sweep 0), and into
      // recv, as ccl does, while timed: two output buffers made timing unfair by a few percent at
      // 1-4 MiB (MPI_Sendrecv timed in ccl's place, into recv, ran at 1.02-1.17x itself into
      // recv_mpi; 1.00-1.02x when both wrote recv_mpi).
      bool checking = false;
      auto mout = [&](std::size_t c) { return checking ? recv_mpi.data() : out(c); };
      auto same = [&](std::size_t m) {
        return std::equal(recv.begin(), recv.begin() + static_cast<std::ptrdiff_t>(m),
                          recv_mpi.begin());
      };
      auto shape = [&](ccl::CollKind k, std::size_t count) {
        ccl::Shape s;
        s.kind = k;
        s.size = P;
        s.root = ccl::is_rooted(k) ? check_root : 0;
        s.elem = sizeof(double);
        s.count = count;
        s.distance = 1;
        return s;
      };
      using K = ccl::CollKind;
      const MPI_Comm world = MPI_COMM_WORLD;
      std::vector<Case> list{
          // The root sends from its send buffer, which nothing writes (IMB's way): data it had
          // just received into would sit half in the other core's cache after a split transfer.
          {K::bcast,
           [&](int root, std::size_t c) {
             ccl::bcast(w, r == root ? std::span<double>(in(c), n) : rv(c, n), root);
           },
           [&](int root, std::size_t c) {
             MPI_Bcast(r == root ? in(c) : mout(c), cnt, MPI_DOUBLE, root, world);
           },
           [&] { return r == check_root || same(n); }, shape(K::bcast, n), 1.0},
          {K::reduce,
           [&](int root, std::size_t c) { ccl::reduce(w, sv(c, n), rv(c, n), ccl::sum, root); },
           [&](int root, std::size_t c) {
             MPI_Reduce(in(c), mout(c), cnt, MPI_DOUBLE, MPI_SUM, root, world);
           },
           [&] { return r != check_root || same(n); }, shape(K::reduce, n), 1.0},
          {K::combine, [&](int, std::size_t c) { ccl::combine(w, sv(c, n), rv(c, n), ccl::sum); },
           [&](int, std::size_t c) {
             MPI_Allreduce(in(c), mout(c), cnt, MPI_DOUBLE, MPI_SUM, world);
           },
           [&] { return same(n); }, shape(K::combine, n), 2 * nm1 / P},
          {K::scatter,
           [&](int root, std::size_t c) { ccl::scatter(w, sv(c, n * Pn), rv(c, n), root); },
           [&](int root, std::size_t c) {
             MPI_Scatter(in(c), cnt, MPI_DOUBLE, mout(c), cnt, MPI_DOUBLE, root, world);
           },
           [&] { return same(n); }, shape(K::scatter, n), nm1},
          {K::gather,
           [&](int root, std::size_t c) { ccl::gather(w, sv(c, n), rv(c, n * Pn), root); },
           [&](int root, std::size_t c) {
             MPI_Gather(in(c), cnt, MPI_DOUBLE, mout(c), cnt, MPI_DOUBLE, root, world);
           },
           [&] { return r != check_root || same(n * Pn); }, shape(K::gather, n), nm1},
          {K::concat, [&](int, std::size_t c) { ccl::concat(w, sv(c, n), rv(c, n * Pn)); },
           [&](int, std::size_t c) {
             MPI_Allgather(in(c), cnt, MPI_DOUBLE, mout(c), cnt, MPI_DOUBLE, world);
           },
           [&] { return same(n * Pn); }, shape(K::concat, n), nm1},
          {K::index, [&](int, std::size_t c) { ccl::index(w, sv(c, idx * Pn), rv(c, idx * Pn)); },
           [&](int, std::size_t c) {
             MPI_Alltoall(in(c), icnt, MPI_DOUBLE, mout(c), icnt, MPI_DOUBLE, world);
           },
           [&] { return same(idx * Pn); }, shape(K::index, idx), nm1 / P},
          {K::prefix, [&](int, std::size_t c) { ccl::prefix(w, sv(c, n), rv(c, n), ccl::sum); },
           [&](int, std::size_t c) { MPI_Scan(in(c), mout(c), cnt, MPI_DOUBLE, MPI_SUM, world); },
           [&] { return same(n); }, shape(K::prefix, n), 1.0},
          {K::shift, [&](int, std::size_t c) { ccl::shift(w, sv(c, n), rv(c, n), 1); },
           [&](int, std::size_t c) {
             MPI_Sendrecv(in(c), cnt, MPI_DOUBLE, (r + 1) % P, 0, mout(c), cnt, MPI_DOUBLE,
                          (r - 1 + P) % P, 0, world, MPI_STATUS_IGNORE);
           },
           [&] { return same(n); }, shape(K::shift, n), 1.0},
      };
      if (bytes == 8) {
        list.push_back({K::sync, [&](int, std::size_t) { ccl::sync(w); },
                        [&](int, std::size_t) { MPI_Barrier(world); }, [] { return true; },
                        shape(K::sync, 0), 0.0});
      }
      // The persistent forms (copy 0's buffers), bound once per root.
      for (Case& c : list) {
        switch (c.kind) {
          case K::bcast:
            c.bind = [&](int root) {
              return ccl::bcast_init(w, r == root ? std::span<double>(in(0), n) : rv(0, n), root);
            };
            break;
          case K::reduce:
            c.bind = [&](int root) {
              return ccl::reduce_init(w, sv(0, n), rv(0, n), ccl::sum, root);
            };
            break;
          case K::combine:
            c.bind = [&](int) { return ccl::combine_init(w, sv(0, n), rv(0, n), ccl::sum); };
            break;
          case K::scatter:
            c.bind = [&](int root) { return ccl::scatter_init(w, sv(0, n * Pn), rv(0, n), root); };
            break;
          case K::gather:
            c.bind = [&](int root) { return ccl::gather_init(w, sv(0, n), rv(0, n * Pn), root); };
            break;
          case K::concat:
            c.bind = [&](int) { return ccl::concat_init(w, sv(0, n), rv(0, n * Pn)); };
            break;
          case K::index:
            c.bind = [&](int) { return ccl::index_init(w, sv(0, idx * Pn), rv(0, idx * Pn)); };
            break;
          case K::prefix:
            c.bind = [&](int) { return ccl::prefix_init(w, sv(0, n), rv(0, n), ccl::sum); };
            break;
          case K::shift:
            c.bind = [&](int) { return ccl::shift_init(w, sv(0, n), rv(0, n), 1); };
            break;
          default:
            c.bind = [&](int) { return ccl::sync_init(w); };
        }
      }
      if (!opt.only.empty()) {
        std::erase_if(list, [&](const Case& c) {
          return std::find(opt.only.begin(), opt.only.end(), ccl::name(c.kind)) == opt.only.end();
        });
      }
      const int iters = opt.quick ? 2 : calls_per_block(bytes * Pn);
      for (Case& c : list) {
        if (c.kind == K::sync) c.shape.elem = 1;
        if (sweep == 0) {
          // Outputs start different, so that what a call leaves unwritten is a mismatch; the
          // root's vector is bcast's input.
          std::fill_n(recv.begin(), len, -1.0);
          std::fill(recv_mpi.begin(), recv_mpi.end(), -2.0);
          if (r == check_root) {
            std::copy_n(send.begin(), n, recv.begin());
            std::copy_n(send.begin(), n, recv_mpi.begin());
          }
          checking = true;
          c.ccl_call(check_root, 0);
          c.mpi_call(check_root, 0);
          checking = false;
          const int ok = c.same_result() ? 1 : 0;
          int all_ok = 0;
          MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
          if (!all_ok) ++mismatches;
          const double moved =
              static_cast<double>(c.kind == K::index ? idx * Pn * sizeof(double) : bytes);
          results.push_back(Result{.kind = c.kind,
                                   .bytes = c.kind == K::sync ? std::size_t{0} : bytes,
                                   .shape = c.shape,
                                   .bus_bytes = moved * c.bus_factor});
        }
        Result& res = results[next++];
        // Per call: call i at root i mod P (IMB rotates the root so), copy i mod copies.
        auto each = [&](const CallAt& f) {
          return [&f, P, copies](int i) { f(i % P, static_cast<std::size_t>(i) % copies); };
        };
        time_each_in_turns(each(c.ccl_call), each(c.mpi_call), iters, opt.reps, res.ccl_each,
                           res.mpi_each, res.mpi_each_again, ccl_barrier);
        if (opt.persistent) {
          // Persistent against blocking, per call at rotating roots, on copy 0's buffers.
          std::vector<ccl::Persistent> bound;
          for (int root = 0; root < P; ++root) bound.push_back(c.bind(root));
          auto started = [&](int i) {
            ccl::Persistent& p = bound[static_cast<std::size_t>(i % P)];
            p.start();
            p.wait();
          };
          auto blocking = [&](int i) { c.ccl_call(i % P, 0); };
          time_each_in_turns(started, blocking, iters, opt.reps, res.persistent, res.blocking,
                             res.blocking_again, ccl_barrier, ccl_barrier);
        }
        // Streams: one root; the copies still rotate.
        std::size_t call = 0;
        auto stream = [&](const CallAt& f) {
          return [&f, &call, copies, check_root] { f(check_root, call++ % copies); };
        };
        time_in_turns(stream(c.ccl_call), stream(c.mpi_call), iters, opt.reps, res.ccl_stream,
                      res.mpi_stream, res.mpi_stream_again);
      }
    }
  }

  std::vector<double> ratios, stream_ratios, aa_ratios, persistent_ratios;
  int within_2x = 0;
  for (const Result& res : results) {
    // Medians: a lucky block no more decides a case than a slow one does (with more ranks than
    // cores a few blocks may run far faster than is typical, more often for one algorithm than
    // another). The ratio pairs each of ccl's blocks with the MPI's next to it.
    const double ccl_time = median(res.ccl_each.avg), mpi_time = median(res.mpi_each.avg);
    const double ratio = paired_ratio(res.ccl_each.avg, res.mpi_each.avg);
    ratios.push_back(ratio);
    const double stream_ratio = paired_ratio(res.ccl_stream, res.mpi_stream);
    stream_ratios.push_back(stream_ratio);
    const double aa_ratio = paired_ratio(res.mpi_each_again.avg, res.mpi_each.avg);
    aa_ratios.push_back(std::max(aa_ratio, 1 / aa_ratio));
    // The model prices a call alone (calibration times calls so), so it is checked there.
    const ccl::Choice choice = ccl::select(res.shape);
    const double predicted = ccl::machine_model().predict(
        choice, res.shape, choice.algorithm->selection_cost(res.shape, choice.params));
    if (predicted <= 2 * ccl_time && ccl_time <= 2 * predicted) ++within_2x;
    const double persistent_ratio =
        opt.persistent ? paired_ratio(res.persistent.avg, res.blocking.avg) : 0.0;
    if (opt.persistent) persistent_ratios.push_back(persistent_ratio);
    if (csv != nullptr) {
      std::fprintf(
          csv,
          "%s,%s,%d,%zu,%.3f,%.3f,%.4f,%.3f,%.3f,%.3f,\"%s\",%.3f,%.4f,%.3f,%.3f,%.3f,%.3f,"
          "%.4f,%s,%s,%d,%.3f,%.3f,%.4f\n",
          std::string(ccl::name(res.kind)).c_str(), std::string(ccl::mpi_name(res.kind)).c_str(), P,
          res.bytes, ccl_time * 1e6, mpi_time * 1e6, ratio, predicted * 1e6,
          res.bus_bytes / ccl_time * 1e-9, res.bus_bytes / mpi_time * 1e-9, choice.str().c_str(),
          median(res.mpi_each_again.avg) * 1e6, aa_ratio, median(res.ccl_each.max) * 1e6,
          median(res.mpi_each.max) * 1e6, median(res.ccl_stream) * 1e6,
          median(res.mpi_stream) * 1e6, stream_ratio, peer.c_str(),
          opt.cold_cache ? "cold" : "warm", opt.barrier ? 1 : 0, median(res.persistent.avg) * 1e6,
          median(res.blocking.avg) * 1e6, persistent_ratio);
    }
  }
  if (csv != nullptr) std::fclose(csv);
  if (r == 0) {
    std::printf(
        "ccl-bench-collectives: %d ranks, %zu cases, ccl/%s per call (IMB's method): median "
        "%.2f, worst %.2f, ccl faster in %ld; in streams: median %.2f, worst %.2f; model within "
        "2x of measured in %.0f%%; result mismatches %d; %s against itself (A/A): worst %.2f, "
        "%ld cases apart by more than 1.25%s%s",
        P, ratios.size(), peer.c_str(), median(ratios), worst(ratios),
        count_above(ratios, 1.0, false), median(stream_ratios), worst(stream_ratios),
        100.0 * within_2x / std::max<std::size_t>(ratios.size(), 1), mismatches, peer.c_str(),
        worst(aa_ratios), count_above(aa_ratios, 1.25, true), opt.cold_cache ? "; cold cache" : "",
        opt.barrier ? "; ccl in barrier mode" : "");
    if (opt.persistent) {
      std::printf("; ccl persistent/blocking per call: median %.2f, worst %.2f, best %.2f",
                  median(persistent_ratios), worst(persistent_ratios),
                  persistent_ratios.empty()
                      ? 0.0
                      : *std::min_element(persistent_ratios.begin(), persistent_ratios.end()));
    }
    std::printf("\n");
  }
  return mismatches == 0 ? 0 : 1;
}
