// Scatter (and scatterv) straight from the root: it sends every member its block, one message
// each, in relative order (root + 1, root + 2, ...). Large blocks are pulled (Copier::receiver):
// on one node each member reads its block straight from the root's buffer, one copy, not two,
// while the root copies its own.
//
// Cost for n members, blocks of b bytes: C1 = n − 1, C2 = (n − 1)·b, C3 = 0 — the fewest bytes
// through any member but one, and no forwarding.
//
//   n = 4, root 0:  0 ─[1]─► 1,  0 ─[2]─► 2,  0 ─[3]─► 3
#include "common.hpp"

namespace ccl::algorithms {

namespace {

Schedule build(const Shape& s, const Params&) {
  ScheduleBuilder b("linear");
  const BlockLayout blocks(s);
  const Slice mine{Buffer::recv, 0, blocks.bytes(s.rank)};
  if (s.rank != s.root) {
    b.recv(s.root, mine, Copier::receiver);
    return b.finish();
  }
  for (int v = 1; v < s.size; ++v) {
    const int to = mod(s.root + v, s.size);
    b.send(to, Slice{Buffer::send, blocks.offset(to), blocks.bytes(to)}, Copier::receiver);
  }
  b.copy_during(Slice{Buffer::send, blocks.offset(s.root), mine.bytes},
                mine);  // while peers pull theirs
  return b.finish();
}

Cost cost(const Shape& s, const Params&) {
  const BlockLayout blocks(s);
  Cost root, worst_member;
  for (int v = 1; v < s.size; ++v) {
    const std::size_t bytes = blocks.bytes(mod(s.root + v, s.size));
    if (bytes == 0) continue;
    root = plus_message(root, bytes);
    worst_member = longest(worst_member, receive(Cost{}, root, bytes));
  }
  return longest(root, worst_member);
}

}  // namespace

const Algorithm scatter_linear{"linear", CollKind::scatter, build, cost, no_params};

}  // namespace ccl::algorithms
