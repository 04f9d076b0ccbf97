#include "algorithm_fit.hpp"

#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

// Buffers for one collective on doubles: `count` elements per member (per destination for index).
struct Buffers {
  std::vector<double> send, recv;
};

void run_once(ccl::CollKind k, const ccl::Group& w, Buffers& b, std::size_t count) {
  const std::size_t n = static_cast<std::size_t>(w.size());
  auto sv = [&](std::size_t len) { return std::span<const double>(b.send.data(), len); };
  auto rv = [&](std::size_t len) { return std::span<double>(b.recv.data(), len); };
  using K = ccl::CollKind;
  switch (k) {
    case K::bcast: ccl::bcast(w, rv(count), 0); break;
    case K::reduce: ccl::reduce(w, sv(count), rv(count), ccl::sum, 0); break;
    case K::combine: ccl::combine(w, sv(count), rv(count), ccl::sum); break;
    case K::scatter: ccl::scatter(w, sv(count * n), rv(count), 0); break;
    case K::gather: ccl::gather(w, sv(count), rv(count * n), 0); break;
    case K::concat: ccl::concat(w, sv(count), rv(count * n)); break;
    case K::index: ccl::index(w, sv(count * n), rv(count * n)); break;
    case K::prefix: ccl::prefix(w, sv(count), rv(count), ccl::sum); break;
    case K::shift: ccl::shift(w, sv(count), rv(count), 1); break;
    case K::sync: ccl::sync(w); break;
    default: break;
  }
}

// Slowest member's seconds per call, best of `reps` repetitions of `iters` calls.
double per_call(ccl::CollKind k, const ccl::Group& w, Buffers& b, std::size_t count, int iters, int reps) {
  run_once(k, w, b, count);  // warm: schedule built, pages touched
  double best = 1e30;
  for (int r = 0; r < reps; ++r) {
    ccl::sync(w);
    const auto t0 = Clock::now();
    for (int i = 0; i < iters; ++i) run_once(k, w, b, count);
    const double mine = std::chrono::duration<double>(Clock::now() - t0).count() / iters;
    best = std::min(best, ccl::combine_value(w, mine, ccl::max));
  }
  return best;
}

ccl::Shape shape_of(ccl::CollKind k, int n, std::size_t count) {
  ccl::Shape s;
  s.kind = k;
  s.size = n;
  s.elem = k == ccl::CollKind::sync ? 1 : sizeof(double);
  s.count = k == ccl::CollKind::sync ? 0 : count;
  s.distance = 1;
  return s;
}

}  // namespace

void fit_algorithm_factors(const ccl::Group& w, ccl::MachineModel& m, bool quick, std::FILE* log) {
  using K = ccl::CollKind;
  const int n = w.size();
  const std::size_t large_bytes = quick ? std::size_t{32} << 10 : std::size_t{256} << 10;
  const ccl::MachineModel plain{m.alpha, m.beta, m.gamma, m.source, {}};
  for (K k : {K::bcast, K::reduce, K::combine, K::scatter, K::gather, K::concat, K::index, K::prefix,
              K::shift, K::sync}) {
    // Index moves `count` elements to each destination: keep its whole buffer at large_bytes.
    const std::size_t large = std::max<std::size_t>(
        1, large_bytes / sizeof(double) / (k == K::index ? static_cast<std::size_t>(n) : 1));
    Buffers b;
    b.send.assign(large * static_cast<std::size_t>(n), 1.0);
    b.recv.assign(large * static_cast<std::size_t>(n), 0.0);
    for (const ccl::Algorithm* a : ccl::catalog()) {
      if (a->kind != k) continue;
      struct Point {
        double seconds, latency, data;
        bool small;
      };
      std::vector<Point> points;
      // The small point carries an element per member, so that pieces and blocks are not empty.
      const std::size_t small = k == K::index ? 1 : static_cast<std::size_t>(n);
      for (std::size_t count : {small, large}) {
        const ccl::Shape s = shape_of(k, n, count);
        const auto ranked = ccl::rank_candidates(s, plain);
        auto it = std::find_if(ranked.begin(), ranked.end(), [&](const ccl::Candidate& c) { return c.choice.algorithm == a; });
        if (it == ranked.end()) continue;  // e.g. a pipeline that needs several segments
        const bool is_small = count == small;
        ccl::set_override(k, it->choice.str());
        const std::size_t bytes = count * sizeof(double) * static_cast<std::size_t>(n);
        const int iters = is_small ? (quick ? 40 : 300)
                                     : static_cast<int>(std::clamp<std::size_t>((std::size_t{16} << 20) / bytes, 3, 40));
        const double t = per_call(k, w, b, count, iters, quick ? 2 : 3);
        ccl::set_override(k, "");
        const ccl::Cost c = a->selection_cost(s, it->choice.params);
        points.push_back({t, m.alpha * static_cast<double>(c.c1),
                          m.beta * static_cast<double>(c.c2) + m.gamma * static_cast<double>(c.c3), is_small});
        if (k == K::sync) break;  // no data: one size tells all
      }
      if (points.empty()) continue;
      // Solve the 2x2 system. With one point: the small size gives the latency factor (sync has
      // no data); the large one alone (a pipeline needing several segments) one common factor.
      ccl::AlgorithmFactors f;
      const Point& s = points.front();
      const double det = points.size() == 2 ? s.latency * points[1].data - points[1].latency * s.data : 0;
      if (points.size() == 2 && det > 1e-30) {
        const Point& l = points[1];
        f.latency = (s.seconds * l.data - l.seconds * s.data) / det;
        f.bandwidth = (s.latency * l.seconds - l.latency * s.seconds) / det;
      } else if (s.small && s.latency > 0) {
        f.latency = (s.seconds - s.data) / s.latency;
      } else if (!s.small && s.latency + s.data > 0) {
        f.latency = f.bandwidth = s.seconds / (s.latency + s.data);  // one point: one common factor
      }
      f.latency = std::clamp(f.latency, 0.1, 50.0);
      f.bandwidth = std::clamp(f.bandwidth, 0.1, 50.0);
      m.factors[ccl::MachineModel::factors_key(*a)] = f;
      if (log != nullptr && w.rank() == 0) {
        std::fprintf(log, "ccl-calibrate: %-8s %-20s small %9.2f us, large %9.1f us -> factors %.2f (alpha), %.2f (beta, gamma)\n",
                     std::string(ccl::name(k)).c_str(), std::string(a->name).c_str(), s.small ? s.seconds * 1e6 : 0.0,
                     points.back().small ? 0.0 : points.back().seconds * 1e6, f.latency, f.bandwidth);
      }
    }
  }
}
