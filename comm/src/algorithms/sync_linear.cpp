// Sync (barrier) through one member, the hub: everyone signals the hub, which waits for all and
// then releases everyone. Its critical path (2·(n − 1) tokens through the hub's port) is far
// longer than dissemination's ⌈log2 n⌉, but every other member sends one message and waits once.
// With more ranks than cores, where a member waiting in each of log n rounds needs a core each
// time, that is what counts (Open MPI's default barrier on small groups is this one too). The
// hub is the shape's root, else member 0; it leaves first, then the members after it in turn.
// The group's calls before choose it (GroupState::note_call): the root of the fan-out expected
// next, which so sends while its leaves are still being released, or the member after the root
// of the fan-in expected next, which so is released last.
//
// Root last (Shape::distance 1, before a fan-in): the member before the hub, the fan-in's root,
// is released not by the hub but by every other member as it leaves, so it leaves only once all
// of them have (and have sent it their parts, where they share cores and would otherwise still
// wait for one). Every member but the hub and the root sends one more token.
//
// Cost for n members: C1 = 2·(n − 1), C2 = C3 = 0 (the hub takes n − 1 tokens one at a time,
// then sends n − 1). Root last costs the same: the member the hub releases k-th sends its token
// at step k + 1 ≤ n − 1 of the release, by when the hub sends its own, the last.
//
//   n = 4, hub 0:   1→0  2→0  3→0   then   0→1  0→2  0→3
//   root last:      1→0  2→0  3→0   then   0→1  0→2  0→3   then  1→3  2→3
#include "common.hpp"

namespace ccl::algorithms {

namespace {

// Only with three members or more is there a member between the hub and the last to wait for.
bool root_last(const Shape& s) {
  return s.root >= 0 && s.distance == 1 && s.size > 2;
}

Schedule build(const Shape& s, const Params&) {
  ScheduleBuilder b("linear");
  const int hub = std::max(s.root, 0);  // the member to release first, if any
  const int last = root_last(s) ? mod(hub - 1, s.size) : -1;
  if (s.rank == hub) {
    for (int i = 1; i < s.size; ++i) b.recv_token(mod(hub + i, s.size));
    b.end_round();
    for (int i = 1; i < s.size; ++i) b.send_token(mod(hub + i, s.size));
  } else if (s.rank == last) {
    b.send_token(hub);  // report, then wait for everyone to have left
    for (int i = 0; i < s.size - 1; ++i) b.recv_token(mod(hub + i, s.size));
  } else {
    b.send_token(hub);  // report, then wait for the release
    b.recv_token(hub);
    if (last >= 0) {
      b.end_round();
      b.send_token(last);
    }
  }
  return b.finish();
}

Cost cost(const Shape& s, const Params&) {
  return {u64(2 * (s.size - 1)), 0, 0};
}

}  // namespace

const Algorithm sync_linear{"linear", CollKind::sync, build, cost, no_params};

}  // namespace ccl::algorithms
