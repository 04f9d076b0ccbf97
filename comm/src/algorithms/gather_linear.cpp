// Gather (and gatherv) straight to the root: every member sends its block in one message; the
// root posts all receives at once, straight into its recv buffer, and takes them in turn. Large
// blocks from members on the root's node are pushed (Copier::sender): each member writes its
// block into the root's buffer itself, in parallel, while the root copies its own.
//
// Cost for n members, blocks of b bytes: C1 = n − 1, C2 = (n − 1)·b (the root's receive port),
// C3 = 0.
//
//   n = 4, root 0:  1 ─[1]─► 0,  2 ─[2]─► 0,  3 ─[3]─► 0
#include "common.hpp"

namespace ccl::algorithms {

namespace {

Schedule build(const Shape& s, const Params&) {
  ScheduleBuilder b("linear");
  const BlockLayout blocks(s);
  const Slice mine{Buffer::send, 0, blocks.bytes(s.rank)};
  if (s.rank != s.root) {
    b.send(s.root, mine, Copier::sender);
    return b.finish();
  }
  for (int v = 1; v < s.size; ++v) {
    const int from = mod(s.root + v, s.size);
    b.recv(from, Slice{Buffer::recv, blocks.offset(from), blocks.bytes(from)}, Copier::sender);
  }
  b.copy_during(mine,
                Slice{Buffer::recv, blocks.offset(s.root), mine.bytes});  // while the blocks arrive
  return b.finish();
}

Cost cost(const Shape& s, const Params&) {
  const BlockLayout blocks(s);
  Cost port;  // the root's receive port
  for (int v = 1; v < s.size; ++v) {
    const std::size_t bytes = blocks.bytes(mod(s.root + v, s.size));
    if (bytes > 0) port = receive(port, Cost{1, u64(bytes), 0}, bytes);
  }
  return port;
}

}  // namespace

const Algorithm gather_linear{"linear", CollKind::gather, build, cost, no_params};

}  // namespace ccl::algorithms
