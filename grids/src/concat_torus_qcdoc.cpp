// Concat on a torus group by the QCDOC scheme (Deng, Glimm, Davenport; qcdoc_plan.hpp): blocks
// arrive in groups of R = max ⌊di/2⌋ steps by their number of non-zero coordinates, at the step
// of their smallest distance, ties and antipodes split. The schedule is the plan's
// (torus_plan_schedule.hpp): one round per step, one packed message per link.
//
// Cost for blocks of b bytes on P members with k' dimensions of size > 1: k'·R rounds of up to
// 2k' messages; per round C1 and C2 grow by the sends one after another and by what the receive
// port adds (cost_of_plan). On a torus network where links run at once, (P − 1)·b bytes arrive
// over 2k' links in k'·R steps: the bound on regular tori, less where dimensions differ.
//
//   4x4, what node (0,0) receives (blocks by origin):
//     step 1   ◄x─ (3,0)'s   ◄x+ (1,0)'s   ◄y─ (0,3)'s   ◄y+ (0,1)'s       (own blocks)
//     step 2   (2,0)'s in halves on both x links, (0,2)'s on both y links  (forwarded once)
//     step 3   8 blocks with a distance 1 in one dimension, through that dimension's links
//     step 4   (2,2)'s in quarters on all four links
#include "ccl/grids/qcdoc_plan.hpp"
#include "torus_algorithms.hpp"
#include "torus_plan_schedule.hpp"

namespace ccl::grids {

namespace {

Schedule build(const Shape& s, const Params&) {
  return build_from_plan(cached_plan<QcdocPlan>(s.torus), s, "torus_qcdoc");
}
Cost cost(const Shape& s, const Params&) {
  return cost_of_plan(cached_plan<QcdocPlan>(s.torus), s);
}
Cost multiport(const Shape& s, const Params&) {
  return multiport_cost_of_plan(cached_plan<QcdocPlan>(s.torus), s);
}

}  // namespace

const Algorithm concat_torus_qcdoc{"torus_qcdoc",    CollKind::concat, build,    cost,
                                   torus_candidates, nullptr,          multiport};

}  // namespace ccl::grids
