// InterCom hybrid combine on a logical mesh, plan R^a [M] C^a: ring reduce-scatters along
// dimensions 0 .. a−1 (each leaves a member its piece of the piece it held, reduced along the
// line), an optional recursive-doubling combine of the remaining piece along dimension a, and
// ring collects back in reverse order. Params: mesh=4x3,plan=RMC. Commutative operators only.
//
// Cost: Σ_R (d−1)·(α + piece·β + piece·γ) + [M] the recursive-doubling cost of the piece along
// its dimension + Σ_C (d−1)·(α + piece·β); cost() follows every member through the stages (above
// 64 members, the line through member 0 at each stage: an upper bound, each_mesh_line).
//
//   4x3 RMC:  R along d0 (4: pieces of m/4) ─► M along d1 (3) ─► C along d0
#include "team.hpp"

namespace ccl::algorithms {

namespace {

MeshPlan plan_of(const Shape& s, const Params& p) {
  return parse_mesh_plan(s, p, 'R', 'C', "combine intercom");
}

Schedule build(const Shape& s, const Params& p) {
  ScheduleBuilder b("intercom");
  const MeshPlan pl = plan_of(s, p);
  const Team whole = Team::whole(s, 0);
  const int v = whole.me;
  const std::size_t m = s.vector_bytes();
  const Slice data{Buffer::recv, 0, m};
  const std::vector<Pieces> lay = pl.layouts(m, s.elem, v);
  const Slice incoming = b.scratch(m);
  // The first reduce-scatter reads the member's own vector from its send buffer: no copy.
  if (pl.splits == 0) b.copy(Slice{Buffer::send, 0, m}, data);
  for (int i = 0; i < pl.splits; ++i) {
    emit_ring_reduce_scatter(b, pl.mesh.line(whole, v, i), data, lay[static_cast<std::size_t>(i)],
                             incoming,
                             i == 0 ? std::optional(Slice{Buffer::send, 0, m}) : std::nullopt);
  }
  if (pl.middle) {
    const Slice held = pl.held(lay, v, data);
    emit_rd_allreduce(b, pl.mesh.line(whole, v, pl.splits), held, incoming.sub(0, held.bytes));
  }
  for (int i = pl.splits - 1; i >= 0; --i) {
    emit_ring_collect(b, pl.mesh.line(whole, v, i), data, lay[static_cast<std::size_t>(i)]);
  }
  return b.finish();
}

Cost cost(const Shape& s, const Params& p) {
  const MeshPlan pl = plan_of(s, p);
  const Team whole = Team::whole(s, 0);
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
                     cost_rd_allreduce(tl, t, pl.splits == 0 ? m : pl.held_bytes(lay, v));
                   });
  }
  for (int i = pl.splits - 1; i >= 0; --i) {
    each_mesh_line(tl, pl, whole, m, s.elem, i, false,
                   [&](const Team& t, const std::vector<Pieces>& lay, int) {
                     cost_ring_collect(tl, t, lay[static_cast<std::size_t>(i)]);
                   });
  }
  return worst(tl);
}

std::vector<Params> candidates(const Shape& s) {
  if (!s.commutative) return {};
  return mesh_plan_candidates(s.size, 'R', 'C');
}

}  // namespace

const Algorithm combine_intercom{"intercom", CollKind::combine, build, cost, candidates};

}  // namespace ccl::algorithms
