// A collective in flight: a sequence of stages (develop-mode checks, then the schedule) run one
// after the other. Stages never block in progress(); block() may, and is used when the operation
// is the only one outstanding. An error in any stage ends the operation and is rethrown to
// whoever tests or waits on it.
#pragma once

#include <chrono>
#include <exception>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "ccl/shape.hpp"
#include "ccl/stats.hpp"

namespace ccl::detail {

struct Process;

enum class Progress { idle, advanced, done };

class Stage {
 public:
  virtual ~Stage() = default;
  virtual Progress progress() = 0;
  virtual void block() {
    while (progress() != Progress::done) {
    }
  }
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
  Operation(Process& process, CollKind kind);
  ~Operation();

  void add(std::unique_ptr<Stage> s) { stages_.push_back(std::move(s)); }
  // Keep something alive as long as the operation (scratch, descriptors, kernels).
  void keep(std::shared_ptr<void> p) { keep_.push_back(std::move(p)); }
  void set_algorithm(std::string name) { algorithm_ = std::move(name); }

  Progress progress();
  void block();
  void fail(std::exception_ptr e);
  bool done() const { return done_; }
  void rethrow_if_failed() const;

  TrafficStats& traffic() { return traffic_; }
  Process& process() { return process_; }

 private:
  void finish();

  Process& process_;
  CollKind kind_;
  std::string algorithm_;
  std::vector<std::unique_ptr<Stage>> stages_;
  std::vector<std::shared_ptr<void>> keep_;
  std::size_t current_ = 0;
  bool done_ = false;
  std::exception_ptr error_;
  TrafficStats traffic_;
  std::chrono::steady_clock::time_point started_;
};

}  // namespace ccl::detail
