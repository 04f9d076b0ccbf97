// Reduce by reduce-scatter + gather, on a logical mesh (InterCom hybrids), plan R^a [M] G^a:
// ring reduce-scatters along dimensions 0 .. a−1, an optional binomial reduce of the remaining
// piece along dimension a to the root's line, and binomial gathers of the pieces to the root in
// reverse order. "RG" on one dimension (mesh=n) is the bucket reduce-scatter + gather.
// Commutative operators only.
//
// Cost: Σ_R (d−1)·(α + piece·(β + γ)) + [M] binomial reduce of the piece + Σ_G gathers of the
// pieces (ceil(log2 d) start-ups each along the deepest chain); cost() follows every member
// (above 64 members, the line through member 0 at each stage: an upper bound, each_mesh_line).
//
//   n = 6, RG:  ring reduce-scatter (5 steps) ─► member i holds piece i ─► binomial gather to root
#include "team.hpp"

namespace ccl::algorithms {

namespace {

MeshPlan plan_of(const Shape& s, const Params& p) {
  return parse_mesh_plan(s, p, 'R', 'G', "reduce intercom");
}

Schedule build(const Shape& s, const Params& p) {
  ScheduleBuilder b("intercom");
  const MeshPlan pl = plan_of(s, p);
  const Team whole = Team::whole(s, s.root);
  const int v = whole.me;
  const std::size_t m = s.vector_bytes();
  // The root works in its recv buffer, everyone else in scratch.
  const Slice data = v == 0 ? Slice{Buffer::recv, 0, m} : b.scratch(m);
  const Slice incoming = b.scratch(m);
  const std::vector<Pieces> lay = pl.layouts(m, s.elem, v);
  // The first reduce-scatter reads the member's own vector from its send buffer: no copy.
  if (pl.splits == 0) b.copy(Slice{Buffer::send, 0, m}, data);
  for (int i = 0; i < pl.splits; ++i) {
    emit_ring_reduce_scatter(b, pl.mesh.line(whole, v, i), data, lay[static_cast<std::size_t>(i)],
                             incoming,
                             i == 0 ? std::optional(Slice{Buffer::send, 0, m}) : std::nullopt);
  }
  if (pl.middle) {
    const Slice held = pl.held(lay, v, data);
    emit_tree_reduce(b, pl.mesh.line(whole, v, pl.splits), held, incoming.sub(0, held.bytes));
  }
  for (int i = pl.splits - 1; i >= 0; --i) {
    // Only the members holding results gather along dimension i.
    if (pl.mesh.zero_after(v, i))
      emit_tree_gather(b, pl.mesh.line(whole, v, i), data, lay[static_cast<std::size_t>(i)]);
  }
  return b.finish();
}

Cost cost(const Shape& s, const Params& p) {
  const MeshPlan pl = plan_of(s, p);
  const Team whole = Team::whole(s, s.root);
  const std::size_t m = s.vector_bytes();
  Timeline tl(static_cast<std::size_t>(s.size));
  for (int i = 0; i < pl.splits; ++i) {
    each_mesh_line(tl, pl, whole, m, s.elem, i, false,
                   [&](const Team& t, const std::vector<Pieces>& lay, int) {
                     cost_ring_reduce_scatter(tl, t, lay[static_cast<std::size_t>(i)]);
                   });
  }
  if (pl.middle) {
    each_mesh_line(tl, pl, whole, m, s.elem, pl.splits, false,
                   [&](const Team& t, const std::vector<Pieces>& lay, int v) {
                     cost_tree_reduce(tl, t, pl.splits == 0 ? m : pl.held_bytes(lay, v));
                   });
  }
  for (int i = pl.splits - 1; i >= 0; --i) {
    each_mesh_line(tl, pl, whole, m, s.elem, i, true,
                   [&](const Team& t, const std::vector<Pieces>& lay, int) {
                     cost_tree_gather(tl, t, lay[static_cast<std::size_t>(i)]);
                   });
  }
  return worst(tl);
}

std::vector<Params> candidates(const Shape& s) {
  if (!s.commutative || s.size < 2) return {};
  std::vector<Params> out = mesh_plan_candidates(s.size, 'R', 'G');
  out.push_back(Params{0, 0, {s.size}, "RG"});
  return out;
}

}  // namespace

const Algorithm reduce_intercom{"intercom", CollKind::reduce, build, cost, candidates};

}  // namespace ccl::algorithms
