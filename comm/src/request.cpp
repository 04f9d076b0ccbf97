#include "ccl/request.hpp"

#include "engine.hpp"
#include "operation.hpp"
#include "process.hpp"

namespace ccl {

Request& Request::operator=(Request&& other) noexcept {
  if (this != &other) {
    if (op_) {
      try {
        wait();
      } catch (...) {
      }
    }
    op_ = std::move(other.op_);
  }
  return *this;
}

Request::~Request() {
  if (!op_) return;
  try {
    wait();
  } catch (...) {
    // A failed collective whose request was dropped: the error is lost with the request.
  }
}

bool Request::test() {
  if (!op_) return true;
  if (!op_->done() && !op_->process().engine->test(*op_)) return false;
  auto op = std::move(op_);  // released even when the rethrow below fires
  op->rethrow_if_failed();
  return true;
}

void Request::wait() {
  if (!op_) return;
  auto op = std::move(op_);
  op->process().engine->wait(*op);
}

void wait_all(std::span<Request> requests) {
  for (auto& r : requests) r.wait();
}

}  // namespace ccl
