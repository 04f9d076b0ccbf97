// What a Group handle points to: members, rank, label, PGID, the count of collective instances
// started on it (the same on every member, since members start collectives in the same order),
// its transport channel and its cache of built schedules.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "algorithms/common.hpp"
#include "ccl/algorithm.hpp"
#include "ccl/call.hpp"
#include "ccl/pgid.hpp"
#include "ccl/schedule.hpp"
#include "ccl/selection.hpp"
#include "ccl/shape.hpp"
#include "ccl/stats.hpp"
#include "diagnostics/flight_recorder.hpp"
#include "execution/schedule_run.hpp"
#include "groups/process.hpp"
#include "transport/channel.hpp"

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

// The last calls a group ran straight through, after their checks passed: a call with the same
// parameters and buffers passes the same checks and runs the same schedule, so a loop repeating
// a few calls skips both (most of the cost of a call of a few bytes). Several are kept because
// benchmarks and programs rotate the root of a rooted call (IMB does, over every rank): with one
// entry, every bcast of 8 B on 2 ranks at alternating roots missed and paid its checks, shape
// and schedule lookup again, 0.13 us of a 0.27 us call. V-forms, whose counts lists would need
// comparing, are never remembered.
class CallMemo {
 public:
  struct Found {
    const std::shared_ptr<const Schedule>* schedule;
    bool at_once;  // the call returns without running its schedule (start.cpp, returns_at_once)
  };
  // The schedule of a remembered call that `call` repeats under the current selection, or null.
  Found find(const Call& call) {
    if (used_ == 0 || epoch_ != selection_epoch()) return {nullptr, false};
    // From the entry its kind matched last, which a loop of one call matches again, also when
    // a barrier comes between (IMB's and OSU's loops); the next one is the next root of a loop
    // rotating roots. (No modulo: a division on this path showed.)
    std::uint8_t& last = last_of_kind_[static_cast<std::size_t>(call.kind)];
    std::size_t at = last < used_ ? last : 0;
    for (std::size_t i = 0; i < used_; ++i) {
      Entry& e = entries_[at];
      if (e.key == key_of(call)) {
        last = static_cast<std::uint8_t>(at);
        return {&e.schedule, e.at_once};
      }
      if (++at == used_) at = 0;
    }
    return {nullptr, false};
  }
  void remember(const Call& call, const std::shared_ptr<const Schedule>& schedule, bool at_once) {
    if (is_vector_form(call.kind)) return;
    if (epoch_ != selection_epoch()) {  // a new selection: what was remembered chose by the old one
      used_ = 0;
      next_ = 0;
      epoch_ = selection_epoch();
    }
    Entry& e = entries_[next_];
    e = Entry{key_of(call), schedule, at_once};
    last_of_kind_[static_cast<std::size_t>(call.kind)] = static_cast<std::uint8_t>(next_);
    used_ = std::max(used_, next_ + 1);
    next_ = (next_ + 1) % kEntries;  // the oldest goes first
  }

 private:
  static constexpr std::size_t kEntries = 16;  // a root per rank up to 16 ranks, or a few calls
  struct Key {  // the root first: it tells the entries of a rotation apart at the first test
    int root = -1;
    CollKind kind = CollKind::sync;
    bool reduces = false, commutative = false;
    int distance = 0;
    std::size_t elem = 0;
    const std::byte* send = nullptr;
    std::size_t send_elems = 0;
    const std::byte* recv = nullptr;
    std::size_t recv_elems = 0;
    friend bool operator==(const Key&, const Key&) = default;
  };
  static Key key_of(const Call& c) {
    return Key{c.root,
               c.kind,
               static_cast<bool>(c.kernel),
               c.kernel.commutative,
               c.distance,
               c.elem,
               c.send,
               c.send_elems,
               c.recv,
               c.recv_elems};
  }
  struct Entry {
    Key key;
    std::shared_ptr<const Schedule> schedule;
    bool at_once = false;
  };
  std::array<Entry, kEntries> entries_;
  std::size_t used_ = 0, next_ = 0;
  std::array<std::uint8_t, kCollKinds> last_of_kind_{};  // entry each kind matched last
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
  std::uint64_t persistent_bound = 0;  // persistent calls bound on the group (their numbers)
  // The member a sync next releases first, else -1: the root of the fan-out expected next, or
  // the member after the root of the fan-in expected next (note_call). The same on every member,
  // which start the group's calls alike.
  int sync_hub = -1;
  // The last rooted call's kind and root, while only syncs followed it (else last_rooted_root -1).
  CollKind last_rooted_kind = CollKind::sync;
  int last_rooted_root = -1;
  // Nonblocking collectives started on the group and not yet complete, by instance (ascending):
  // the oldest must complete before an instance a tag cycle later starts.
  std::vector<std::pair<std::uint64_t, Operation*>> in_flight;
  std::unique_ptr<Channel> channel;
  ScheduleCache schedules;
  ScheduleCache check_schedules;  // develop-mode exchanges: fixed algorithms, never overridden
  DirectRun direct;

  // A sync between two calls of a loop (IMB's and OSU's barrier) decides who runs first after
  // it. After a rooted call, the next is likely the same kind, at the root the loop's stride
  // predicts: the same root (IMB's default) or the next (IMB's -root_shift 1, ccl-bench's
  // rotation). Before a fan-out its root should leave first and send at once, while its leaves
  // wait for the data anyway; before a fan-in its leaves first (the sync releases its hub first,
  // then the members after it in turn: Shape::root of a sync, selection.cpp) and its root only
  // once every leaf has left (Shape::distance 1), so that its parts are in when the root comes
  // for them. Released merely after the others, a root whose leaves share cores found them
  // descheduled: a gather of 8 B in IMB's loop, 3 ranks on 2 cores, took the root 2.4-2.5 us a
  // call when its two leaves shared a core, 0.28-0.35 once it waited for them in the sync. A
  // prefix flows from member 0. Only the first sync after a call uses the hub (a loop of syncs is
  // best served by the model's choice); syncs keep the last rooted call: they are the loop's
  // barriers.
  static bool fans_out(CollKind rooted) {
    return rooted == CollKind::bcast || rooted == CollKind::scatter || rooted == CollKind::scatterv;
  }
  // A member number in (-size, 2 size) wrapped into the group, without algorithms::mod's
  // divisions: note_call runs on every call, and its two mods were three dependent 32-bit
  // divisions, 40-75 cycles of a leaf's 8 B gather.
  static int wrap(int member, int size) {
    return member < 0 ? member + size : member >= size ? member - size : member;
  }
  void note_call(CollKind kind, int root) {
    if (kind == CollKind::sync) {
      sync_hub = -1;
      return;
    }
    if (!is_rooted(kind)) {
      sync_hub = kind == CollKind::prefix ? 0 : -1;
      last_rooted_root = -1;
      return;
    }
    const int size = static_cast<int>(members.size());
    const bool fan_out = fans_out(kind);
    const int stride =
        last_rooted_root >= 0 && kind == last_rooted_kind ? root - last_rooted_root : 0;
    const int next = wrap(root + stride, size);
    sync_hub = fan_out ? next : wrap(next + 1, size);
    last_rooted_kind = kind;
    last_rooted_root = root;
  }

  // Order a sync call as note_call predicted (Shape::root and distance of a sync), or not at all
  // (`predicted` false: persistent rounds, which members may start in any order). Before a
  // fan-in, the member before the hub, its root, leaves last, once every other has left.
  void order_sync(Call& call, bool predicted) const {
    const bool fan_in =
        predicted && sync_hub >= 0 && last_rooted_root >= 0 && !fans_out(last_rooted_kind);
    call.root = predicted ? sync_hub : -1;
    call.distance = fan_in ? 1 : 0;
  }

  void set_label(std::string text) {
    label = std::move(text);
    record_label.fill('\0');
    label.copy(record_label.data(), record_label.size() - 1);
  }
};

}  // namespace ccl::detail
