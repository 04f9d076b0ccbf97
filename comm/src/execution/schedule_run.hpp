// The schedule executor, shared by every transport: each round runs its local steps in order,
// posts every transfer, runs the copies meant to overlap them, then waits for all of them.
// progress() never blocks; block() may. Where the channel offers shared-memory paths
// (shm_paths.hpp) it takes them step by step; on a clocked channel it tracks this member's
// critical path (critical_path.hpp).
#pragma once

#include <memory>

#include "ccl/reduce_op.hpp"
#include "ccl/schedule.hpp"
#include "ccl/stats.hpp"
#include "execution/critical_path.hpp"
#include "execution/operation.hpp"
#include "transport/channel.hpp"
#include "transport/shm/shm_paths.hpp"

namespace ccl::detail {

// Real memory behind a schedule's buffers.
struct Binding {
  std::byte* base[3] = {nullptr, nullptr, nullptr};  // indexed by ccl::Buffer
  std::byte* at(const Slice& s) const { return base[static_cast<int>(s.buffer)] + s.offset; }
};

class ScheduleRun final : public Stage {
 public:
  // Ready `schedule` to run on `channel` with `tag`; the kernel and traffic counters outlive it.
  // The buffers come as pointers, bound here (no Binding record built and copied per call).
  void reset(Channel& channel, std::uint64_t tag, const std::shared_ptr<const Schedule>& schedule,
             const std::byte* send, std::byte* recv, std::byte* scratch, const ReduceKernel* kernel,
             std::size_t elem, TrafficStats& traffic) {
    if (kept_ != schedule) kept_ = schedule;  // a loop reruns one schedule: no reference counting
    reset(channel, tag, *schedule, send, recv, scratch, kernel, elem, traffic);
  }
  // The same with a schedule its caller keeps alive until the run ends (start.cpp's direct run,
  // whose memo holds it): no reference counted, whose atomic add waits for every earlier store,
  // as a loop over rotating roots, whose schedule changes on every call, would otherwise pay.
  void reset(Channel& channel, std::uint64_t tag, const Schedule& schedule, const std::byte* send,
             std::byte* recv, std::byte* scratch, const ReduceKernel* kernel, std::size_t elem,
             TrafficStats& traffic);
  Progress progress() override;
  // Blocks in the transport, or polls while the watchdog is armed (watchdog.hpp).
  void block() override;
  std::string describe_wait(const std::vector<int>& members) override;
  void abandon();  // release what a failed run still holds
  const Cost& clock() const { return path_.clock(); }

 private:
  void block_watched();  // block() polling, with the watchdog's deadline checked between polls
  void start_round();    // run_locals + post_transfers + run_during
  void run_locals();     // the round's copy and reduce steps, which precede its transfers
  // Post the round's sends and receives, those before step `from` excepted (receive_in_turn
  // took them).
  void post_transfers(std::uint32_t from = 0);
  void run_during();  // the round's copies that run while its transfers are in flight
  // The round's `during` copies ahead of its sends, when they are short and its sends go into
  // the channel on the spot (see the .cpp); then run_during() has nothing left to do. Called
  // only for rounds whose copies exceed kCopyFirstAbove: most rounds have none.
  void copy_before_sends(std::uint32_t begin, std::uint32_t end);
  void run_local_steps(std::uint32_t begin, std::uint32_t end);
  // The round's gathered sends packed into (or receives unpacked from) their staging slices,
  // where the channel cannot move their pieces in place.
  void stage_gathered(StepKind kind);
  // Post gathered step `st` with its pieces in place when the channel can; false: it goes
  // staged, as an ordinary transfer of its staging slice.
  bool post_gathered(const Step& st);
  void end_round();
  // block(): the round's transfers (after its local steps) as one blocking call when they are
  // at most one send and one receive and the channel has such a call; false: post them instead.
  bool exchange_pair();
  // Whether transfer step `st` goes as a direct copy (its handshake needs posting).
  bool goes_direct(const Step& st) const;
  // block(): a round of receives only (a gather's root, a sync's hub), each taken on the spot
  // in turn while the channel can. True: the round is done; false: post it from step `from` on
  // (the steps before it were taken).
  bool receive_in_turn(std::uint32_t& from);
  // The fold of receive step `recv` into the reduce that opens the next round, when the schedule
  // allows it and the channel can (then fold_ holds it); null otherwise.
  const Fold* fold_for(const Step& recv);
  void note_fold(const Step& recv);  // the next round's first step was folded: skip it
  // Before a round's sends: the channel asks for the memory each will write (see the .cpp).
  void ready_cells(std::uint32_t begin, std::uint32_t end);
  // Send step `first` and the sends right after it of the same slice (a bcast's root), up to
  // `end`, as one shared send when there are several and the channel can share them; how many
  // steps that took (0: none).
  std::uint32_t send_shared(std::uint32_t first, std::uint32_t end);

  Channel* channel_ = nullptr;
  ShmPaths* shm_ = nullptr;            // the channel's shared-memory paths, if any
  ClockedChannel* clocked_ = nullptr;  // the channel as a clocked one, if it is
  std::uint64_t tag_ = 0;
  const Schedule* s_ = nullptr;
  std::shared_ptr<const Schedule> kept_;  // s_'s owner when the run keeps it alive itself
  Binding binding_;
  const ReduceKernel* kernel_ = nullptr;
  std::size_t elem_ = 1;
  TrafficStats* traffic_ = nullptr;
  Handles handles_;
  std::size_t round_ = 0;
  bool posted_ = false;
  // The posted round folds a receive into the next round's first step, which is then done.
  bool folded_ = false;
  bool during_done_ = false;  // copy_before_sends ran the round's `during` copies
  Fold fold_;
  std::vector<int> shared_peers_;        // send_shared's, kept for their capacity
  std::vector<std::uint32_t> sent_now_;  // the posted round's sends done on the spot (steps)
  bool handles_inexact_ = false;         // some of a shared send went on the spot, some not
  CriticalPath path_;                    // kept on clocked channels only
};

}  // namespace ccl::detail
