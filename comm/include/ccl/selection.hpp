// Model-driven algorithm selection. A machine model (α start-up seconds, β seconds per byte,
// γ seconds per reduced byte) turns each candidate's (C1, C2, C3) into a predicted time; the
// least wins. Overrides, strongest first:
//   set_override(kind, "name[:params]")            (API, e.g. from a test; a bare name is the
//                                                   plain setting, or the best one if none)
//   CCL_ALGO_<COLL>=name[:params]                  (environment, e.g. CCL_ALGO_CONCAT=ring)
//   CCL_ALGO_FILE=path with lines "concat = ring"  ('#' starts a comment)
// The model comes from CCL_MODEL=path (written by ccl-calibrate), else a built-in default.
// With a calibrated profile for the algorithm, that prediction is scaled by the ratio of measured
// to predicted time at the call's size (AlgorithmProfile).
// Selection depends only on the shape seen by every member, never on the member's rank, so all
// members of a group choose the same algorithm.
#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ccl/algorithm.hpp"

namespace ccl {

// How far one algorithm's measured time departs from α·C1 + β·C2 + γ·C3 on this machine, by
// size: the CCL model assumes independent links and one start-up price, where on one node every
// copy shares the memory system and the cores, small messages take the shared-memory path and
// large ones MPI's rendezvous, and an algorithm's local copies (rotations, forwarding through
// scratch) are in none of C1..C3. ccl-calibrate measures each algorithm at a few sizes; the
// ratio measured/predicted is interpolated between them (linearly in log size and log ratio) and
// held constant beyond the smallest and the largest.
// A pipelined algorithm has one profile per segment size: what a segment size costs beyond its
// start-ups (the shared-memory path below 8 KiB, MPI's rendezvous above; a segment reduced while
// still in cache) is what the model cannot see, and exactly what the choice of segment turns on.
struct ProfilePoint {
  double bytes = 0;  // per member: the vector, or one member's block (one destination's for index)
  double ratio = 1;  // measured / predicted
};
struct AlgorithmProfile {
  std::vector<ProfilePoint> points;  // ascending bytes
  double ratio_at(double bytes) const;
};

// The links of a torus network the job runs on, as ccl-calibrate measures them on one (a group
// laid out as a torus: CCL_TORUS, the grids): a message of n bytes over h links costs
// alpha + h·hop + n·beta where nothing else shares its links, and a member drives up to `ports`
// links at once. Concat on a torus group is priced with them (selection/torus_price.hpp); every
// other shape keeps α, β, γ. ports = 0: not known.
struct TorusLinkModel {
  double alpha = 0;  // seconds per message, besides its hops (software)
  double hop = 0;    // seconds per link crossed
  double beta = 0;   // seconds per byte on one link
  int ports = 0;     // links a member drives at once
  bool known() const { return ports > 0; }
};

struct MachineModel {
  double alpha = 0;  // seconds per start-up
  double beta = 0;   // seconds per byte sent
  double gamma = 0;  // seconds per byte reduced
  std::string source;
  // By "<collective> <algorithm>", or "<collective> <algorithm>:seg=<bytes>" for one segment size.
  std::map<std::string, AlgorithmProfile, std::less<>> profiles;
  // "links concurrent": a member's links to different neighbours run at once (a torus network,
  // as on QCDOC); algorithms built for it are then weighed by their multi-port cost.
  bool concurrent_links = false;
  TorusLinkModel torus;  // "torus alpha <s> hop <s> beta <s/byte> ports <n>"

  // The plain CCL model: α·C1 + β·C2 + γ·C3.
  double predict(const Cost& c) const {
    return alpha * static_cast<double>(c.c1) + beta * static_cast<double>(c.c2) +
           gamma * static_cast<double>(c.c3);
  }
  // The same, scaled by the choice's calibrated profile at the shape's size.
  double predict(const Choice& choice, const Shape& s, const Cost& c) const {
    return predict(c) * ratio(choice, s);
  }
  // That scale: the choice's profile at the shape's size, 1 without one.
  double ratio(const Choice& choice, const Shape& s) const;
  // The profile of the choice's segment size if there is one, else the algorithm's, else null.
  const AlgorithmProfile* profile_of(const Choice& choice) const;
  // The key of the choice's own profile: its segment size if it has one, else the algorithm.
  static std::string profile_key(const Choice& choice);
  // The size a profile is indexed by: bytes per member (mean block of a v-form).
  static double profile_bytes(const Shape& s);
};

MachineModel default_machine_model();
// Reads "alpha <s>", "beta <s/byte>", "gamma <s/byte>" lines, an optional "links concurrent"
// (or "links one-port", the default), an optional "torus alpha <s> hop <s> beta <s/byte> ports
// <n>" and any number of
// "profile <collective> <algorithm>[:seg=<bytes>] <bytes>:<ratio> ..." lines; errors name
// file:line.
MachineModel load_machine_model(const std::string& path);
// The calibrated model shipped with ccl that suits a job of `ranks` ranks: the one calibrated at
// the nearest rank count (comm/models/README.md); the plain default when none is built in.
MachineModel builtin_machine_model(int ranks);
// What the MPI runtime does at start-up: the built-in model for its rank count, unless CCL_MODEL
// names a file or asks for "plain" (the bare default α, β, γ).
void use_builtin_model(int ranks);
void save_machine_model(const MachineModel& m, const std::string& path);
const MachineModel& machine_model();
void set_machine_model(const MachineModel& m);

struct Candidate {
  Choice choice;
  Cost cost;
  double seconds = 0;  // predicted
};

// Every algorithm and setting selection considers for the shape, least predicted time first.
std::vector<Candidate> rank_candidates(const Shape& shape, const MachineModel& model);

// How the ranks of the job share cores, on the node where they share most (the same answer on
// every rank: the MPI runtime agrees on it at start-up; none on simulators): no core runs two
// (none), some node has more ranks than cores (some), or every core of some node runs two or
// more (every).
enum class CoreSharing { none, some, every };
CoreSharing core_sharing();
void set_core_sharing(CoreSharing sharing);
// The sharing of `ranks` ranks on a node of `cores` cores.
CoreSharing core_sharing_of(long ranks, long cores);
// With `every`, selection leaves out algorithms that need a core per member at their end
// (Algorithm::releases_together).
bool shared_cores();
// Whether selection considers algorithm `a` at all under the current core sharing.
bool considered(const Algorithm& a);
// Where any core runs two ranks, pipeline segments shorter than this are not considered either:
// each segment is a handoff whose other side may be waiting for its core, and handoffs of one
// ring cell each (8 KiB) fall into a slow rhythm in some jobs and stay in it. Reduce and prefix
// of 256 KiB, 3 and 4 ranks on 2 cores, 155-199 jobs each: with 8 KiB segments 5-10% of the
// jobs ran 2-3.5x the median, with 32 KiB none above 1.6x, and the medians were no worse.
inline constexpr std::size_t kSharedCoreMinSegment = std::size_t{32} << 10;
// Where messages above `bytes` cost less as one copy between the two processes than streamed
// through the shared-memory rings (the fabric's start-up probe, agreed by all ranks; 0: not so,
// or not measured), pipeline segments of at most that size are not considered either: each
// would stream, and the whole message goes by one copy. IMB's bcast of 32 KiB on 2 ranks where
// the probe found 8 KiB: a chain of 8 KiB segments 4.5 us, linear 1.7 (Open MPI's tuned 2.4).
void set_streams_lose_above(std::size_t bytes);
// Where it found so, plain transfers of up to this size go as one copy, pulled by their receiver
// (ShmFabric::plain_direct); longer ones stream. A reduce on 2 ranks of an Intel Xeon VM, IMB per
// call: 256 KiB and 1 MiB pulled whole and then folded 12.1 and 86 us, streamed and folded from
// the rings 18 and 115 (Open MPI's tuned 12.2 and 88); 2 and 4 MiB pulled 250 and 520, streamed
// 198 and 378: past the caches the sender's copies into the rings overlap the root's folds.
// Between two members, pipeline segments of up to this size are not considered: each would go
// as one copy too, and then the receiver makes every copy and fold itself, one after another
// (256 KiB: 18.4 us in 32 KiB segments, 12.1 whole).
inline constexpr std::size_t kOneCopyUpTo = std::size_t{1} << 20;
// Which of the rules above leaves setting `p` of algorithm `a` out for the shape, if any (the
// algorithm itself is considered: considered(a)).
enum class SegmentRule { none, shared_core_short, streams_lose, one_copy_pair };
SegmentRule segment_rule(const Params& p, const Shape& s);
// Whether selection considers setting `p` of algorithm `a` for the shape.
bool considered(const Algorithm& a, const Params& p, const Shape& s);

// What runs for the shape: an override if one is set for its kind, else the best candidate.
Choice select(const Shape& shape);
// Why: "override CCL_ALGO_CONCAT", "least predicted time", ...
std::string selection_reason(const Shape& shape);

// "name[:params]" for a kind; an empty spec removes the API override.
void set_override(CollKind kind, std::string_view spec);
Choice parse_choice(CollKind kind, std::string_view spec);

// Changes whenever the model, an override, the catalog or a group's layout changes: cached
// schedules older than it are stale.
unsigned selection_epoch();
void note_catalog_change();

// Build the schedule of the selected choice.
Schedule build_schedule(const Shape& shape);
Schedule build_schedule(const Shape& shape, const Choice& choice);

}  // namespace ccl
