// InterCom hybrid broadcast on a logical mesh d0 x ... x d(k−1) of the group, given by a plan of
// one letter per stage: S (scatter along a dimension), M (minimum-spanning-tree broadcast along
// the next dimension), C (collect along a dimension), as S^a [M] C^a: the scatters run along
// dimensions 0 .. a−1, each splitting the piece a member holds; M (if present) broadcasts the
// remaining piece along dimension a; the collects reassemble in reverse order. Params:
// mesh=5x6,plan=SSCC. "M" alone is the binomial tree and "SC" on one dimension scatter_concat.
//
// Cost (InterCom's linear-array model): Σ_S ceil(log2 d)·α + [M] ceil(log2 d)·(α + piece·β)
// + Σ_C (d − 1)·α + bytes moved by the scatters and collects. For 30 members:
// 5x6 SSCC = 3 + 3 + 5 + 4 = 15 start-ups, 2x3x5 SSMCC = 1 + 2 + 3 + 2 + 1 = 9, MST = 5.
// cost() follows every member through the stages, so uneven pieces are exact too (above 64
// members, the line through member 0 at each stage: an upper bound, each_mesh_line).
//
//   2x3x5 SSMCC:  S along d0 (2) ─► S along d1 (3) ─► M along d2 (5) ─► C d1 ─► C d0
#include "team.hpp"

namespace ccl::algorithms {

namespace {

MeshPlan plan_of(const Shape& s, const Params& p) {
  return parse_mesh_plan(s, p, 'S', 'C', "bcast intercom");
}

Schedule build(const Shape& s, const Params& p) {
  ScheduleBuilder b("intercom");
  const MeshPlan pl = plan_of(s, p);
  const Team whole = Team::whole(s, s.root);
  const int v = whole.me;
  const Slice data{Buffer::recv, 0, s.vector_bytes()};
  const std::vector<Pieces> lay = pl.layouts(s.vector_bytes(), s.elem, v);
  for (int i = 0; i < pl.splits; ++i) {
    // Only the members that already hold data scatter along dimension i.
    if (pl.mesh.zero_after(v, i))
      emit_tree_scatter(b, pl.mesh.line(whole, v, i), data, lay[static_cast<std::size_t>(i)]);
  }
  if (pl.middle) emit_tree_bcast(b, pl.mesh.line(whole, v, pl.splits), pl.held(lay, v, data));
  for (int i = pl.splits - 1; i >= 0; --i) {
    emit_ring_collect(b, pl.mesh.line(whole, v, i), data, lay[static_cast<std::size_t>(i)]);
  }
  return b.finish();
}

Cost cost(const Shape& s, const Params& p) {
  const MeshPlan pl = plan_of(s, p);
  const Team whole = Team::whole(s, s.root);
  Timeline tl(static_cast<std::size_t>(s.size));
  for (int i = 0; i < pl.splits; ++i) {
    each_mesh_line(tl, pl, whole, s.vector_bytes(), s.elem, i, true,
                   [&](const Team& t, const std::vector<Pieces>& lay, int) {
                     cost_tree_scatter(tl, t, lay[static_cast<std::size_t>(i)]);
                   });
  }
  if (pl.middle) {
    each_mesh_line(tl, pl, whole, s.vector_bytes(), s.elem, pl.splits, false,
                   [&](const Team& t, const std::vector<Pieces>& lay, int v) {
                     cost_tree_bcast(tl, t,
                                     pl.splits == 0 ? s.vector_bytes() : pl.held_bytes(lay, v));
                   });
  }
  for (int i = pl.splits - 1; i >= 0; --i) {
    each_mesh_line(tl, pl, whole, s.vector_bytes(), s.elem, i, false,
                   [&](const Team& t, const std::vector<Pieces>& lay, int) {
                     cost_ring_collect(tl, t, lay[static_cast<std::size_t>(i)]);
                   });
  }
  return worst(tl);
}

std::vector<Params> candidates(const Shape& s) {
  return mesh_plan_candidates(s.size, 'S', 'C');
}

}  // namespace

const Algorithm bcast_intercom{"intercom", CollKind::bcast, build, cost, candidates};

}  // namespace ccl::algorithms
