// The QCDOC allgather (Deng, Glimm, Davenport) on a torus, as a plan (torus_plan.hpp).
//
// Steps come in groups, one per dimension, of R = max ⌊d_i/2⌋ steps each; in every step a node
// receives on each of its 2k links (the + and − link of every dimension of size > 1). A block
// whose displacement (receiver − origin, each coordinate taken the short way round its ring)
// has m non-zero coordinates arrives in group m − 1, at the step of its smallest non-zero
// distance l: step (m − 1)·R + l. It travels its largest distance first and its smallest last;
// at every step a node forwards along a link only data whose distance in that link's dimension
// is the smallest of its non-zero ones (the paper's rule), so that every node receives every
// block exactly once. Ties split: a block whose smallest distance is shared by several
// dimensions arrives in equal shares through each, and an antipodal distance (t/2 on a ring of
// even size t, which both directions reach) in halves through the + and − links. On a regular
// torus the step count is the diameter; the paper's table for 6^6 is M = 12, 12, 6, 240, 120,
// 15, 1960, 520, 20, 8160, 1200, 15, 17292, 1452, 6, 14896, 728, 1 (the paper prints 17298,
// 3872 and a sum of 15760 where its own rule gives 17292, 1452 and 15625).
//
//   4x4 (R = 2), blocks by displacement: step 1 gets (±1,0), (0,±1); step 2 gets (2,0) and (0,2)
//   in halves over both links of their dimension; step 3 gets (2,±1) and (±1,2) through the
//   link of the 1, and (±1,±1) a half through each dimension's link; step 4 gets (2,2) in
//   quarters over all four links. 4 + 2 + 8 + 1 = 15 blocks.
#pragma once

#include "ccl/grids/torus_plan.hpp"

namespace ccl::grids {

class QcdocPlan : public TorusPlan {
 public:
  explicit QcdocPlan(const Cartesian& torus);
  int group_steps() const { return group_steps_; }  // R

 private:
  int group_steps_ = 0;
};

}  // namespace ccl::grids
