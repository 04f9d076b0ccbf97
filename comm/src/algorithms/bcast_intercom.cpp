// InterCom hybrid broadcast on a logical mesh d0 x ... x d(k−1) of the group, given by a plan of
// one letter per stage: S (scatter along a dimension), M (minimum-spanning-tree broadcast along
// the last dimension), C (collect along a dimension), as S^a [M] C^a: the scatters run along
// dimensions 0 .. a−1, each splitting the piece a member holds; M (if present) broadcasts the
// remaining piece along dimension a; the collects reassemble in reverse order. Params:
// mesh=5x6,plan=SSCC. "M" alone is the binomial tree and "SC" on one dimension scatter_concat.
//
// Cost (InterCom's linear-array model): Σ_S ceil(log2 d)·α + [M] ceil(log2 d)·(α + piece·β)
// + Σ_C (d − 1)·α + bytes moved by the scatters and collects. For 30 members:
// 5x6 SSCC = 3 + 3 + 5 + 4 = 15 start-ups, 2x3x5 SSMCC = 1 + 2 + 3 + 2 + 1 = 9, MST = 5.
// cost() follows every member through the stages, so uneven pieces are exact too.
//
//   2x3x5 SSMCC:  S along d0 (2) ─► S along d1 (3) ─► M along d2 (5) ─► C d1 ─► C d0
#include <string>

#include "ccl/error.hpp"
#include "team.hpp"

namespace ccl::algorithms {

namespace {

struct Plan {
  Mesh mesh;
  int scatters = 0;  // a
  bool mst = false;
};

Plan plan_of(const Shape& s, const Params& p) {
  const std::string& w = p.plan;
  const int a = static_cast<int>(w.find_first_not_of('S'));
  const bool mst = a >= 0 && a < static_cast<int>(w.size()) && w[static_cast<std::size_t>(a)] == 'M';
  const int scatters = a < 0 ? static_cast<int>(w.size()) : a;
  const std::string expect = std::string(static_cast<std::size_t>(scatters), 'S') + (mst ? "M" : "") +
                             std::string(static_cast<std::size_t>(scatters), 'C');
  Plan plan{Mesh(p.mesh), scatters, mst};
  if (w.empty() || w != expect || static_cast<int>(p.mesh.size()) != scatters + (mst ? 1 : 0) ||
      plan.mesh.size() != s.size) {
    throw Error("ccl: bcast intercom needs plan S^a [M] C^a and a mesh of a (+1 with M) "
                "dimensions whose product is the group size; got mesh=" + to_string(Params{0, 0, p.mesh, ""}) +
                " plan=" + w + " for " + std::to_string(s.size) + " members");
  }
  return plan;
}

// The piece layouts of the scatter stages seen along the lines through relative member v.
std::vector<Pieces> layouts(const Plan& pl, const Shape& s, int v) {
  std::vector<Pieces> out;
  Pieces cur(s.vector_bytes(), 1, s.elem);
  int index = 0;
  for (int i = 0; i < pl.scatters; ++i) {
    out.emplace_back(cur, index, pl.mesh.extent(i), s.elem);
    cur = out.back();
    index = pl.mesh.coord(v, i);
  }
  return out;
}

// The piece member v holds after the scatters.
Slice held_piece(const Plan& pl, const std::vector<Pieces>& lay, int v, Slice data) {
  if (pl.scatters == 0) return data;
  const Pieces& last = lay.back();
  const int c = pl.mesh.coord(v, pl.scatters - 1);
  return data.sub(last.begin(c), last.bytes(c));
}

Schedule build(const Shape& s, const Params& p) {
  ScheduleBuilder b("intercom");
  const Plan pl = plan_of(s, p);
  const Team whole = Team::whole(s, s.root);
  const int v = whole.me;
  const Slice data{Buffer::recv, 0, s.vector_bytes()};
  const std::vector<Pieces> lay = layouts(pl, s, v);
  for (int i = 0; i < pl.scatters; ++i) {
    if (pl.mesh.zero_after(v, i)) emit_tree_scatter(b, pl.mesh.line(whole, v, i), data, lay[static_cast<std::size_t>(i)]);
  }
  if (pl.mst) emit_tree_bcast(b, pl.mesh.line(whole, v, pl.scatters), held_piece(pl, lay, v, data));
  for (int i = pl.scatters - 1; i >= 0; --i) {
    emit_ring_collect(b, pl.mesh.line(whole, v, i), data, lay[static_cast<std::size_t>(i)]);
  }
  return b.finish();
}

Cost cost(const Shape& s, const Params& p) {
  const Plan pl = plan_of(s, p);
  const Team whole = Team::whole(s, s.root);
  Timeline tl(static_cast<std::size_t>(s.size));
  // Each stage: every line along its dimension (led by the member with coordinate 0 there).
  auto each_line = [&](int i, bool holders_only, auto apply) {
    for (int v = 0; v < s.size; ++v) {
      if (pl.mesh.coord(v, i) != 0 || (holders_only && !pl.mesh.zero_after(v, i))) continue;
      apply(pl.mesh.line(whole, v, i), layouts(pl, s, v));
    }
  };
  for (int i = 0; i < pl.scatters; ++i) {
    each_line(i, true, [&](const Team& t, const std::vector<Pieces>& lay) {
      cost_tree_scatter(tl, t, lay[static_cast<std::size_t>(i)]);
    });
  }
  if (pl.mst) {
    each_line(pl.scatters, false, [&](const Team& t, const std::vector<Pieces>& lay) {
      const std::size_t bytes = pl.scatters == 0 ? s.vector_bytes()
                                                 : lay.back().bytes(pl.mesh.coord(t.rel(0), pl.scatters - 1));
      cost_tree_bcast(tl, t, bytes);
    });
  }
  for (int i = pl.scatters - 1; i >= 0; --i) {
    each_line(i, false, [&](const Team& t, const std::vector<Pieces>& lay) {
      cost_ring_collect(tl, t, lay[static_cast<std::size_t>(i)]);
    });
  }
  return worst(tl);
}

std::vector<Params> candidates(const Shape& s) {
  std::vector<Params> out;
  for (int k = 2; k <= 3; ++k) {
    for (const auto& mesh : factorizations(s.size, k)) {
      const std::string S(static_cast<std::size_t>(k - 1), 'S'), C(static_cast<std::size_t>(k - 1), 'C');
      out.push_back(Params{0, 0, mesh, S + "M" + C});
      out.push_back(Params{0, 0, mesh, S + "S" + "C" + C});
    }
  }
  return out;
}

}  // namespace

const Algorithm bcast_intercom{"intercom", CollKind::bcast, build, cost, candidates};

}  // namespace ccl::algorithms
