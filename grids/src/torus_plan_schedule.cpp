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
  const auto bytes = link_bytes(plan, block);
  const int links = 2 * torus.ndims();
  // One scratch area for a step's messages: the send of each link, then the receive of each
  // (a node sends on a link what it receives on it: the same sizes).
  std::size_t area = 0;
  for (const auto& step : bytes) {
    std::size_t sum = 0;
    for (std::size_t x : step) sum += x;
    area = std::max(area, sum);
  }
  const Slice scratch = b.scratch(2 * area);
  auto block_slice = [&](int origin, std::size_t from, std::size_t to) {
    return Slice{Buffer::recv, static_cast<std::size_t>(origin) * block + from, to - from};
  };
  b.copy(Slice{Buffer::send, 0, block}, block_slice(s.rank, 0, block));
  // Each piece relative to a receiver x: origin x − displacement.
  auto origin_of = [&](int receiver, const Piece& p) {
    std::vector<int> c = torus.coords(receiver);
    for (std::size_t d = 0; d < c.size(); ++d) c[d] -= p.displacement[d];
    return torus.rank(c);
  };
  auto unpack = [&](int step) {
    std::vector<std::size_t> at(static_cast<std::size_t>(links), 0);
    std::size_t recv_base = area;
    std::vector<std::size_t> start(static_cast<std::size_t>(links), 0);
    for (int l = 0; l < links; ++l) {
      start[static_cast<std::size_t>(l)] = recv_base;
      recv_base += bytes[static_cast<std::size_t>(step)][static_cast<std::size_t>(l)];
    }
    for (const Piece& p : plan.arrivals(step)) {
      const std::size_t from = share_begin(p, block), to = share_end(p, block);
      const auto l = static_cast<std::size_t>(p.link.index());
      b.copy(scratch.sub(start[l] + at[l], to - from), block_slice(origin_of(s.rank, p), from, to));
      at[l] += to - from;
    }
  };
  for (int step = 0; step < plan.steps(); ++step) {
    if (step > 0) unpack(step - 1);
    // Pack, for each link's far end, the shares it gets through that link.
    std::vector<std::size_t> start(static_cast<std::size_t>(links), 0), at(start.size(), 0);
    for (int l = 1; l < links; ++l) {
      start[static_cast<std::size_t>(l)] =
          start[static_cast<std::size_t>(l) - 1] +
          bytes[static_cast<std::size_t>(step)][static_cast<std::size_t>(l) - 1];
    }
    for (const Piece& p : plan.arrivals(step)) {
      const int to = torus.neighbour(s.rank, p.link.dim, p.link.dir);
      const std::size_t from = share_begin(p, block), end = share_end(p, block);
      const auto l = static_cast<std::size_t>(p.link.index());
      b.copy(block_slice(origin_of(to, p), from, end), scratch.sub(start[l] + at[l], end - from));
      at[l] += end - from;
    }
    std::size_t recv_at = area;
    for (int l = 0; l < links; ++l) {
      const std::size_t n = bytes[static_cast<std::size_t>(step)][static_cast<std::size_t>(l)];
      const Link link = Link::of(l);
      if (n > 0)
        b.send(torus.neighbour(s.rank, link.dim, link.dir),
               scratch.sub(start[static_cast<std::size_t>(l)], n));
    }
    for (int l = 0; l < links; ++l) {
      const std::size_t n = bytes[static_cast<std::size_t>(step)][static_cast<std::size_t>(l)];
      const Link link = Link::of(l);
      if (n > 0) b.recv(torus.neighbour(s.rank, link.dim, -link.dir), scratch.sub(recv_at, n));
      recv_at += n;
    }
    b.end_round();
  }
  if (plan.steps() > 0) unpack(plan.steps() - 1);
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
