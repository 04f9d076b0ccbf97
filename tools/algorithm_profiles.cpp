#include "algorithm_profiles.hpp"

#include "blocks_of_calls.hpp"
#include "rank_placement.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include <mpi.h>

namespace {

// Buffers for one collective on doubles: `count` elements per member (per destination for index).
struct Buffers {
  std::vector<double> send, recv;
};

void run_once(ccl::CollKind k, const ccl::Group& w, Buffers& b, std::size_t count, int root) {
  const std::size_t n = static_cast<std::size_t>(w.size());
  auto sv = [&](std::size_t len) { return std::span<const double>(b.send.data(), len); };
  auto rv = [&](std::size_t len) { return std::span<double>(b.recv.data(), len); };
  using K = ccl::CollKind;
  switch (k) {
    case K::bcast:  // the root's data is not what it last received, as IMB and OSU arrange
      ccl::bcast(w, w.rank() == root ? std::span<double>(b.send.data(), count) : rv(count), root);
      break;
    case K::reduce:
      ccl::reduce(w, sv(count), rv(count), ccl::sum, root);
      break;
    case K::combine:
      ccl::combine(w, sv(count), rv(count), ccl::sum);
      break;
    case K::scatter:
      ccl::scatter(w, sv(count * n), rv(count), root);
      break;
    case K::gather:
      ccl::gather(w, sv(count), rv(count * n), root);
      break;
    case K::concat:
      ccl::concat(w, sv(count), rv(count * n));
      break;
    case K::index:
      ccl::index(w, sv(count * n), rv(count * n));
      break;
    case K::prefix:
      ccl::prefix(w, sv(count), rv(count), ccl::sum);
      break;
    case K::shift:
      ccl::shift(w, sv(count), rv(count), 1);
      break;
    case K::sync:
      ccl::sync(w);
      break;
    default:
      break;
  }
}

// This member's mean seconds per call over `iters` calls, each alone between syncs, the root of
// rooted collectives rotating from call to call: as IMB and OSU time a collective, and as the
// benchmark's headline does. Profiles were once measured in blocks of back-to-back calls, where
// the next call overlaps the last one's tail; there relays win (a 4 MiB bcast's 512 KiB-segment
// chain on 7 ranks ran below every leaf pulling from the root), while a call timed alone, as
// users time it, ran 1.8x the pulls' time. No other collective of kind k runs meanwhile: the
// override under test may not apply to it.
double alone(ccl::CollKind k, const ccl::Group& w, Buffers& b, std::size_t count, int iters) {
  for (int i = 0; i < warm_up_calls(iters); ++i) {  // builds the schedule, warms the buffers
    ccl::sync(w);
    run_once(k, w, b, count, i % w.size());
  }
  double sum = 0;
  for (int i = 0; i < iters; ++i) {
    ccl::sync(w);
    const double t0 = MPI_Wtime();  // simulated time under SMPI
    run_once(k, w, b, count, i % w.size());
    sum += MPI_Wtime() - t0;
  }
  return sum / iters;
}

// "512 B", "8 KiB", "1 MiB".
std::string size_text(double bytes) {
  const auto b = static_cast<unsigned long long>(bytes);
  if (b >= (1ull << 20) && b % (1ull << 20) == 0) return std::to_string(b >> 20) + " MiB";
  if (b >= (1ull << 10) && b % (1ull << 10) == 0) return std::to_string(b >> 10) + " KiB";
  return std::to_string(b) + " B";
}

// One measurement: an algorithm's best setting (or best with one segment size) at one size, and
// its best time so far.
struct Point {
  const ccl::Algorithm* algorithm;
  std::string choice;  // "name[:params]"
  std::string key;     // of the profile it belongs to
  std::size_t count;   // elements per member (per destination for index)
  double predicted;    // by the plain model
  // Seconds per call, mean over members, of each pass, per placement pattern
  // (rank_placement.hpp).
  std::vector<std::vector<double>> per_pass;
};

// A point's figure: per placement pattern the median over its passes (the lower of two), so that
// a slow spell, which spoils one pass, does not decide; then the worst pattern.
double figure(const std::vector<std::vector<double>>& per_pattern) {
  double worst = 0;
  for (const std::vector<double>& passes : per_pattern) {
    const double f = passes.size() == 2 ? std::min(passes[0], passes[1]) : median(passes);
    worst = std::max(worst, f);
  }
  return worst;
}

// Element counts to measure collective k at: per member (per destination for index), the first
// carrying one element per member so that pieces and blocks are not empty.
std::vector<std::size_t> counts_for(ccl::CollKind k, std::size_t members,
                                    const std::vector<std::size_t>& ladder) {
  using K = ccl::CollKind;
  std::vector<std::size_t> counts{k == K::index ? 1 : members};
  if (k == K::sync) return counts;  // no data: one size tells all
  for (std::size_t bytes : ladder) {
    const std::size_t c =
        std::max<std::size_t>(1, bytes / sizeof(double) / (k == K::index ? members : 1));
    if (c > counts.back()) counts.push_back(c);
  }
  return counts;
}

}  // namespace

void measure_algorithm_profiles(const ccl::Group& w, ccl::MachineModel& m, bool quick,
                                std::FILE* log) {
  using K = ccl::CollKind;
  const int n = w.size();
  const auto members = static_cast<std::size_t>(n);
  // Bytes per member (a member's whole send buffer for index): a ladder across the shared-memory
  // limit (8 KiB) up to where caches no longer hold a member's data, above an element-per-member
  // point.
  const std::vector<std::size_t> ladder =
      quick ? std::vector<std::size_t>{4 << 10, 32 << 10}
            : std::vector<std::size_t>{1 << 10, 8 << 10, 32 << 10, 256 << 10, 1 << 20, 4 << 20};
  const ccl::MachineModel plain = plain_model(m);
  std::vector<Point> points;
  std::size_t largest = 1;
  for (const ccl::Algorithm* a : ccl::catalog()) {
    for (std::size_t count : counts_for(a->kind, members, ladder)) {
      // The best setting with each segment size: one for most algorithms, one per segment size
      // for a pipeline, where the plain model is blind (see MachineModel).
      std::vector<std::size_t> segments_seen;
      const ccl::Shape shape = profile_shape(a->kind, n, count);
      for (const ccl::Candidate& c : ccl::rank_candidates(shape, plain)) {
        if (c.choice.algorithm != a || !(c.seconds > 0)) continue;
        const std::size_t seg = c.choice.params.segment;
        if (std::find(segments_seen.begin(), segments_seen.end(), seg) != segments_seen.end())
          continue;
        segments_seen.push_back(seg);
        points.push_back(Point{
            a, c.choice.str(), ccl::MachineModel::profile_key(c.choice), count, c.seconds, {}});
        largest = std::max(largest, count);
      }
    }
  }
  // The whole list is measured several times. A point's figure is the median over passes of
  // the mean over members: what a slow spell of a shared machine (which spoils one pass, not the
  // others) makes of it does not decide.
  //
  // With more ranks than cores, the passes are run under each placement pattern in turn (two
  // passes each) and a point is priced by its worst pattern (rank_placement.hpp).
  Buffers b;
  b.send.assign(largest * members, 1.0);
  b.recv.assign(largest * members, 0.0);
  RankPlacement placement;
  const int patterns = placement.patterns();
  const int passes = quick ? 1 : patterns > 1 ? 2 : 3;
  for (Point& p : points) p.per_pass.resize(static_cast<std::size_t>(patterns));
  for (int pass = 0; pass < patterns * passes; ++pass) {
    const int pattern = pass / passes;
    if (pass % passes == 0) {
      placement.apply(pattern);
      ccl::sync(w);
      if (log != nullptr && w.rank() == 0 && patterns > 1) {
        std::fprintf(log, "ccl-calibrate: profiles with the ranks of each node %s\n",
                     RankPlacement::name(pattern).c_str());
      }
    }
    for (Point& p : points) {
      const K k = p.algorithm->kind;
      ccl::set_override(k, p.choice);
      // A member's bytes (its whole send buffer for index) times members, as the benchmark counts.
      const std::size_t total = p.count * sizeof(double) * (k == K::index ? members : 1) * members;
      const int iters = quick ? std::clamp(static_cast<int>((std::size_t{8} << 20) / total), 3, 40)
                              : std::min(calls_per_block(total), 400);
      const double mine = alone(k, w, b, p.count, iters);
      ccl::set_override(k, "");
      p.per_pass[static_cast<std::size_t>(pattern)].push_back(
          ccl::combine_value(w, mine, ccl::sum) / n);
    }
  }
  std::vector<std::string> keys;  // in catalog order
  for (const Point& p : points) {
    if (std::find(keys.begin(), keys.end(), p.key) == keys.end()) keys.push_back(p.key);
  }
  for (const std::string& key : keys) {
    ccl::AlgorithmProfile profile;
    for (const Point& p : points) {
      if (p.key != key) continue;
      const double bytes =
          ccl::MachineModel::profile_bytes(profile_shape(p.algorithm->kind, n, p.count));
      profile.points.push_back({bytes, figure(p.per_pass) / p.predicted});
    }
    if (log != nullptr && w.rank() == 0) {
      std::string line;
      for (const ccl::ProfilePoint& p : profile.points) {
        char ratio[32];
        std::snprintf(ratio, sizeof ratio, " %.2f", p.ratio);
        if (!line.empty()) line += ',';
        line += ' ';
        line += size_text(p.bytes);
        line += ratio;
      }
      const std::size_t space = key.find(' ');
      std::fprintf(log, "ccl-calibrate: %-8s %-30s measured/predicted:%s\n",
                   key.substr(0, space).c_str(), key.substr(space + 1).c_str(), line.c_str());
    }
    m.profiles[key] = std::move(profile);
  }
}
