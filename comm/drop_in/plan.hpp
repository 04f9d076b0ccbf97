// One MPI collective as ccl runs it: ccl calls in order, each built when its turn comes (a later
// call may depend on an earlier one's result, as the counts a root broadcasts before a gatherv),
// and the local work after the last (unpacking, a local reduction, a copy). Temporaries live as
// long as the plan. A blocking collective's plan lives on the stack of the MPI call (a heap plan
// and a closure per call cost a small collective a tenth of its time). Blocking collectives run
// every call inside the MPI call; nonblocking ones take single-call plans only, so a collective
// never has a ccl call left to start after the user has started others on the same communicator.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "ccl/call.hpp"

namespace ccl::drop_in {

struct Plan {
  Plan() = default;
  Plan(Plan&&) = default;
  Plan& operator=(Plan&&) = default;
  ~Plan();

  // A call known when the plan is made, or one built when its turn comes.
  struct Step {
    detail::Call call;
    std::function<detail::Call()> build;  // empty: `call` is ready
    detail::Call take() { return build ? build() : std::move(call); }
  };
  // The calls in order. Most collectives are one call, kept inline: a vector's allocation and
  // release cost a call of 8 B a tenth of its time.
  class Steps {
   public:
    void push_back(Step step) {
      if (count_++ == 0) {
        first_ = std::move(step);
      } else {
        rest_.push_back(std::move(step));
      }
    }
    Step& front() { return first_; }
    std::size_t size() const { return count_; }
    Step& operator[](std::size_t i) { return i == 0 ? first_ : rest_[i - 1]; }

   private:
    std::size_t count_ = 0;
    Step first_;
    std::vector<Step> rest_;
  };
  Steps calls;
  std::vector<std::function<void()>> after;  // in order, once every call is done
  std::vector<std::unique_ptr<std::byte[]>> temporaries;

  std::byte* temporary(std::size_t bytes) {
    temporaries.push_back(std::make_unique_for_overwrite<std::byte[]>(bytes == 0 ? 1 : bytes));
    return temporaries.back().get();
  }
  // A datatype the later steps use, duplicated for the plan's lifetime: MPI lets a program free
  // its handle while a nonblocking collective is under way (MPICH's nonblocking2 does).
  MPI_Datatype kept(MPI_Datatype type);
  std::vector<MPI_Datatype> kept_types;

  void add(detail::Call call) { calls.push_back({std::move(call), {}}); }
  void add_built(std::function<detail::Call()> build) { calls.push_back({{}, std::move(build)}); }
};

}  // namespace ccl::drop_in
