#include "execution/schedule_run.hpp"

#include <algorithm>
#include <cstring>
#include <string>

#include "ccl/copy_bytes.hpp"
#include "ccl/local_work.hpp"
#include "diagnostics/watchdog.hpp"

namespace ccl::detail {

namespace {

// A round's copies of more bytes than this run while its transfers are posted (exchange_pair,
// receive_in_turn): a smaller copy costs less than posting.
constexpr std::size_t kOverlapWorth = 4096;
constexpr std::size_t kCopyFirstAbove = 2048;  // copy_before_sends

}  // namespace

void ScheduleRun::reset(Channel& channel, std::uint64_t tag, const Schedule& schedule,
                        const std::byte* send, std::byte* recv, std::byte* scratch,
                        const ReduceKernel* kernel, std::size_t elem, TrafficStats& traffic) {
  channel_ = &channel;
  shm_ = channel.shm_paths();
  clocked_ = channel.clocked();
  tag_ = tag;
  s_ = &schedule;
  binding_.base[static_cast<int>(Buffer::send)] = const_cast<std::byte*>(send);
  binding_.base[static_cast<int>(Buffer::recv)] = recv;
  binding_.base[static_cast<int>(Buffer::scratch)] = scratch;
  kernel_ = kernel;
  elem_ = elem;
  traffic_ = &traffic;
  handles_.clear();
  sent_now_.clear();
  handles_inexact_ = false;
  round_ = 0;
  posted_ = false;
  folded_ = false;
  during_done_ = false;
  path_.reset();
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

// The critical-path clock (Cost records copied at every step) is kept only on clocked channels,
// which deliver the stamps it needs; the MPI path of a small collective is short enough that
// those copies showed among its costs. The shortcuts below are shared-memory paths.
void ScheduleRun::block() {
  if (armed_watch != nullptr) {
    block_watched();
    return;
  }
  while (round_ < s_->rounds()) {
    if (!posted_) {
      run_locals();
      if (exchange_pair()) continue;
      std::uint32_t from = 0;
      if (receive_in_turn(from)) continue;
      post_transfers(from);
      run_during();
    }
    channel_->wait_all(handles_);
    end_round();
  }
}

void ScheduleRun::block_watched() {
  while (round_ < s_->rounds()) {
    if (!posted_) start_round();
    while (!channel_->test_all(handles_)) {
      if (armed_watch->expired()) armed_watch->report(*this);
      channel_->idle();
    }
    end_round();
  }
}

void ScheduleRun::start_round() {
  run_locals();
  post_transfers();
  run_during();
}

void ScheduleRun::run_locals() {
  if (clocked_) path_.begin_round();
  const std::uint32_t begin = s_->round_begin[round_];
  const std::uint32_t skip = folded_ ? 1 : 0;  // the reduce the last round's receive folded
  folded_ = false;
  if (const std::uint32_t n = s_->plans[round_].locals; n > skip) {
    run_local_steps(begin + skip, begin + n);
  }
  if (s_->plans[round_].gathered > 0) stage_gathered(StepKind::send);
  if (clocked_) path_.locals_done();
}

// Gathered transfers the channel cannot move where their pieces lie go through their staging
// slice: sends packed before the round's transfers are posted, receives unpacked once it ends.
void ScheduleRun::stage_gathered(StepKind kind) {
  const std::uint32_t begin = s_->round_begin[round_] + s_->plans[round_].locals;
  const std::uint32_t end = s_->round_begin[round_ + 1] - s_->plans[round_].during;
  std::size_t copied = 0;
  for (std::uint32_t i = begin; i < end; ++i) {
    const Step& st = s_->steps[i];
    if (st.extents == 0 || st.kind != kind) continue;
    const Slice& staging = kind == StepKind::send ? st.src : st.dst;
    if (channel_->gathers(st.peer, staging.bytes)) continue;
    std::byte* const base = binding_.base[static_cast<int>(st.gathered)];
    std::byte* at = binding_.at(staging);
    for (const Extent& e : s_->extents_of(st)) {
      if (kind == StepKind::send) {
        copy_bytes(at, base + e.offset, e.bytes);
      } else {
        copy_bytes(base + e.offset, at, e.bytes);
      }
      at += e.bytes;
    }
    copied += staging.bytes;
  }
  if (const LocalWorkHook hook = local_work_hook(); hook != nullptr && copied > 0) hook(copied, 0);
}

// A gathered transfer the channel moves where its pieces lie; false: it goes staged.
bool ScheduleRun::post_gathered(const Step& st) {
  const bool send = st.kind == StepKind::send;
  const std::size_t bytes = send ? st.src.bytes : st.dst.bytes;
  if (st.extents == 0 || !channel_->gathers(st.peer, bytes)) return false;
  std::byte* const base = binding_.base[static_cast<int>(st.gathered)];
  if (send) {
    channel_->send_gathered(st.peer, tag_, base, s_->extents_of(st), bytes, handles_);
    traffic_->messages += 1;
    traffic_->bytes += bytes;
  } else {
    channel_->recv_scattered(st.peer, tag_, base, s_->extents_of(st), bytes, handles_);
  }
  return true;
}

void ScheduleRun::run_during() {
  if (during_done_) {
    during_done_ = false;
    return;
  }
  const std::uint32_t end = s_->round_begin[round_ + 1];
  if (const std::uint32_t n = s_->plans[round_].during; n > 0) run_local_steps(end - n, end);
}

// A send done on the spot leaves its stores into the peer's ring waiting in the store buffer for
// their lines to come back from the peer's core, and stores leave that buffer in order: a copy
// made after the sends queues behind them and, once the buffer is full, waits for all of them.
// Made first, its stores (into this member's own lines) are gone before the sends start, and the
// call returns while the ring's lines are still on their way. So in a round of sends only, all
// on the spot, the copies go first when they are too long to fit the store buffer beside the
// sends (above 2 KiB) and short enough that they delay the sends little (up to kOverlapWorth).
// IMB's scatter of 4 KiB on 2 ranks (Intel Xeon VM): 0.83-0.90 us a call with the root's own
// block copied after its send, 0.65-0.77 before (MPICH 0.76-0.79). At 2 KiB no change; in rounds
// that also receive (an allgather's on 3 ranks of 2-8 KiB: 1.05-1.1x the time), or with 8-16 KiB
// blocks on 4 ranks of 2 cores (1.15-1.3x), copying first delayed the peers' data more than it
// saved.
void ScheduleRun::copy_before_sends(std::uint32_t begin, std::uint32_t end) {
  const RoundPlan& plan = s_->plans[round_];
  // Its callers have checked plan.during_bytes > kCopyFirstAbove (schedule_run.hpp).
  if (during_done_ || plan.sends == 0 || plan.during_bytes > kOverlapWorth || !shm_) return;
  for (std::uint32_t i = begin; i < end; ++i) {
    const Step& st = s_->steps[i];
    if (st.kind != StepKind::send || goes_direct(st)) return;
  }
  run_during();
  during_done_ = true;
}

void ScheduleRun::run_local_steps(std::uint32_t begin, std::uint32_t end) {
  std::size_t copied = 0, reduced = 0;
  for (std::uint32_t i = begin; i < end; ++i) {
    const Step& st = s_->steps[i];
    if (st.kind == StepKind::copy) {
      std::byte* to = binding_.at(st.dst);
      const std::byte* from = binding_.at(st.src);
      if (to != from) {
        copy_bytes(to, from, st.src.bytes);
        copied += st.src.bytes;
      }
      continue;
    }
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
    reduced += st.src.bytes;
    if (clocked_) path_.reduced(st.src.bytes);
  }
  if (const LocalWorkHook hook = local_work_hook(); hook != nullptr) hook(copied, reduced);
}

// A transfer one side copies goes direct where the channel sends one of its size so, and as any
// other (on the spot, shared) where it does not.
bool ScheduleRun::goes_direct(const Step& st) const {
  if (st.copier == Copier::both) return false;  // most: no virtual call
  const std::size_t bytes = st.kind == StepKind::send ? st.src.bytes : st.dst.bytes;
  return shm_ != nullptr && shm_->copies_direct(st.peer, bytes, st.copier);
}

// A round whose copies are worth overlapping posts its transfers instead: the copies then run
// while peers pull the data (MPI's single-copy path for large messages) rather than after it.
bool ScheduleRun::exchange_pair() {
  const RoundPlan& plan = s_->plans[round_];
  if (!plan.pair || !shm_ || plan.during_bytes > kOverlapWorth) return false;
  const Step* send = plan.send >= 0 ? &s_->steps[static_cast<std::size_t>(plan.send)] : nullptr;
  const Step* recv = plan.recv >= 0 ? &s_->steps[static_cast<std::size_t>(plan.recv)] : nullptr;
  // A direct transfer has a handshake of its own, which only posting runs.
  if ((send != nullptr && goes_direct(*send)) || (recv != nullptr && goes_direct(*recv))) {
    return false;
  }
  if (send != nullptr && recv == nullptr && plan.during_bytes > kCopyFirstAbove) {
    copy_before_sends(plan.send, plan.send + 1);
  }
  if (send != nullptr || recv != nullptr) {
    const Fold* fold = recv ? fold_for(*recv) : nullptr;
    if (!shm_->exchange(send ? send->peer : -1, send ? binding_.at(send->src) : nullptr,
                        send ? send->src.bytes : 0, recv ? recv->peer : -1,
                        recv ? binding_.at(recv->dst) : nullptr, recv ? recv->dst.bytes : 0, tag_,
                        fold)) {
      return false;
    }
    if (fold != nullptr) note_fold(*recv);
    if (send != nullptr) {
      traffic_->messages += 1;
      traffic_->bytes += send->src.bytes;
    }
    traffic_->rounds += 1;
  }
  run_during();
  ++round_;  // not clocked: no critical path to advance
  return true;
}

// A reduce that waits for a whole message, then reads it back from where it landed, makes its
// member copy the message and read it twice, one step after the other. Folded, each piece is
// reduced straight out of the shared-memory ring as it arrives, overlapping the sender's next
// pieces. Per call on 2 ranks, 4 jobs each: a reduce of 4 KiB took 0.61-0.83 us instead of
// 0.77-0.95, 16 KiB 1.7-2.0 instead of 2.2-2.8, 64 KiB 5.7-6.5 instead of 7.6-8.5; an
// allreduce of 16 KiB 3.0-3.2 instead of 3.5-3.6, of 128 KiB 19-20 instead of 23-61. Not on
// clocked channels, whose critical-path clock counts the reduce in the next round.
const Fold* ScheduleRun::fold_for(const Step& recv) {
  if (!recv.folds || !shm_ || !shm_->folds(recv.peer, recv.dst.bytes, elem_)) {
    return nullptr;
  }
  const Step& reduce = s_->steps[s_->round_begin[round_ + 1]];
  fold_.acc = binding_.at(reduce.dst);
  fold_.other = reduce.base.bytes > 0 ? binding_.at(reduce.base) : fold_.acc;
  fold_.kernel = kernel_;
  fold_.elem = elem_;
  fold_.incoming_left = reduce.incoming_left;
  return &fold_;
}

void ScheduleRun::note_fold(const Step& recv) {
  folded_ = true;
  traffic_->reduce_bytes += recv.dst.bytes;
}

void ScheduleRun::abandon() {
  if (channel_ != nullptr) channel_->end_round(handles_);
  sent_now_.clear();
  handles_inexact_ = false;
  during_done_ = false;
  s_ = nullptr;
  kept_.reset();
}

// A root taking several small messages, each posted, handled and released, spent 0.24-0.41 us of
// IMB's gather of 8-256 B on 3 ranks of 2 cores, where Open MPI's tuned took 0.12-0.47 (as the
// ranks share cores). Taken on the spot one after another, each costs what a blocking receive
// does, and asked for at once, those already in come in one trip from their senders' cores
// instead of one trip each: 0.16-0.22. The order does not matter: every message must come in
// before the round ends, and the others wait in their rings meanwhile. Only where every receive
// of the round arrives in one ring cell (its sender never waits for us: no direct copy, whose
// handshake needs posting, nor another transport's blocking receive), and the round's copies are
// not worth overlapping.
bool ScheduleRun::receive_in_turn(std::uint32_t& from) {
  const RoundPlan& plan = s_->plans[round_];
  const std::uint32_t begin = s_->round_begin[round_] + plan.locals;
  const std::uint32_t end = s_->round_begin[round_ + 1] - plan.during;
  from = begin;
  if (plan.sends > 0 || end - begin < 2 || !shm_ || plan.during_bytes > kOverlapWorth ||
      plan.gathered > 0) {
    return false;
  }
  for (std::uint32_t i = begin; i < end; ++i) {
    const Step& st = s_->steps[i];
    if (goes_direct(st) || !shm_->expect_cell(st.peer, st.dst.bytes)) return false;
  }
  for (; from < end; ++from) {
    const Step& st = s_->steps[from];
    const Fold* fold = fold_for(st);
    if (!shm_->exchange(-1, nullptr, 0, st.peer, binding_.at(st.dst), st.dst.bytes, tag_, fold)) {
      return false;  // the rest is posted
    }
    if (fold != nullptr) note_fold(st);
  }
  traffic_->rounds += 1;
  run_during();
  ++round_;  // not clocked: no critical path to advance
  return true;
}

void ScheduleRun::post_transfers(std::uint32_t from) {
  const std::uint32_t begin = std::max(s_->round_begin[round_] + s_->plans[round_].locals, from);
  const std::uint32_t end = s_->round_begin[round_ + 1] - s_->plans[round_].during;
  if (s_->plans[round_].during_bytes > kCopyFirstAbove) copy_before_sends(begin, end);
  if (s_->plans[round_].sends > 1 && shm_) ready_cells(begin, end);
  for (std::uint32_t i = begin; i < end; ++i) {
    const Step& st = s_->steps[i];
    if (st.extents > 0 && post_gathered(st)) continue;
    const bool direct = goes_direct(st);
    if (st.kind == StepKind::send && !direct && shm_) {
      if (const std::uint32_t taken = send_shared(i, end); taken > 0) {
        i += taken - 1;
        continue;
      }
      // A small send done on the spot costs a fifth of one posted, handled and released: the
      // root of a linear bcast or barrier on 8 ranks sends 7 in a row while its leaves wait.
      if (shm_->send_now(st.peer, tag_, binding_.at(st.src), st.src.bytes)) {
        sent_now_.push_back(i);
        traffic_->messages += 1;
        traffic_->bytes += st.src.bytes;
        continue;
      }
    }
    if (st.kind == StepKind::send) {
      if (direct) {
        shm_->send_direct(st.peer, tag_, binding_.at(st.src), st.src.bytes, st.copier, handles_);
      } else if (clocked_) {
        clocked_->send_stamped(st.peer, tag_, binding_.at(st.src), st.src.bytes,
                               path_.send(st.src.bytes), handles_);
      } else {
        channel_->send(st.peer, tag_, binding_.at(st.src), st.src.bytes, handles_);
      }
      traffic_->messages += 1;
      traffic_->bytes += st.src.bytes;
    } else if (direct) {
      shm_->recv_direct(st.peer, tag_, binding_.at(st.dst), st.dst.bytes, st.copier, handles_);
    } else if (const Fold* fold = fold_for(st)) {
      shm_->recv_folded(st.peer, tag_, st.dst.bytes, *fold, handles_);
      note_fold(st);
    } else {
      channel_->recv(st.peer, tag_, binding_.at(st.dst), st.dst.bytes, handles_);
    }
  }
  if (end > begin) traffic_->rounds += 1;
  posted_ = true;
}

// A root sending to several peers writes a cell of each peer's ring, each cell last read by its
// peer's core: every copy's stores wait for their lines to come back, and a copy fills the store
// buffer, so the next copy waits for the last one's lines. Asked for all at once, the lines come
// back in one trip instead of one after another. Sends of a size the channel shares are left out,
// shared or not: a bcast's root copies those once into its slot, and asking for the slot's and
// the references' lines made it slower. IMB's bcast of 256 B-1 KiB, per call: 0.55-1.24 us before,
// 0.37-0.70 after at 3, 4 and 8 ranks of 2 cores (coll/sm 0.34-0.45); its root at 8 ranks, 1 KiB:
// 1.4-1.7 us before, 0.8-1.0 after.
void ScheduleRun::ready_cells(std::uint32_t begin, std::uint32_t end) {
  for (std::uint32_t i = begin; i < end; ++i) {
    const Step& st = s_->steps[i];
    if (st.kind == StepKind::send && !shm_->shares(st.src.bytes)) {
      shm_->ready_cell(st.peer, st.src.bytes);
    }
  }
}

std::uint32_t ScheduleRun::send_shared(std::uint32_t first, std::uint32_t end) {
  const Step& st = s_->steps[first];
  if (!shm_->shares(st.src.bytes)) return 0;  // first: most sends are not shared
  std::uint32_t last = first + 1;
  while (last < end && s_->steps[last].kind == StepKind::send &&
         s_->steps[last].copier == st.copier && s_->steps[last].src == st.src) {
    ++last;
  }
  const std::uint32_t n = last - first;
  if (n < 2) return 0;
  shared_peers_.clear();
  for (std::uint32_t i = first; i < last; ++i) shared_peers_.push_back(s_->steps[i].peer);
  const std::size_t handles = handles_.size();
  shm_->send_shared(shared_peers_.data(), n, tag_, binding_.at(st.src), st.src.bytes, handles_);
  if (handles_.size() == handles) {  // all sent on the spot
    for (std::uint32_t i = first; i < last; ++i) sent_now_.push_back(i);
  } else if (handles_.size() != handles + n) {
    handles_inexact_ = true;  // which went on the spot is the channel's to know
  }
  traffic_->messages += n;
  traffic_->bytes += n * st.src.bytes;
  return n;
}

void ScheduleRun::end_round() {
  // Handles of a clocked channel are the round's receives, in posting order.
  if (clocked_) path_.end_round(s_->round(round_), *clocked_, handles_);
  channel_->end_round(handles_);
  if (s_->plans[round_].gathered > 0) stage_gathered(StepKind::recv);
  sent_now_.clear();
  handles_inexact_ = false;
  posted_ = false;
  ++round_;
}

std::string ScheduleRun::describe_wait(const std::vector<int>& members) {
  const std::size_t rounds = s_ ? s_->rounds() : 0;
  if (round_ >= rounds) return "the end of its schedule";
  std::string out = "round " + std::to_string(round_ + 1) + " of " + std::to_string(rounds) +
                    " of schedule '" + std::string(s_->algorithm) + "'";
  if (!posted_) return out + ", before its transfers were posted";
  const std::uint32_t begin = s_->round_begin[round_] + s_->plans[round_].locals;
  const std::uint32_t end = s_->round_begin[round_ + 1] - s_->plans[round_].during;
  const std::vector<bool> open = channel_->unfinished(handles_);
  // One handle per transfer not sent on the spot, unless a transfer above 2 GiB went as several
  // (then name them all).
  const bool one_to_one = !handles_inexact_ && open.size() + sent_now_.size() == end - begin;
  out += one_to_one ? ", waiting for:" : ", waiting for one of:";
  std::size_t handle = 0, now = 0;
  for (std::uint32_t i = begin; i < end; ++i) {
    if (now < sent_now_.size() && sent_now_[now] == i) {
      ++now;
      continue;  // done
    }
    if (one_to_one && !open[handle++]) continue;
    const Step& st = s_->steps[i];
    const bool send = st.kind == StepKind::send;
    const int world = st.peer < static_cast<int>(members.size())
                          ? members[static_cast<std::size_t>(st.peer)]
                          : -1;
    out += std::string(send ? " send to" : " receive from") + " member " + std::to_string(st.peer) +
           " (world rank " + std::to_string(world) + ", " +
           std::to_string(send ? st.src.bytes : st.dst.bytes) + " B);";
  }
  out.pop_back();
  return out;
}

}  // namespace ccl::detail
