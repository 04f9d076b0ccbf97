// The multi-link allgather on a torus, as a plan (torus_plan.hpp): every block reaches every
// node as early as it can, at the step of its hop distance |δ|₁ (the sum of its short-way
// distances), so the whole takes the diameter in steps; and at each step the shares are spread
// so that all 2k' links carry as equal loads as the step allows.
//
// Why it is an allgather: a node at displacement δ may take a block from any neighbour one hop
// nearer its origin (one per non-zero coordinate, both ways for an antipodal one); that neighbour
// is at distance |δ|₁ − 1, so it holds the whole block by the step before. Every block therefore
// arrives whole, once, at its own step, however it is split among those neighbours: the steps
// are independent, and each is a small transport problem. Blocks with the same set of usable
// links form one class; the largest load a link must carry is the least c for which a flow from
// the classes (supply: their block counts) through their links (capacity c each) moves every
// block: max-flow, by bisection on c. A block's share on a link is its class's flow there over
// the class size, rounded to 1/240ths of the block (largest remainders, so the shares add up).
//
// Where the QCDOC scheme groups steps by the number of non-zero coordinates (k'·R steps) and so
// leaves the links of short dimensions idle in the later steps of each group, this one uses
// every link whenever some block can reach the node through it.
//
//   2x4 (diameter 3), what node (0,0) receives, blocks by displacement:
//     step 1  the three one hop away: (0,±1) on the y links, (1,0) on an x link (both reach it)
//     step 2  the three two hops away, (0,2) and (1,±1), spread over x and y links
//     step 3  (1,2), over whichever links balance the step
#pragma once

#include "ccl/grids/torus_plan.hpp"

namespace ccl::grids {

class MultilinkPlan : public TorusPlan {
 public:
  static constexpr std::uint32_t kUnits = 240;  // a block's shares are multiples of 1/240
  explicit MultilinkPlan(const Cartesian& torus);
};

}  // namespace ccl::grids
