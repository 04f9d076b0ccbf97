#include "operation.hpp"

#include "ccl/error.hpp"
#include "process.hpp"

namespace ccl::detail {

Operation::Operation(Process& process, CollKind kind)
    : process_(process), kind_(kind), started_(std::chrono::steady_clock::now()) {}

Operation::~Operation() = default;

Progress Operation::progress() {
  if (done_) return Progress::done;
  bool advanced = false;
  try {
    while (current_ < stages_.size()) {
      Progress p = stages_[current_]->progress();
      if (p != Progress::done) return (advanced || p == Progress::advanced) ? Progress::advanced
                                                                             : Progress::idle;
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

void Operation::fail(std::exception_ptr e) {
  if (done_) return;
  error_ = std::move(e);
  done_ = true;
  stages_.clear();
}

void Operation::rethrow_if_failed() const {
  if (error_) std::rethrow_exception(error_);
}

void Operation::finish() {
  done_ = true;
  stages_.clear();
  double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
  CollectiveStats& c = process_.stats.of(kind_);
  c.calls += 1;
  c.bytes += traffic_.bytes;
  c.seconds += seconds;
  if (!algorithm_.empty()) c.algorithm = algorithm_;
  process_.stats.traffic += traffic_;
}

}  // namespace ccl::detail
