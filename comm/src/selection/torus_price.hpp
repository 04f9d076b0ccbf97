// Concat on a torus group, priced with the torus links of the machine model (TorusLinkModel):
// what the plain α·C1 + β·C2 cannot see there is how far each message travels and how many
// messages share a link.
//
// Algorithms built for the torus (those with a multi-port cost: rounds of messages to
// neighbours, one per link): where a member drives all 2k' links of its k' dimensions of size
// > 1 at once, C1·(alpha + hop) + C2·beta of the multi-port cost (C2: the busiest link's bytes
// per round, summed); with fewer ports, the same of their one-port cost.
//
// Every other algorithm, from member 0's schedule round by round: every member sends at the same
// rank offsets o (Bruck, ring, recursive doubling and linear are rank-symmetric), so a route of
// h_d links along dimension d shares each of them with the other members' routes in that
// direction, h_d messages a link. A message of n bytes then costs
//   alpha + h·hop + n·beta·max_d h_d,     h = Σ_d h_d,
// with h_d the shortest way round dimension d, the largest that any member's carry makes (from
// member i, offset o reaches i + o mod P, row-major: dimension d moves by o's digit there, or one
// more when the lower dimensions carry). A round's messages leave one after another; rounds add.
#pragma once

#include "ccl/algorithm.hpp"
#include "ccl/selection.hpp"

namespace ccl::detail {

// Predicted seconds of algorithm `a` with `p` for a concat shape with a torus layout.
double torus_price(const Algorithm& a, const Params& p, const Shape& s, const TorusLinkModel& t);

}  // namespace ccl::detail
