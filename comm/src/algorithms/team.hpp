// Building blocks for composed algorithms (InterCom hybrids, scatter + collect, ...): a team is a
// regular sub-set of the group, a piece layout splits a vector among a team, and a timeline holds
// every member's critical-path clock so that cost functions can follow composed stages exactly.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>
#include <vector>

#include "ccl/cost.hpp"
#include "common.hpp"

namespace ccl::algorithms {

// Members first + i·stride (i < size) in relative numbering (relative rank x is group rank
// (x + base) mod n, so base is the root for rooted collectives).
struct Team {
  int n = 1;
  int base = 0;
  int first = 0;
  int stride = 1;
  int size = 1;
  int me = -1;  // my index, or -1 when this member is not in the team

  int rel(int i) const { return first + i * stride; }
  int rank(int i) const { return mod(base + rel(i), n); }
  static Team whole(const Shape& s, int base) {
    return Team{s.size, base, 0, 1, s.size, mod(s.rank - base, s.size)};
  }
};

// A logical mesh d0 x d1 x ... over relative ranks, row-major (the last dimension varies
// fastest). Lines along a dimension are teams.
class Mesh {
 public:
  explicit Mesh(const std::vector<int>& dims);
  int dims() const { return static_cast<int>(dims_.size()); }
  int extent(int i) const { return dims_[static_cast<std::size_t>(i)]; }
  int size() const { return size_; }
  int coord(int v, int i) const { return (v / stride_[static_cast<std::size_t>(i)]) % extent(i); }
  // Are v's coordinates zero in every dimension after i?
  bool zero_after(int v, int i) const;
  // The line along dimension i through relative member v, within `whole`; me is v's index on
  // it when whole.me == v, else -1.
  Team line(const Team& whole, int v, int i) const;

 private:
  std::vector<int> dims_, stride_;
  int size_ = 1;
};

// Ordered factorizations of n into `parts` factors, each at least 2.
std::vector<std::vector<int>> factorizations(int n, int parts);

// A vector of `bytes` split into `parts` consecutive pieces of whole elements, as equal as
// possible (the first ones one element larger).
class Pieces {
 public:
  Pieces() = default;
  Pieces(std::size_t bytes, int parts, std::size_t elem);
  // Sub-pieces of piece i of another layout, offsets still from the vector's start.
  Pieces(const Pieces& outer, int i, int parts, std::size_t elem);
  // The members' blocks of a block-wise collective (concat, concatv, ...).
  explicit Pieces(const BlockLayout& blocks, int n);
  int parts() const { return static_cast<int>(offset_.size()) - 1; }
  std::size_t begin(int i) const { return offset_[static_cast<std::size_t>(i)]; }
  std::size_t bytes(int i) const { return begin(i + 1) - begin(i); }
  std::size_t span(int first, int last) const {
    return begin(last) - begin(first);
  }  // [first, last)
  std::size_t largest() const;

 private:
  std::vector<std::size_t> offset_{0};
};

// An InterCom plan on a mesh: `splits` stages that each split the held piece along dimensions
// 0 .. splits−1, an optional middle stage along dimension `splits`, and the reverse stages
// (e.g. bcast S S M C C: split = scatter, middle = tree broadcast, reverse = collect).
struct MeshPlan {
  Mesh mesh;
  int splits = 0;
  bool middle = false;
  // Piece layouts of the split stages as seen along the lines through relative member v.
  std::vector<Pieces> layouts(std::size_t bytes, std::size_t elem, int v) const;
  // The piece v holds after the splits, as a sub-slice of `data`.
  Slice held(const std::vector<Pieces>& layouts, int v, Slice data) const;
  std::size_t held_bytes(const std::vector<Pieces>& layouts, int v) const;
};

// Parse plan letters split^a [M] reverse^a and check the mesh (a + [M] dims, product n).
MeshPlan parse_mesh_plan(const Shape& s, const Params& p, char split, char reverse,
                         std::string_view algorithm);
// Settings worth trying: meshes of 2 and 3 dimensions with and without the middle stage.
std::vector<Params> mesh_plan_candidates(int n, char split, char reverse);

// Above this many members, costs are upper bounds found in time linear in the group's size (the
// mesh lines below, rings in team.cpp): selection runs on every member, and a 4,096-member job
// (a simulated torus runs them all in one process) cannot afford a quadratic price per member.
constexpr int kExactUpTo = 64;

inline Cost worst(const std::vector<Cost>& clocks) {
  Cost w;
  for (const Cost& c : clocks) w = longest(w, c);
  return w;
}

// Every member's clock, indexed by relative rank. Above kExactUpTo members only the members a
// cost has touched since the last level() are held, the others read the level: a stage priced on
// one line of a large mesh (each_mesh_line) then costs the line's size, not the group's, which
// on 4,096 simulated members was most of ewald-md's host time before its first step.
class Timeline {
 public:
  explicit Timeline(std::size_t members);
  // A reference stays valid until the table next grows: every primitive below first makes
  // room for its team (make_room), so the references it takes while it runs all stay valid.
  Cost& operator[](std::size_t member);
  void make_room(const Team& t);
  // The latest clock, component by component (untouched members are at the level, and the cost
  // operations only move clocks forward, so touched ones are never below it).
  Cost worst() const;
  // Every member to worst(), so that the next stage starts level.
  void level();
  // Clocks of a group of at most kExactUpTo members, which costs follow exactly.
  bool exact() const { return dense_; }
  // No member has moved since the timeline was made or levelled (large groups only).
  bool at_level() const { return !dense_ && touched_ == 0; }
  const Cost& level_clock() const { return level_; }
  // Every member of team t to clock c; a team of the whole group levels the timeline there.
  void set(const Team& t, const Cost& c);

 private:
  void grow();

  bool dense_;
  Cost level_;
  std::vector<Cost> dense_clocks_;
  // Large groups: the touched members' clocks in an open-addressing table (member + 1 as key, 0
  // free), kept at most half full. Node-based maps spent most of a 4,096-member selection in
  // malloc, on a heap that thousands of simulated ranks share.
  std::vector<std::size_t> keys_;
  std::vector<Cost> clocks_;
  std::size_t touched_ = 0;
};

inline Cost worst(const Timeline& t) {
  return t.worst();
}

// Applies apply(line, layouts, v) to the lines along dimension i of a mesh plan, v each line's
// member with coordinate 0 there; with holders_only, only the lines of members whose coordinates
// after i are zero (the holders of a rooted plan). Up to kExactUpTo members: every line, exactly.
// Above: only the line through member 0, whose pieces are the largest at every stage (Pieces
// gives the first parts the extra elements) and which therefore, the members starting level,
// finishes last; every member is then set to the latest finish, so the next stage starts level.
template <class Apply>
void each_mesh_line(Timeline& tl, const MeshPlan& pl, const Team& whole, std::size_t bytes,
                    std::size_t elem, int i, bool holders_only, Apply apply) {
  if (pl.mesh.size() > kExactUpTo) {
    apply(pl.mesh.line(whole, 0, i), pl.layouts(bytes, elem, 0), 0);
    tl.level();
    return;
  }
  for (int v = 0; v < pl.mesh.size(); ++v) {
    if (pl.mesh.coord(v, i) != 0 || (holders_only && !pl.mesh.zero_after(v, i))) continue;
    apply(pl.mesh.line(whole, v, i), pl.layouts(bytes, elem, v), v);
  }
}

// ---- primitives: emit() adds this member's steps, cost() advances the timeline ----

// Binomial broadcast of `data` from team index 0 (sends largest subtree first).
void emit_tree_bcast(ScheduleBuilder& b, const Team& t, Slice data);
void cost_tree_bcast(Timeline& tl, const Team& t, std::size_t bytes);

// Binomial scatter in place: index 0 holds every piece of `data`; afterwards index v holds
// piece v at its place in its own `data`.
void emit_tree_scatter(ScheduleBuilder& b, const Team& t, Slice data, const Pieces& p);
void cost_tree_scatter(Timeline& tl, const Team& t, const Pieces& p);

// Binomial gather in place, the scatter run backwards: index v holds piece v; afterwards index
// 0 holds them all.
void emit_tree_gather(ScheduleBuilder& b, const Team& t, Slice data, const Pieces& p);
void cost_tree_gather(Timeline& tl, const Team& t, const Pieces& p);

// Ring collect (bucket allgather) in place: index i holds piece i; afterwards all hold all.
// With `own`, index i's piece starts there instead (e.g. the send buffer) and is copied into data
// at the end.
void emit_ring_collect(ScheduleBuilder& b, const Team& t, Slice data, const Pieces& p,
                       std::optional<Slice> own = std::nullopt);
void cost_ring_collect(Timeline& tl, const Team& t, const Pieces& p);

// Ring reduce-scatter (commutative operators): every index holds a whole vector, in `own` when
// given (read only, then data need not hold it), else in data; afterwards index i holds piece i
// reduced over the team, in data. `incoming` holds the largest piece.
void emit_ring_reduce_scatter(ScheduleBuilder& b, const Team& t, Slice data, const Pieces& p,
                              Slice incoming, std::optional<Slice> own = std::nullopt);
void cost_ring_reduce_scatter(Timeline& tl, const Team& t, const Pieces& p);

// Critical path of a pipelined chain over relative members 0 → 1 → ... → n−1 carrying segments
// [bounds[j], bounds[j+1]): in round j a member passes segment j − 1 on and receives segment j;
// with `folds`, it first folds segment j − 1 into its own (prefix).
Cost cost_chain(int n, const std::vector<std::size_t>& bounds, bool folds);

// Recursive-doubling allreduce of `data` over the team (fold to a power of two, exchange at
// distance 1, 2, 4, ..., unfold), lower index always on the left. `incoming` holds `data`'s size.
void emit_rd_allreduce(ScheduleBuilder& b, const Team& t, Slice data, Slice incoming);
void cost_rd_allreduce(Timeline& tl, const Team& t, std::size_t bytes);

// Binomial reduce of `data` to team index 0, folding children in ascending index one per step;
// `data` is the accumulator on every member. `incoming` holds `data`'s size.
void emit_tree_reduce(ScheduleBuilder& b, const Team& t, Slice data, Slice incoming);
void cost_tree_reduce(Timeline& tl, const Team& t, std::size_t bytes);

}  // namespace ccl::algorithms
