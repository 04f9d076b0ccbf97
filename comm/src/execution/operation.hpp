// A collective in flight: a sequence of stages (develop-mode checks, then the main schedule) run
// one after the other. Stages never block in progress(); block() may, and is used when the
// operation is the only one outstanding. An error in any stage ends the operation and is
// rethrown to whoever tests or waits on it.
//
// Operations are pooled per process and reference-counted by their Request and by the engine
// while active: a repeated collective reuses an operation, its scratch memory and its handle
// list, so the steady state allocates nothing.
#pragma once

#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "ccl/call.hpp"
#include "ccl/shape.hpp"
#include "ccl/stats.hpp"

namespace ccl::detail {

struct Process;
struct GroupState;
class ScheduleRun;

enum class Progress { idle, advanced, done };

// Scratch memory that grows to the largest schedule it served and is kept between uses.
class ReusableScratch {
 public:
  std::byte* get(std::size_t bytes) {
    if (bytes > capacity_) {
      bytes_.reset(new std::byte[bytes]);
      capacity_ = bytes;
    }
    return bytes_.get();
  }

 private:
  std::unique_ptr<std::byte[]> bytes_;
  std::size_t capacity_ = 0;
};

// Account one finished collective in the process's statistics: its calls, `bytes` sent and
// time. Its traffic is not added here: the caller adds it to stats.traffic, or its run counted
// it there directly (start.cpp's run_direct, which says why).
// `critical_path` is the run's clock on a clocked channel (the simulator), else null.
// Inline: it runs on every call, however small.
inline void record_call(Statistics& stats, CollKind kind, std::uint64_t bytes, double seconds,
                        std::string_view algorithm, const Cost* critical_path) {
  CollectiveStats& c = stats.of(kind);
  c.calls += 1;
  c.bytes += bytes;
  c.seconds += seconds;
  if (!algorithm.empty()) c.algorithm = algorithm;
  if (critical_path != nullptr) stats.last_critical_path = *critical_path;
}

class Stage {
 public:
  virtual ~Stage() = default;
  virtual Progress progress() = 0;
  virtual void block() {
    while (progress() != Progress::done) {
    }
  }
  // Where the stage waits, for a hang report; `members` maps group ranks to world ranks.
  virtual std::string describe_wait(const std::vector<int>& /*members*/) { return "a local step"; }
};

// A stage that runs a local function once (validation of gathered descriptors).
class LocalStage final : public Stage {
 public:
  template <class F>
  explicit LocalStage(F f) : f_(std::move(f)) {}
  Progress progress() override {
    f_();
    return Progress::done;
  }

 private:
  std::function<void()> f_;
};

class Operation {
 public:
  explicit Operation(Process& process);
  ~Operation();
  Operation(const Operation&) = delete;
  Operation& operator=(const Operation&) = delete;

  // Ready a pooled operation for collective instance `instance` on group g.
  void begin(CollKind kind, std::shared_ptr<GroupState> g, Call&& call, std::uint64_t instance);
  // Ready it for another instance of the same call on the same group (a persistent call's next
  // round, which keeps its operation: no call or group to copy).
  void again(std::uint64_t instance);
  std::uint64_t instance() const { return instance_; }
  // Listed in its group's in_flight until it completes (nonblocking starts).
  void track_in_group();
  Call& call() { return call_; }
  GroupState& group() { return *group_; }

  // An extra stage owned by the operation (develop-mode checks).
  void add(std::unique_ptr<Stage> s);
  // The main schedule's stage, kept inline; add_main() appends it.
  ScheduleRun& main_run() { return *main_run_; }
  void add_main();
  // Scratch memory for the main schedule, kept between uses.
  std::byte* main_scratch(std::size_t bytes) { return scratch_.get(bytes); }
  // Keep something alive as long as this use (develop-mode tables, their scratch).
  void keep(std::shared_ptr<void> p) { keep_.push_back(std::move(p)); }
  void set_algorithm(std::string_view name) { algorithm_ = name; }

  Progress progress();
  void block();
  // Where it waits: the current stage (develop-mode check or main schedule), its round and peers.
  std::string describe_wait();
  void fail(std::exception_ptr e);
  bool done() const { return done_; }
  void rethrow_if_failed() const;

  TrafficStats& traffic() { return traffic_; }
  Process& process() { return process_; }

  void retain() { ++refs_; }
  void release();  // back to the pool when the last reference goes

 private:
  void finish();
  void clear_stages();
  void untrack();

  Process& process_;
  CollKind kind_ = CollKind::sync;
  std::uint64_t instance_ = 0;
  bool tracked_ = false;
  std::shared_ptr<GroupState> group_;
  Call call_;
  std::string_view algorithm_;
  std::unique_ptr<ScheduleRun> main_run_;
  std::vector<Stage*> stages_;
  std::vector<std::unique_ptr<Stage>> owned_;
  std::vector<std::shared_ptr<void>> keep_;
  ReusableScratch scratch_;
  std::size_t current_ = 0;
  bool done_ = false;
  int refs_ = 0;
  std::exception_ptr error_;
  TrafficStats traffic_;
  std::uint64_t started_ = 0;  // tick_clock.hpp
};

}  // namespace ccl::detail
