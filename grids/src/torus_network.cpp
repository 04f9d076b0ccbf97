#include "ccl/grids/torus_network.hpp"

#include <queue>
#include <unordered_map>
#include <vector>

#include "ccl/error.hpp"

namespace ccl::grids {

namespace {

// A member's schedule, sends and receives only: per round, its sends (peer, bytes) and how many
// messages it receives.
struct Member {
  std::vector<std::uint32_t> round_first;  // into sends; one past the last round at the end
  std::vector<std::pair<int, std::size_t>> sends;
  // Rounds of its receives from each source, in posting order (FIFO matching per pair).
  std::unordered_map<int, std::vector<std::uint32_t>> recv_rounds;
  std::unordered_map<int, std::uint32_t> recv_next;
  // Progress.
  std::uint32_t round = 0;
  std::vector<std::uint32_t> pending;  // per round: transfers not yet done
  std::vector<double> done_at;         // per round: when its last transfer completed
  std::size_t transfer_rounds = 0;     // rounds that send or receive
};

struct Message {
  int src = 0, dst = 0, node = 0;
  std::size_t bytes = 0;
  std::uint32_t send_round = 0;
  int dim = 0, dir = 0, left = 0;  // the current leg
};

struct Event {
  double time;
  std::uint64_t seq;
  std::uint32_t message;
  bool operator>(const Event& o) const { return time != o.time ? time > o.time : seq > o.seq; }
};

class Simulation {
 public:
  Simulation(const Cartesian& torus, const TorusLinks& links)
      : t_(torus), l_(links), k_(static_cast<std::size_t>(torus.ndims())) {
    const auto P = static_cast<std::size_t>(torus.size());
    link_free_.assign(P * 2 * k_, 0.0);
    coords_.resize(P * k_);
    neighbours_.resize(P * 2 * k_);
    for (int r = 0; r < torus.size(); ++r) {
      const std::vector<int> c = torus.coords(r);
      for (std::size_t d = 0; d < k_; ++d) {
        coords_[static_cast<std::size_t>(r) * k_ + d] = c[d];
        neighbours_[link(r, static_cast<int>(d), +1)] = torus.neighbour(r, static_cast<int>(d), +1);
        neighbours_[link(r, static_cast<int>(d), -1)] = torus.neighbour(r, static_cast<int>(d), -1);
      }
    }
  }

  NetworkRun run(std::vector<Member>& members) {
    members_ = &members;
    for (std::size_t m = 0; m < members.size(); ++m) start_round(static_cast<int>(m), 0.0);
    while (!events_.empty()) {
      const Event e = events_.top();
      events_.pop();
      hop(e.message, e.time);
    }
    NetworkRun r;
    for (const Member& m : members) {
      if (m.round + 1 < m.round_first.size())
        throw Error("ccl::grids: torus network: a member never finished (deadlock)");
      r.rounds = std::max(r.rounds, m.transfer_rounds);
      for (double t : m.done_at) r.seconds = std::max(r.seconds, t);
    }
    r.messages = messages_;
    r.hops = hops_;
    return r;
  }

 private:
  // Round k of member m starts at time `at`: its messages leave (or it completes at once).
  void start_round(int m, double at) {
    Member& mem = (*members_)[static_cast<std::size_t>(m)];
    for (;;) {
      const std::uint32_t k = mem.round;
      if (k + 1 >= mem.round_first.size()) return;  // all rounds done
      mem.done_at[k] = std::max(mem.done_at[k], at);
      if (mem.pending[k] == 0) {  // nothing to wait for (or all it receives already came)
        at = mem.done_at[k];
        ++mem.round;
        continue;
      }
      for (std::uint32_t i = mem.round_first[k]; i < mem.round_first[k + 1]; ++i) {
        Message msg;
        msg.src = msg.node = m;
        msg.dst = mem.sends[i].first;
        msg.bytes = mem.sends[i].second;
        msg.send_round = k;
        next_leg(msg);
        push(add(msg), at);
        ++messages_;
      }
      return;
    }
  }

  std::uint32_t add(const Message& m) {
    if (!free_.empty()) {
      const std::uint32_t i = free_.back();
      free_.pop_back();
      messages_in_flight_[i] = m;
      return i;
    }
    messages_in_flight_.push_back(m);
    return static_cast<std::uint32_t>(messages_in_flight_.size() - 1);
  }

  void push(std::uint32_t message, double at) { events_.push(Event{at, seq_++, message}); }

  // Sets the message's next leg from where it is: the first dimension in which it is not yet
  // at its destination, the shorter way round (both ways: dir 0, chosen at the first hop).
  void next_leg(Message& m) const {
    const int* here = &coords_[static_cast<std::size_t>(m.node) * k_];
    const int* there = &coords_[static_cast<std::size_t>(m.dst) * k_];
    for (int d = 0; d < t_.ndims(); ++d) {
      const int n = t_.dim(d);
      const int fwd = ((there[d] - here[d]) % n + n) % n;
      if (fwd == 0) continue;
      m.dim = d;
      m.left = std::min(fwd, n - fwd);
      m.dir = fwd < n - fwd ? +1 : fwd > n - fwd ? -1 : 0;
      return;
    }
    m.left = 0;
  }

  std::size_t link(int node, int dim, int dir) const {
    return (static_cast<std::size_t>(node) * k_ + static_cast<std::size_t>(dim)) * 2 +
           (dir > 0 ? 0 : 1);
  }

  // The message is at its node at time `at`, ready for its next hop, or delivered.
  void hop(std::uint32_t id, double at) {
    Message& m = messages_in_flight_[id];
    if (m.left == 0) next_leg(m);
    if (m.left == 0) {
      const Message done = m;  // delivering starts rounds, which may add messages: m may move
      free_.push_back(id);
      deliver(done, at);
      return;
    }
    if (m.dir == 0) {  // both ways are shortest: the link that frees first, then stay on it
      m.dir = link_free_[link(m.node, m.dim, -1)] < link_free_[link(m.node, m.dim, +1)] ? -1 : +1;
    }
    double& free = link_free_[link(m.node, m.dim, m.dir)];
    const double start = std::max(at, free);
    free = start + l_.latency + static_cast<double>(m.bytes) / l_.bandwidth;
    m.node = neighbours_[link(m.node, m.dim, m.dir)];
    --m.left;
    ++hops_;
    push(id, free);
  }

  void deliver(const Message& m, double at) {
    std::vector<Member>& all = *members_;
    // The sender's transfer is done.
    complete(m.src, m.send_round, at);
    // The receiver's: its next receive from this source, in posting order.
    Member& r = all[static_cast<std::size_t>(m.dst)];
    auto rounds = r.recv_rounds.find(m.src);
    std::uint32_t& next = r.recv_next[m.src];
    if (rounds == r.recv_rounds.end() || next >= rounds->second.size()) {
      throw Error("ccl::grids: torus network: a message from " + std::to_string(m.src) + " to " +
                  std::to_string(m.dst) + " that no receive matches");
    }
    complete(m.dst, rounds->second[next++], at);
  }

  void complete(int member, std::uint32_t round, double at) {
    Member& mem = (*members_)[static_cast<std::size_t>(member)];
    mem.done_at[round] = std::max(mem.done_at[round], at);
    if (--mem.pending[round] == 0 && round == mem.round) {
      ++mem.round;
      start_round(member, mem.done_at[round]);
    }
  }

  const Cartesian& t_;
  TorusLinks l_;
  std::size_t k_;                // dimensions
  std::vector<int> coords_;      // per node, k_ each
  std::vector<int> neighbours_;  // per link
  std::vector<Member>* members_ = nullptr;
  std::vector<double> link_free_;
  std::vector<Message> messages_in_flight_;
  std::vector<std::uint32_t> free_;
  std::priority_queue<Event, std::vector<Event>, std::greater<>> events_;
  std::uint64_t seq_ = 0;
  std::size_t messages_ = 0, hops_ = 0;
};

}  // namespace

double concat_bound(const Cartesian& torus, std::size_t block_bytes, const TorusLinks& links) {
  const int channels = torus.torus_links(), diameter = torus.torus_diameter();
  const double x = static_cast<double>(torus.size() - 1) * static_cast<double>(block_bytes);
  return (channels > 0 ? x / (links.bandwidth * channels) : 0.0) + diameter * links.latency;
}

NetworkRun simulate_concat(const Cartesian& torus, const Algorithm& a, const Params& p,
                           std::size_t block_bytes, const TorusLinks& links) {
  const int P = torus.size();
  std::vector<Member> members(static_cast<std::size_t>(P));
  for (int r = 0; r < P; ++r) {
    Shape s;
    s.kind = CollKind::concat;
    s.size = P;
    s.rank = r;
    s.elem = 1;
    s.count = block_bytes;
    s.torus.assign(torus.dims().begin(), torus.dims().end());
    const Schedule schedule = a.build(s, p);
    Member& m = members[static_cast<std::size_t>(r)];
    for (std::size_t k = 0; k < schedule.rounds(); ++k) {
      m.round_first.push_back(static_cast<std::uint32_t>(m.sends.size()));
      std::uint32_t transfers = 0;
      for (const Step& st : schedule.round(k)) {
        if (st.kind == StepKind::send) {
          m.sends.emplace_back(st.peer, st.src.bytes);
          ++transfers;
        } else if (st.kind == StepKind::recv) {
          m.recv_rounds[st.peer].push_back(static_cast<std::uint32_t>(k));
          ++transfers;
        }
      }
      m.pending.push_back(transfers);
      if (transfers > 0) ++m.transfer_rounds;
      m.done_at.push_back(0.0);
    }
    m.round_first.push_back(static_cast<std::uint32_t>(m.sends.size()));
  }
  Simulation sim(torus, links);
  NetworkRun run = sim.run(members);
  run.bound_seconds = concat_bound(torus, block_bytes, links);
  return run;
}

}  // namespace ccl::grids
