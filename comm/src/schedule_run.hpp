// The schedule executor, shared by every transport. An Endpoint provides
//   using Handle;  send(peer, data, bytes, handles);  recv(peer, data, bytes, handles);
//   bool test_all(std::vector<Handle>&);  void wait_all(std::vector<Handle>&);
// Each round: run the local steps in order, post every transfer, then wait for all of them.
#pragma once

#include <cstring>
#include <memory>
#include <vector>

#include "channel.hpp"

namespace ccl::detail {

template <class Endpoint>
class ScheduleRun final : public Stage {
 public:
  ScheduleRun(Endpoint ep, std::shared_ptr<const Schedule> s, const RunContext& ctx)
      : ep_(std::move(ep)), s_(std::move(s)), ctx_(ctx) {}

  Progress progress() override {
    bool advanced = false;
    while (round_ < s_->rounds()) {
      if (!posted_) {
        start_round();
        advanced = true;
      }
      if (!ep_.test_all(handles_)) return advanced ? Progress::advanced : Progress::idle;
      end_round();
    }
    return Progress::done;
  }

  void block() override {
    while (round_ < s_->rounds()) {
      if (!posted_) start_round();
      ep_.wait_all(handles_);
      end_round();
    }
  }

 private:
  void start_round() {
    bool transfers = false;
    for (const Step& st : s_->round(round_)) {
      switch (st.kind) {
        case StepKind::copy: {
          std::byte* to = ctx_.binding.at(st.dst);
          const std::byte* from = ctx_.binding.at(st.src);
          if (to != from) std::memcpy(to, from, st.src.bytes);
          break;
        }
        case StepKind::reduce: {
          std::byte* acc = ctx_.binding.at(st.dst);
          const std::byte* in = ctx_.binding.at(st.src);
          std::size_t n = st.src.bytes / ctx_.elem;
          if (st.incoming_left) {
            ctx_.kernel->apply(in, acc, acc, n);
          } else {
            ctx_.kernel->apply(acc, in, acc, n);
          }
          ctx_.traffic->reduce_bytes += st.src.bytes;
          break;
        }
        case StepKind::send:
          ep_.send(st.peer, ctx_.binding.at(st.src), st.src.bytes, handles_);
          ctx_.traffic->messages += 1;
          ctx_.traffic->bytes += st.src.bytes;
          transfers = true;
          break;
        case StepKind::recv:
          ep_.recv(st.peer, ctx_.binding.at(st.dst), st.dst.bytes, handles_);
          transfers = true;
          break;
      }
    }
    if (transfers) ctx_.traffic->rounds += 1;
    posted_ = true;
  }

  void end_round() {
    handles_.clear();
    posted_ = false;
    ++round_;
  }

  Endpoint ep_;
  std::shared_ptr<const Schedule> s_;
  RunContext ctx_;
  std::vector<typename Endpoint::Handle> handles_;
  std::size_t round_ = 0;
  bool posted_ = false;
};

}  // namespace ccl::detail
