// Sync (barrier) through one member: everyone signals member 0, which waits for all and then
// releases everyone. Its critical path (2·(n − 1) tokens through member 0's port) is far longer
// than dissemination's ⌈log2 n⌉, but every other member sends one message and waits once. With
// more ranks than cores, where a member waiting in each of log n rounds needs a core each time,
// that is what counts (Open MPI's default barrier on small groups is this one too).
//
// Cost for n members: C1 = 2·(n − 1), C2 = C3 = 0 (member 0 takes n − 1 tokens one at a time,
// then sends n − 1).
//
//   n = 4:   1→0  2→0  3→0   then   0→1  0→2  0→3
#include "common.hpp"

namespace ccl::algorithms {

namespace {

Schedule build(const Shape& s, const Params&) {
  ScheduleBuilder b("linear");
  if (s.rank == 0) {
    for (int r = 1; r < s.size; ++r) b.recv_token(r);
    b.end_round();
    for (int r = 1; r < s.size; ++r) b.send_token(r);
  } else {
    b.send_token(0);  // report, then wait for the release
    b.recv_token(0);
  }
  return b.finish();
}

Cost cost(const Shape& s, const Params&) { return {u64(2 * (s.size - 1)), 0, 0}; }

}  // namespace

const Algorithm sync_linear{"linear", CollKind::sync, build, cost, no_params};

}  // namespace ccl::algorithms
