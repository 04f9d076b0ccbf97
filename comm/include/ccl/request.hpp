// A nonblocking collective in flight. test() and wait() progress every collective this process
// has outstanding, so requests complete whatever order they are waited in. A request destroyed
// while pending waits for completion (its buffers must outlive it).
#pragma once

#include <memory>
#include <span>

namespace ccl {

namespace detail {
class Operation;
}

class Request {
 public:
  Request() = default;
  explicit Request(std::shared_ptr<detail::Operation> op) : op_(std::move(op)) {}
  Request(Request&&) noexcept = default;
  Request& operator=(Request&& other) noexcept;
  Request(const Request&) = delete;
  Request& operator=(const Request&) = delete;
  ~Request();

  bool valid() const { return op_ != nullptr; }
  // True once complete; throws ccl::Error if the collective failed (e.g. a develop-mode check).
  bool test();
  void wait();

 private:
  std::shared_ptr<detail::Operation> op_;
};

void wait_all(std::span<Request> requests);

}  // namespace ccl
