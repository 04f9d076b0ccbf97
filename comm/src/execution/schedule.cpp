#include "ccl/schedule.hpp"

#include <algorithm>
#include <iterator>

namespace ccl {

namespace {
constexpr std::size_t kScratchAlign = 64;  // keeps every scratch slice aligned for any element
}

ScheduleBuilder::ScheduleBuilder(std::string_view algorithm) {
  s_.algorithm = algorithm;
  s_.round_begin.push_back(0);
}

namespace {
bool overlaps(const Slice& a, const Slice& b) {
  return a.buffer == b.buffer && a.bytes > 0 && b.bytes > 0 && a.offset < b.offset + b.bytes &&
         b.offset < a.offset + a.bytes;
}
}  // namespace

void ScheduleBuilder::Ranges::add(const Slice& s) {
  if (s.bytes == 0) return;
  std::size_t begin = s.offset, end = s.offset + s.bytes;
  auto it = end_.lower_bound({s.buffer, begin});
  if (it != end_.begin()) {
    const auto before = std::prev(it);
    if (before->first.first == s.buffer && before->second >= begin) it = before;
  }
  // Swallow every range that overlaps or touches [begin, end).
  while (it != end_.end() && it->first.first == s.buffer && it->first.second <= end) {
    begin = std::min(begin, it->first.second);
    end = std::max(end, it->second);
    it = end_.erase(it);
  }
  end_.emplace(std::make_pair(s.buffer, begin), end);
}

bool ScheduleBuilder::Ranges::overlaps(const Slice& s) const {
  if (s.bytes == 0) return false;
  // The last range that begins before s ends.
  auto it = end_.lower_bound({s.buffer, s.offset + s.bytes});
  if (it == end_.begin()) return false;
  --it;
  return it->first.first == s.buffer && it->second > s.offset;
}

bool ScheduleBuilder::conflicts_in_round(const Step& st) const {
  // A send reading what this round receives, or a receive overwriting what it sends or another
  // receive writes, must wait for the round to finish.
  if (st.kind == StepKind::send) return received_.overlaps(st.src);
  return st.kind == StepKind::recv && (sent_.overlaps(st.dst) || received_.overlaps(st.dst));
}

bool ScheduleBuilder::touches_transfers(Slice from, Slice to) const {
  return received_.overlaps(to) || received_.overlaps(from) || sent_.overlaps(to);
}

void ScheduleBuilder::add(const Step& st, bool transfer) {
  if (round_has_during_ || (!transfer && round_has_transfer_)) end_round();
  if (transfer && conflicts_in_round(st)) end_round();
  s_.steps.push_back(st);
  if (st.kind == StepKind::send) sent_.add(st.src);
  if (st.kind == StepKind::recv) received_.add(st.dst);
  if (transfer) round_has_transfer_ = true;
}

void ScheduleBuilder::send(int peer, Slice s, Copier copier) {
  if (s.bytes == 0) return;
  add(Step{StepKind::send, peer, false, s, {}, {}, copier}, true);
}

void ScheduleBuilder::recv(int peer, Slice s, Copier copier) {
  if (s.bytes == 0) return;
  add(Step{StepKind::recv, peer, false, {}, s, {}, copier}, true);
}

bool ScheduleBuilder::conflicts_in_round(StepKind kind, Buffer buffer,
                                         std::span<const Extent> pieces) const {
  for (const Extent& e : pieces) {
    Step st{kind, -1, false, {}, {}, {}};
    (kind == StepKind::send ? st.src : st.dst) = Slice{buffer, e.offset, e.bytes};
    if (conflicts_in_round(st)) return true;
  }
  return false;
}

void ScheduleBuilder::add_gathered(StepKind kind, int peer, Buffer buffer,
                                   std::span<const Extent> pieces) {
  // Adjacent pieces merge: a run of whole blocks is one.
  std::vector<Extent> merged;
  std::size_t total = 0;
  for (const Extent& e : pieces) {
    if (e.bytes == 0) continue;
    total += e.bytes;
    if (!merged.empty() && merged.back().offset + merged.back().bytes == e.offset) {
      merged.back().bytes += e.bytes;
    } else {
      merged.push_back(e);
    }
  }
  if (merged.size() <= 1) {
    if (total == 0) return;
    const Slice one{buffer, merged[0].offset, merged[0].bytes};
    kind == StepKind::send ? send(peer, one) : recv(peer, one);
    return;
  }
  if (round_has_during_ || conflicts_in_round(kind, buffer, merged)) end_round();
  Step st{kind, peer, false, {}, {}, {}};
  (kind == StepKind::send ? st.src : st.dst) = scratch(total);  // the staging, if needed
  st.gathered = buffer;
  st.extents = static_cast<std::uint32_t>(merged.size());
  st.first_extent = static_cast<std::uint32_t>(s_.extents.size());
  s_.extents.insert(s_.extents.end(), merged.begin(), merged.end());
  s_.steps.push_back(st);
  for (const Extent& e : merged) {
    const Slice piece{buffer, e.offset, e.bytes};
    kind == StepKind::send ? sent_.add(piece) : received_.add(piece);
  }
  round_has_transfer_ = true;
}

void ScheduleBuilder::send_gathered(int peer, Buffer buffer, std::span<const Extent> pieces) {
  add_gathered(StepKind::send, peer, buffer, pieces);
}

void ScheduleBuilder::recv_scattered(int peer, Buffer buffer, std::span<const Extent> pieces) {
  add_gathered(StepKind::recv, peer, buffer, pieces);
}

void ScheduleBuilder::send_token(int peer) {
  add(Step{StepKind::send, peer, false, {Buffer::scratch, 0, 0}, {}, {}}, true);
}

void ScheduleBuilder::recv_token(int peer) {
  add(Step{StepKind::recv, peer, false, {}, {Buffer::scratch, 0, 0}, {}}, true);
}

void ScheduleBuilder::copy(Slice from, Slice to) {
  if (from.bytes == 0 || from == to) return;
  add(Step{StepKind::copy, -1, false, from, to, {}}, false);
}

void ScheduleBuilder::copy_during(Slice from, Slice to) {
  if (from.bytes == 0 || from == to) return;
  if (!round_has_transfer_ || touches_transfers(from, to)) {
    copy(from, to);
    return;
  }
  s_.steps.push_back(Step{StepKind::copy, -1, false, from, to, {}});
  round_has_during_ = true;
}

void ScheduleBuilder::reduce(Slice incoming, Slice acc, bool incoming_left) {
  if (incoming.bytes == 0) return;
  add(Step{StepKind::reduce, -1, incoming_left, incoming, acc, {}}, false);
}

void ScheduleBuilder::reduce(Slice incoming, Slice acc, bool incoming_left, Slice base) {
  if (base == acc) {
    reduce(incoming, acc, incoming_left);
    return;
  }
  if (incoming.bytes == 0) {
    copy(base, acc);
    return;
  }
  add(Step{StepKind::reduce, -1, incoming_left, incoming, acc, base}, false);
}

void ScheduleBuilder::end_round() {
  if (s_.steps.size() == s_.round_begin.back()) return;
  s_.round_begin.push_back(static_cast<std::uint32_t>(s_.steps.size()));
  round_has_transfer_ = false;
  sent_.clear();
  received_.clear();
  round_has_during_ = false;
}

Slice ScheduleBuilder::scratch(std::size_t bytes) {
  Slice s{Buffer::scratch, s_.scratch_bytes, bytes};
  s_.scratch_bytes += (bytes + kScratchAlign - 1) / kScratchAlign * kScratchAlign;
  return s;
}

namespace {
RoundPlan plan_of(const Schedule& s, std::size_t r) {
  RoundPlan p;
  int sends = 0, recvs = 0;
  for (std::uint32_t i = s.round_begin[r]; i < s.round_begin[r + 1]; ++i) {
    switch (s.steps[i].kind) {
      case StepKind::copy:
      case StepKind::reduce:
        if (sends + recvs == 0) {
          ++p.locals;
        } else {  // after the transfers: copy_during
          ++p.during;
          p.during_bytes += s.steps[i].src.bytes;
        }
        break;
      case StepKind::send:
        p.send = static_cast<std::int32_t>(i);
        ++sends;
        break;
      case StepKind::recv:
        p.recv = static_cast<std::int32_t>(i);
        ++recvs;
        break;
    }
    if (s.steps[i].extents > 0) ++p.gathered;
  }
  p.sends = static_cast<std::uint32_t>(sends);
  p.pair = sends <= 1 && recvs <= 1 && p.gathered == 0;
  return p;
}
}  // namespace

Schedule ScheduleBuilder::finish() {
  end_round();
  s_.plans.clear();
  for (std::size_t r = 0; r < s_.rounds(); ++r) s_.plans.push_back(plan_of(s_, r));
  return std::move(s_);
}

namespace {

// Whether two slices may share memory. In place, the send buffer is the receive buffer.
bool may_meet(const Slice& a, const Slice& b, bool in_place) {
  const auto memory = [in_place](Buffer x) {
    return in_place && x == Buffer::send ? Buffer::recv : x;
  };
  return overlaps(Slice{memory(a.buffer), a.offset, a.bytes},
                  Slice{memory(b.buffer), b.offset, b.bytes});
}

// A reduce's operand other than the incoming one: its base, or its accumulator.
const Slice& second_operand(const Step& reduce) {
  return reduce.base.bytes > 0 ? reduce.base : reduce.dst;
}

// Whether the receive `at` of round r may fold its data into the accumulator as it arrives,
// doing the reduce that opens round r + 1 early: that reduce reads what it receives; nothing
// else among round r's transfers and the copies during them writes the reduce's operands or
// reads its accumulator (which now changes during the round); and what the receive would have
// left in its own slice is the accumulator itself, or read by no later step before being
// written again.
bool may_fold(const Schedule& s, std::size_t r, std::uint32_t at, bool in_place) {
  // Gathered transfers read and write where their extents lie, which the checks below do not
  // follow: schedules with any fold nothing.
  if (r + 1 >= s.rounds() || !s.extents.empty()) return false;
  auto meet = [in_place](const Slice& a, const Slice& b) { return may_meet(a, b, in_place); };
  const Step& recv = s.steps[at];
  const Step& reduce = s.steps[s.round_begin[r + 1]];
  if (reduce.kind != StepKind::reduce || reduce.src != recv.dst) return false;
  const Slice& acc = reduce.dst;
  const Slice& other = second_operand(reduce);
  const bool into_acc = recv.dst == acc;
  if (!into_acc && (meet(recv.dst, acc) || meet(recv.dst, other))) return false;
  // The round's local steps ran before its transfers were posted: only these and the copies
  // during them run while the receive folds.
  for (std::uint32_t i = s.round_begin[r] + s.plans[r].locals; i < s.round_begin[r + 1]; ++i) {
    if (i == at) continue;
    const Step& st = s.steps[i];
    const bool writes = st.kind != StepKind::send;
    if (writes && (meet(st.dst, acc) || meet(st.dst, other))) return false;
    if (st.kind != StepKind::recv && meet(st.src, acc)) return false;
  }
  if (into_acc) return true;
  for (std::size_t i = s.round_begin[r + 1] + 1; i < s.steps.size(); ++i) {
    const Step& st = s.steps[i];
    if (st.kind != StepKind::recv && meet(st.src, recv.dst)) return false;
    if (st.kind == StepKind::reduce && meet(second_operand(st), recv.dst)) return false;
    if (st.kind != StepKind::send && st.dst == recv.dst) return true;  // written again first
  }
  return true;
}

}  // namespace

void mark_folds(Schedule& s, bool in_place) {
  for (std::size_t r = 0; r < s.rounds(); ++r) {
    for (std::uint32_t i = s.round_begin[r]; i < s.round_begin[r + 1]; ++i) {
      Step& st = s.steps[i];
      st.folds = st.kind == StepKind::recv && st.dst.bytes > 0 && may_fold(s, r, i, in_place);
    }
  }
}

}  // namespace ccl
