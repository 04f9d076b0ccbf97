#include "schedule_run.hpp"

#include <cstring>

namespace ccl::detail {

void ScheduleRun::reset(Channel& channel, std::uint64_t tag,
                        const std::shared_ptr<const Schedule>& schedule, const Binding& binding,
                        const ReduceKernel* kernel, std::size_t elem, TrafficStats& traffic) {
  channel_ = &channel;
  tag_ = tag;
  if (s_ != schedule) s_ = schedule;  // a loop reruns one schedule: no reference counting then
  binding_ = binding;
  kernel_ = kernel;
  elem_ = elem;
  traffic_ = &traffic;
  handles_.clear();
  round_ = 0;
  posted_ = false;
  clock_ = Cost{};
}

Progress ScheduleRun::progress() {
  bool advanced = false;
  while (round_ < s_->rounds()) {
    if (!posted_) {
      start_round();
      advanced = true;
    }
    if (!channel_->test_all(handles_)) return advanced ? Progress::advanced : Progress::idle;
    end_round();
  }
  return Progress::done;
}

void ScheduleRun::block() {
  while (round_ < s_->rounds()) {
    if (!posted_ && try_exchange()) continue;
    if (!posted_) start_round();
    channel_->wait_all(handles_);
    end_round();
  }
}

bool ScheduleRun::try_exchange() {
  if (channel_->clocked()) return false;
  const Step *send = nullptr, *recv = nullptr;
  for (const Step& st : s_->round(round_)) {
    if (st.kind == StepKind::send) {
      if (send != nullptr) return false;
      send = &st;
    } else if (st.kind == StepKind::recv) {
      if (recv != nullptr) return false;
      recv = &st;
    } else {
      return false;  // rounds with local steps take the general path
    }
  }
  if (!channel_->exchange(send ? send->peer : -1, send ? binding_.at(send->src) : nullptr,
                          send ? send->src.bytes : 0, recv ? recv->peer : -1,
                          recv ? binding_.at(recv->dst) : nullptr, recv ? recv->dst.bytes : 0, tag_)) {
    return false;
  }
  if (send != nullptr) {
    traffic_->messages += 1;
    traffic_->bytes += send->src.bytes;
  }
  traffic_->rounds += 1;
  ++round_;
  return true;
}

void ScheduleRun::abandon() {
  if (channel_ != nullptr) channel_->end_round(handles_);
  s_.reset();
}

void ScheduleRun::start_round() {
  bool transfers = false;
  after_sends_ = clock_;  // local steps come first in a round, then sends leave one by one
  port_start_ = clock_;
  bool locals_done = false;
  for (const Step& st : s_->round(round_)) {
    if (!locals_done && (st.kind == StepKind::send || st.kind == StepKind::recv)) {
      port_start_ = after_sends_;
      locals_done = true;
    }
    switch (st.kind) {
      case StepKind::copy: {
        std::byte* to = binding_.at(st.dst);
        const std::byte* from = binding_.at(st.src);
        if (to != from) std::memcpy(to, from, st.src.bytes);
        break;
      }
      case StepKind::reduce: {
        std::byte* acc = binding_.at(st.dst);
        const std::byte* in = binding_.at(st.src);
        const std::byte* other = st.base.bytes > 0 ? binding_.at(st.base) : acc;
        const std::size_t n = st.src.bytes / elem_;
        if (st.incoming_left) {
          kernel_->apply(in, other, acc, n);
        } else {
          kernel_->apply(other, in, acc, n);
        }
        traffic_->reduce_bytes += st.src.bytes;
        after_sends_.c3 += st.src.bytes;
        break;
      }
      case StepKind::send:
        after_sends_ += Cost{1, st.src.bytes, 0};
        channel_->send(st.peer, tag_, binding_.at(st.src), st.src.bytes, after_sends_, handles_);
        traffic_->messages += 1;
        traffic_->bytes += st.src.bytes;
        transfers = true;
        break;
      case StepKind::recv:
        channel_->recv(st.peer, tag_, binding_.at(st.dst), st.dst.bytes, handles_);
        transfers = true;
        break;
    }
  }
  if (transfers) traffic_->rounds += 1;
  posted_ = true;
}

void ScheduleRun::end_round() {
  clock_ = after_sends_;
  if (channel_->clocked()) {
    // Handles of a clocked channel are the round's receives, in posting order.
    Cost port = port_start_;
    std::size_t h = 0;
    for (const Step& st : s_->round(round_)) {
      if (st.kind != StepKind::recv) continue;
      port = longest(channel_->arrival(handles_[h++]), port + Cost{1, st.dst.bytes, 0});
      clock_ = longest(clock_, port);
    }
  }
  channel_->end_round(handles_);
  posted_ = false;
  ++round_;
}

}  // namespace ccl::detail
