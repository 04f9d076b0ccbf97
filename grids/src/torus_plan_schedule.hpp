// Any torus allgather plan (torus_plan.hpp) as a ccl schedule, and its cost. One round per step:
// a node sends, for each link, one message of the shares the neighbour at its far end gets
// through it, gathered from where they lie in the receive buffer, and receives one per link,
// scattered into place (ScheduleBuilder::send_gathered: MPI moves the pieces in place, as
// QCDOC's DMA engines did; other transports stage them). Every member's schedule is the same,
// translated.
//
// Cost for k' dimensions of size > 1: per round, up to 2k' messages leave one after another and
// arrive through one receive port (the simulator's one-port clock, followed exactly: all members
// advance alike, so a message's departure time is the sender's clock after that send).
#pragma once

#include <map>
#include <memory>
#include <string_view>
#include <vector>

#include "ccl/algorithm.hpp"
#include "ccl/grids/torus_plan.hpp"

namespace ccl::grids {

// A plan is the same for every member of a torus: each shape's is built once.
template <class Plan>
const Plan& cached_plan(const std::vector<int>& dims) {
  static std::map<std::vector<int>, std::unique_ptr<Plan>> plans;
  auto& p = plans[dims];
  if (!p) p = std::make_unique<Plan>(Cartesian(dims));
  return *p;
}

// s.count·s.elem bytes per block (concat); s.rank is the member the schedule is for.
Schedule build_from_plan(const TorusPlan& plan, const Shape& s, std::string_view algorithm);
Cost cost_of_plan(const TorusPlan& plan, const Shape& s);
// Where a member's links run at once: per step, one start-up and its busiest link's bytes.
Cost multiport_cost_of_plan(const TorusPlan& plan, const Shape& s);

}  // namespace ccl::grids
