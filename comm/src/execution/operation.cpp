#include "execution/operation.hpp"

#include <algorithm>
#include <utility>

#include "ccl/tick_clock.hpp"
#include "diagnostics/watchdog.hpp"
#include "execution/schedule_run.hpp"
#include "groups/group_state.hpp"
#include "groups/process.hpp"

namespace ccl::detail {

Operation::Operation(Process& process)
    : process_(process), main_run_(std::make_unique<ScheduleRun>()) {}

Operation::~Operation() = default;

void Operation::begin(CollKind kind, std::shared_ptr<GroupState> g, Call&& call,
                      std::uint64_t instance) {
  kind_ = kind;
  group_ = std::move(g);
  call_ = std::move(call);
  again(instance);
}

void Operation::again(std::uint64_t instance) {
  instance_ = instance;
  algorithm_ = {};
  current_ = 0;
  done_ = false;
  error_ = nullptr;
  traffic_ = TrafficStats{};
  started_ = timing_on ? ticks() : 0;
}

void Operation::add(std::unique_ptr<Stage> s) {
  stages_.push_back(s.get());
  owned_.push_back(std::move(s));
}

void Operation::add_main() {
  stages_.push_back(main_run_.get());
}

Progress Operation::progress() {
  if (done_) return Progress::done;
  bool advanced = false;
  try {
    while (current_ < stages_.size()) {
      const Progress p = stages_[current_]->progress();
      if (p != Progress::done) {
        return (advanced || p == Progress::advanced) ? Progress::advanced : Progress::idle;
      }
      ++current_;
      advanced = true;
    }
  } catch (...) {
    fail(std::current_exception());
    return Progress::done;
  }
  finish();
  return Progress::done;
}

void Operation::block() {
  if (done_) return;
  try {
    for (; current_ < stages_.size(); ++current_) stages_[current_]->block();
  } catch (...) {
    fail(std::current_exception());
    return;
  }
  finish();
}

std::string Operation::describe_wait() {
  if (current_ >= stages_.size()) return "completion";
  std::string s = "stage " + std::to_string(current_ + 1) + " of " + std::to_string(stages_.size());
  if (stages_[current_] != main_run_.get()) s += " (a develop-mode check)";
  return s + ", " + stages_[current_]->describe_wait(group_->members);
}

void Operation::track_in_group() {
  group_->in_flight.emplace_back(instance_, this);
  tracked_ = true;
}

void Operation::untrack() {
  if (!tracked_) return;
  tracked_ = false;
  auto& list = group_->in_flight;
  const auto at =
      std::lower_bound(list.begin(), list.end(), instance_,
                       [](const auto& entry, std::uint64_t i) { return entry.first < i; });
  if (at != list.end() && at->second == this) list.erase(at);
}

void Operation::fail(std::exception_ptr e) {
  if (done_) return;
  error_ = std::move(e);
  done_ = true;
  untrack();
  main_run_->abandon();
  clear_stages();
}

void Operation::rethrow_if_failed() const {
  if (error_) std::rethrow_exception(error_);
}

void Operation::clear_stages() {
  stages_.clear();
  owned_.clear();
  keep_.clear();
}

void Operation::finish() {
  done_ = true;
  untrack();
  clear_stages();
  const double seconds = timing_on ? tick_seconds(started_, ticks()) : 0.0;
  process_.stats.traffic += traffic_;
  record_call(process_.stats, kind_, traffic_.bytes, seconds, algorithm_, &main_run_->clock());
  if (watchdog_on()) process_.recorder.add(*group_, call_, instance_, algorithm_, coarse_ns());
}

void Operation::release() {
  if (--refs_ > 0) return;
  // Drop what belongs to this use; keep the memory that the next use can reuse.
  group_.reset();
  call_ = Call{};
  error_ = nullptr;
  process_.recycle(this);
}

}  // namespace ccl::detail
