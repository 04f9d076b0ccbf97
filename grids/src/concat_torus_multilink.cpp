// Concat on a torus group by the multi-link scheme (multilink_plan.hpp): every block arrives at
// the step of its hop distance, so the whole takes the diameter in steps, and each step's shares
// are spread over the 2k' links as evenly as the blocks of that step allow (a max-flow per step).
// The schedule is the plan's (torus_plan_schedule.hpp): one round per step, one packed message
// per link.
//
// Cost for blocks of b bytes on P members with k' dimensions of size > 1 and diameter D: D rounds
// of up to 2k' messages, (P − 1)·b bytes in all; per round C1 and C2 grow as cost_of_plan follows
// the simulator's one-port clock. On a torus network where links run at once a step costs its
// busiest link: near (P − 1)·b / 2k' over all steps when the loads balance, plus D latencies.
//
//   2x4 (diameter 3), what node (0,0) receives, blocks by displacement:
//     step 1  the three one hop away: (0,±1) on the y links, (1,0) on an x link (both reach it)
//     step 2  the three two hops away, (0,2) and (1,±1), spread over x and y links
//     step 3  (1,2), over whichever links balance the step
#include "ccl/grids/multilink_plan.hpp"
#include "torus_algorithms.hpp"
#include "torus_plan_schedule.hpp"

namespace ccl::grids {

namespace {

Schedule build(const Shape& s, const Params&) {
  return build_from_plan(cached_plan<MultilinkPlan>(s.torus), s, "torus_multilink");
}
Cost cost(const Shape& s, const Params&) {
  return cost_of_plan(cached_plan<MultilinkPlan>(s.torus), s);
}
Cost multiport(const Shape& s, const Params&) {
  return multiport_cost_of_plan(cached_plan<MultilinkPlan>(s.torus), s);
}

}  // namespace

const Algorithm concat_torus_multilink{"torus_multilink", CollKind::concat, build,    cost,
                                       torus_candidates,  nullptr,          multiport};

}  // namespace ccl::grids
