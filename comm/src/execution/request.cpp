#include "ccl/request.hpp"

#include "execution/engine.hpp"
#include "execution/operation.hpp"
#include "groups/process.hpp"

namespace ccl {

namespace {
// Drops the request's reference on scope exit, also when a rethrow leaves the scope.
struct ReleaseOnExit {
  detail::Operation* op;
  ~ReleaseOnExit() { op->release(); }
};
}  // namespace

Request::Request(detail::Operation* op) : op_(op) {
  op_->retain();
}

void Request::finish_wait() noexcept {
  try {
    wait();
  } catch (...) {
    // A failed collective whose request was dropped: the error goes with the request.
  }
}

Request& Request::operator=(Request&& other) noexcept {
  if (this != &other) {
    if (op_ != nullptr) finish_wait();
    op_ = std::exchange(other.op_, nullptr);
  }
  return *this;
}

Request::~Request() {
  if (op_ != nullptr) finish_wait();
}

bool Request::test() {
  if (op_ == nullptr) return true;
  if (!op_->done() && !op_->process().engine->test(*op_)) return false;
  detail::Operation* op = std::exchange(op_, nullptr);
  const ReleaseOnExit release{op};
  op->rethrow_if_failed();
  return true;
}

void Request::wait() {
  if (op_ == nullptr) return;
  detail::Operation* op = std::exchange(op_, nullptr);
  const ReleaseOnExit release{op};
  op->process().engine->wait(*op);
}

void wait_all(std::span<Request> requests) {
  for (auto& r : requests) r.wait();
}

}  // namespace ccl
