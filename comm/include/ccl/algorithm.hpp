// The algorithm catalog. Each algorithm builds the schedule of one collective for a shape and
// parameters, states its exact cost (C1, C2, C3 of the whole collective: the maximum over the
// members' critical paths, as the simulator measures them), and lists the parameter settings
// worth considering for a shape. One algorithm per file under comm/src/algorithms/, with its cost
// and a sketch in the header comment; adding one is adding its file and its line in catalog.cpp.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "ccl/cost.hpp"
#include "ccl/schedule.hpp"
#include "ccl/shape.hpp"

namespace ccl {

// Tunable parameters; each algorithm uses the ones it needs.
struct Params {
  int k = 0;                // radix (index), depth of the CCL combine hybrid
  std::size_t segment = 0;  // bytes per pipeline segment
  std::vector<int> mesh;    // logical mesh d1 x ... x dk of an InterCom hybrid
  std::string plan;         // its stages, one letter each, e.g. "SSMCC"
  friend bool operator==(const Params&, const Params&) = default;
  bool empty_params() const { return *this == Params{}; }
};

// "k=4", "seg=65536", "mesh=5x6,plan=SSCC" ("" for none), and back; parse throws ccl::Error.
std::string to_string(const Params& p);
Params parse_params(std::string_view text);

struct Algorithm {
  std::string_view name;
  CollKind kind;  // the fixed-size kind; an algorithm may also serve its vector form
  Schedule (*build)(const Shape&, const Params&);
  Cost (*cost)(const Shape&, const Params&);
  // Settings selection considers for the shape (rank-independent); empty: does not apply.
  std::vector<Params> (*candidates)(const Shape&);
  // Only for algorithms whose data flows one way (no member ever waits for a later one): the
  // busiest member's own work per call when calls follow one another, which then overlap —
  // member 0 of a chain is on to the next call while the last still receives this one. Selection
  // weighs these algorithms by it: that is their cost in a loop. Null for all others.
  Cost (*stream)(const Shape&, const Params&) = nullptr;
  // Only for algorithms built for networks whose links run at once (the torus allgathers): per
  // round, one start-up and the bytes of its largest message. Selection weighs them by it when
  // the machine model says "links concurrent"; every other algorithm keeps its one-port cost.
  Cost (*multiport)(const Shape&, const Params&) = nullptr;
  // Only for sync algorithms that release every member in their last round, none ahead of the
  // others (dissemination). Where every core of a node runs two or more ranks (shared_cores(),
  // selection.hpp) selection leaves them out: half the members leaving are then not running, and
  // the call that follows, which a program times or waits on (IMB and OSU put a barrier before
  // each timed call), waits for a core where its root is one of them. A barrier that member 0
  // ends leaves it running and the others released before they get their core back.
  bool releases_together = false;

  // What selection weighs: the stream cost where there is one, else the critical path.
  Cost selection_cost(const Shape& s, const Params& p) const {
    return stream ? stream(s, p) : cost(s, p);
  }
};

struct MachineModel;
// The same under a machine model: the multi-port cost where the model's links run at once.
Cost selection_cost(const Algorithm& a, const Shape& s, const Params& p, const MachineModel& m);

struct Choice {
  const Algorithm* algorithm = nullptr;
  Params params;
  std::string str() const;  // "name" or "name:params"
};

// The fixed-size kind of a vector form (concatv -> concat); other kinds map to themselves.
CollKind base_kind(CollKind k);

std::span<const Algorithm* const> catalog();
// Adds an algorithm defined outside comm/ (grids/ adds the torus allgathers); the object must
// outlive every use. Every process that may run a collective of its kind on a group where its
// candidates apply must add it, before such a call. Adding the same object again does nothing;
// another algorithm of the same kind and name is an error.
void register_algorithm(const Algorithm* a);
// The algorithm of that name serving kind k (or its base kind), or nullptr.
const Algorithm* find_algorithm(CollKind k, std::string_view name);

}  // namespace ccl
