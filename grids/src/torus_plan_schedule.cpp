#include "torus_plan_schedule.hpp"

#include <algorithm>

namespace ccl::grids {

namespace {

// Bytes [begin, end) of a b-byte block that a share covers.
std::size_t share_begin(const Piece& p, std::size_t b) {
  return b * p.first / p.den;
}
std::size_t share_end(const Piece& p, std::size_t b) {
  return b * (p.first + p.units) / p.den;
}

// Per step and link: the bytes of the message on that link.
std::vector<std::vector<std::size_t>> link_bytes(const TorusPlan& plan, std::size_t b) {
  std::vector<std::vector<std::size_t>> bytes(
      static_cast<std::size_t>(plan.steps()),
      std::vector<std::size_t>(2 * static_cast<std::size_t>(plan.torus().ndims()), 0));
  for (int s = 0; s < plan.steps(); ++s) {
    for (const Piece& p : plan.arrivals(s)) {
      bytes[static_cast<std::size_t>(s)][static_cast<std::size_t>(p.link.index())] +=
          share_end(p, b) - share_begin(p, b);
    }
  }
  return bytes;
}

}  // namespace

Schedule build_from_plan(const TorusPlan& plan, const Shape& s, std::string_view algorithm) {
  ScheduleBuilder b(algorithm);
  const Cartesian& torus = plan.torus();
  const std::size_t block = s.count * s.elem;
  const int links = 2 * torus.ndims();
  b.copy(Slice{Buffer::send, 0, block},
         Slice{Buffer::recv, static_cast<std::size_t>(s.rank) * block, block});
  // The shares through one link at one step, in the plan's order, where they lie in the receive
  // buffer of the member for whom `receiver` gives their origins.
  std::vector<Extent> pieces;
  auto shares = [&](int step, int link, int receiver) {
    pieces.clear();
    for (const Piece& p : plan.arrivals(step)) {
      if (p.link.index() != link) continue;
      const std::size_t from = share_begin(p, block), to = share_end(p, block);
      pieces.push_back(
          Extent{static_cast<std::size_t>(plan.origin_of(receiver, p)) * block + from, to - from});
    }
    return std::span<const Extent>(pieces);
  };
  for (int step = 0; step < plan.steps(); ++step) {
    for (int l = 0; l < links; ++l) {
      const Link link = Link::of(l);
      const int to = torus.neighbour(s.rank, link.dim, link.dir);
      b.send_gathered(to, Buffer::recv, shares(step, l, to));
    }
    for (int l = 0; l < links; ++l) {
      const Link link = Link::of(l);
      b.recv_scattered(torus.neighbour(s.rank, link.dim, -link.dir), Buffer::recv,
                       shares(step, l, s.rank));
    }
    b.end_round();
  }
  return b.finish();
}

// Every member runs the same rounds: its clock and its neighbours' advance alike. Per round the
// sends leave one after another; a receive completes at the later of its message's departure
// (the sender's clock after that send) and the port's previous receive plus this one.
Cost cost_of_plan(const TorusPlan& plan, const Shape& s) {
  const auto bytes = link_bytes(plan, s.count * s.elem);
  Cost clock;
  for (const auto& step : bytes) {
    Cost after = clock, port = clock;
    std::vector<Cost> departs(step.size());
    for (std::size_t l = 0; l < step.size(); ++l) {
      if (step[l] == 0) continue;
      after += Cost{1, step[l], 0};
      departs[l] = after;
    }
    Cost next = after;
    for (std::size_t l = 0; l < step.size(); ++l) {
      if (step[l] == 0) continue;
      port = longest(departs[l], port + Cost{1, step[l], 0});
      next = longest(next, port);
    }
    clock = next;
  }
  return clock;
}

Cost multiport_cost_of_plan(const TorusPlan& plan, const Shape& s) {
  Cost c;
  for (const auto& step : link_bytes(plan, s.count * s.elem)) {
    const std::size_t busiest = *std::max_element(step.begin(), step.end());
    if (busiest > 0) c += Cost{1, busiest, 0};
  }
  return c;
}

}  // namespace ccl::grids
