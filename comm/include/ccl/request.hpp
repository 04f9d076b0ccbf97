// A nonblocking collective in flight. test() and wait() progress every collective this process
// has outstanding, so requests complete whatever order they are waited in. A request destroyed
// while pending waits for completion (its buffers must outlive it).
#pragma once

#include <span>
#include <utility>

namespace ccl {

namespace detail {
class Operation;
}

class Request {
 public:
  Request() = default;
  explicit Request(detail::Operation* op);  // takes a reference
  Request(Request&& other) noexcept : op_(std::exchange(other.op_, nullptr)) {}
  Request& operator=(Request&& other) noexcept;
  Request(const Request&) = delete;
  Request& operator=(const Request&) = delete;
  ~Request();

  bool valid() const { return op_ != nullptr; }
  // True once complete; throws ccl::Error if the collective failed (e.g. a develop-mode check).
  bool test();
  void wait();

 private:
  void finish_wait() noexcept;
  detail::Operation* op_ = nullptr;
};

void wait_all(std::span<Request> requests);

}  // namespace ccl
