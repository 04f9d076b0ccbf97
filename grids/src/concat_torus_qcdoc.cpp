// Concat on a torus group by the QCDOC scheme (qcdoc_plan.hpp): one round per step, in which a
// node sends one message on each of its 2k links and receives one on each. A message packs the
// block shares the neighbour gets through that link at that step; they are unpacked into place
// at the start of the next round, where the shares to forward are packed in turn.
//
// Cost for blocks of b bytes on a torus d0 × … × d(k−1) of P members, R = max ⌊di/2⌋: k'·R
// rounds (k' dimensions of size > 1; the diameter on a regular torus) of up to 2k' messages each;
// all members alike, so per round C1 and C2 grow by the sends one after another and by whatever
// the receive port adds on top (cost() follows the simulator's one-port clock exactly). In the
// one-port model the 2k' links are used one after another; on a torus network (the simulator's
// torus model, or QCDOC) they run at once: (P − 1)·b bytes arrive over 2k' links, near the bound
// s·x / n_channels + n_hops·L where the plan spreads them evenly.
//
//   4x4, what node (0,0) receives (blocks by origin):
//     step 1   ◄x─ (3,0)'s   ◄x+ (1,0)'s   ◄y─ (0,3)'s   ◄y+ (0,1)'s       (own blocks)
//     step 2   (2,0)'s in halves on both x links, (0,2)'s on both y links  (forwarded once)
//     step 3   8 blocks with a distance 1 in one dimension, through that dimension's links
//     step 4   (2,2)'s in quarters on all four links
#include <map>
#include <memory>

#include "ccl/algorithm.hpp"
#include "ccl/grids/cartesian.hpp"
#include "ccl/grids/qcdoc_plan.hpp"
#include "torus_algorithms.hpp"

namespace ccl::grids {

namespace {

// Plans are the same for every member of a torus: build each shape's once.
const QcdocPlan& plan_of(const std::vector<int>& dims) {
  static std::map<std::vector<int>, std::unique_ptr<QcdocPlan>> plans;
  auto& p = plans[dims];
  if (!p) p = std::make_unique<QcdocPlan>(Cartesian(dims));
  return *p;
}

// Bytes [begin, end) of a b-byte block that a share covers.
std::size_t share_begin(const Piece& p, std::size_t b) { return b * p.first / p.den; }
std::size_t share_end(const Piece& p, std::size_t b) { return b * (p.first + p.units) / p.den; }

// Per step and link: the bytes of the message on that link.
std::vector<std::vector<std::size_t>> link_bytes(const QcdocPlan& plan, std::size_t b) {
  std::vector<std::vector<std::size_t>> bytes(static_cast<std::size_t>(plan.steps()),
                                              std::vector<std::size_t>(2 * static_cast<std::size_t>(plan.torus().ndims()), 0));
  for (int s = 0; s < plan.steps(); ++s) {
    for (const Piece& p : plan.arrivals(s)) {
      bytes[static_cast<std::size_t>(s)][static_cast<std::size_t>(p.link.index())] += share_end(p, b) - share_begin(p, b);
    }
  }
  return bytes;
}

Link link_of_index(int i) { return Link{i / 2, i % 2 == 0 ? +1 : -1}; }

Schedule build(const Shape& s, const Params&) {
  ScheduleBuilder b("torus_qcdoc");
  const Cartesian torus(s.torus);
  const QcdocPlan& plan = plan_of(s.torus);
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
      start[static_cast<std::size_t>(l)] = start[static_cast<std::size_t>(l) - 1] + bytes[static_cast<std::size_t>(step)][static_cast<std::size_t>(l) - 1];
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
      const Link link = link_of_index(l);
      if (n > 0) b.send(torus.neighbour(s.rank, link.dim, link.dir), scratch.sub(start[static_cast<std::size_t>(l)], n));
    }
    for (int l = 0; l < links; ++l) {
      const std::size_t n = bytes[static_cast<std::size_t>(step)][static_cast<std::size_t>(l)];
      const Link link = link_of_index(l);
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
Cost cost(const Shape& s, const Params&) {
  const QcdocPlan& plan = plan_of(s.torus);
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

std::vector<Params> candidates(const Shape& s) {
  if (s.kind != CollKind::concat || s.torus.empty()) return {};
  return {Params{}};
}

}  // namespace

const Algorithm concat_torus_qcdoc{"torus_qcdoc", CollKind::concat, build, cost, candidates};

}  // namespace ccl::grids
