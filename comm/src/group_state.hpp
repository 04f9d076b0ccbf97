// What a Group handle points to: members, rank, label, PGID, the count of collective instances
// started on it (the same on every member, since members start collectives in the same order),
// its transport channel and its cache of built schedules.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "ccl/algorithm.hpp"
#include "ccl/call.hpp"
#include "ccl/pgid.hpp"
#include "ccl/schedule.hpp"
#include "ccl/selection.hpp"
#include "ccl/shape.hpp"
#include "ccl/stats.hpp"
#include "channel.hpp"
#include "flight_recorder.hpp"
#include "process.hpp"
#include "schedule_run.hpp"

namespace ccl::detail {

class ScheduleCache {
 public:
  // The schedule of a shape, built on first use (counted in `stats`) and reused afterwards:
  // with the selected algorithm, or with `fixed` when given.
  // The reference stays valid until the next get().
  const std::shared_ptr<const Schedule>& get(const Shape& shape, Statistics& stats,
                                             const Choice* fixed = nullptr);

 private:
  static constexpr std::size_t kCapacity = 256;
  using Map = std::unordered_map<Shape, std::shared_ptr<const Schedule>>;
  Map map_;
  Map::const_iterator last_ = map_.end();  // a loop repeats one shape: no hashing then
  unsigned epoch_ = 0;
};

// The last call a group ran straight through, after its checks passed: a call with the same
// parameters and buffers passes the same checks and runs the same schedule, so a loop repeating
// one call skips both (most of the cost of a call of a few bytes). V-forms, whose counts lists
// would need comparing, are never remembered.
class CallMemo {
 public:
  // The schedule of the remembered call if `call` repeats it under the current selection.
  const std::shared_ptr<const Schedule>* find(const Call& call) const {
    if (schedule_ == nullptr || epoch_ != selection_epoch() || !(key_ == key_of(call))) return nullptr;
    return &schedule_;
  }
  // `at_once`: the call returns without running its schedule (start.cpp, returns_at_once).
  void remember(const Call& call, const std::shared_ptr<const Schedule>& schedule, bool at_once) {
    if (is_vector_form(call.kind)) return;
    key_ = key_of(call);
    schedule_ = schedule;
    at_once_ = at_once;
    epoch_ = selection_epoch();
  }
  bool at_once() const { return at_once_; }

 private:
  struct Key {
    CollKind kind = CollKind::sync;
    bool reduces = false, commutative = false;
    int root = -1, distance = 0;
    std::size_t elem = 0;
    const std::byte* send = nullptr;
    std::size_t send_elems = 0;
    const std::byte* recv = nullptr;
    std::size_t recv_elems = 0;
    friend bool operator==(const Key&, const Key&) = default;
  };
  static Key key_of(const Call& c) {
    return Key{c.kind, static_cast<bool>(c.kernel), c.kernel.commutative, c.root, c.distance, c.elem,
               c.send, c.send_elems, c.recv, c.recv_elems};
  }
  Key key_;
  std::shared_ptr<const Schedule> schedule_;
  bool at_once_ = false;
  unsigned epoch_ = 0;
};

// A blocking collective run straight through (nothing else in flight, run mode): the group's
// own executor and scratch, with no operation or request around them.
struct DirectRun {
  ScheduleRun run;
  ReusableScratch scratch;
  CallMemo last;
};

struct GroupState {
  Process* process = nullptr;
  std::vector<int> members;  // world ranks in group order
  int rank = 0;
  std::string label;
  // The label as flight records keep it (cut to fit, NUL-padded): copied whole on every call.
  std::array<char, kRecordLabel> record_label{};
  Pgid pgid;
  std::vector<int> torus;  // the layout set_torus declared, if any
  std::uint64_t instances = 0;
  // Nonblocking collectives started on the group and not yet complete, by instance (ascending):
  // the oldest must complete before an instance a tag cycle later starts.
  std::vector<std::pair<std::uint64_t, Operation*>> in_flight;
  std::unique_ptr<Channel> channel;
  ScheduleCache schedules;
  ScheduleCache check_schedules;  // develop-mode exchanges: fixed algorithms, never overridden
  DirectRun direct;

  void set_label(std::string text) {
    label = std::move(text);
    record_label.fill('\0');
    label.copy(record_label.data(), record_label.size() - 1);
  }
};

}  // namespace ccl::detail
