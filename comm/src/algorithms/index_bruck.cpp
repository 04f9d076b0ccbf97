// Index (alltoall) by Bruck's algorithm with radix r: after a local rotation, for each base-r
// digit x and each digit value z, every member sends the blocks whose index has digit x = z to
// the member z·r^x ahead, in one message; a final local permutation puts blocks in place.
// r = 2 gives the fewest start-ups, larger r fewer bytes; r near n approaches pairwise.
// Param: k (the radix). Blocks of one size only (index, not indexv).
//
// Cost for n members, blocks of b bytes: C1 = number of (x, z) with some index of digit x = z,
// ≈ (r − 1)·ceil(log_r n); C2 = b·Σ over those rounds of the blocks moved (≈ (r−1)/r·n·b per
// digit), C3 = 0.
//
//   n = 5, r = 2:  x = 0: blocks {1,3} → +1    x = 1: blocks {2,3} → +2    x = 2: block {4} → +4
#include <vector>

#include "team.hpp"

namespace ccl::algorithms {

namespace {

// Indices of blocks moved in round (x, z): digit x (base r) equals z.
std::vector<int> moved(int n, int r, int power, int z) {
  std::vector<int> d;
  for (int i = 0; i < n; ++i) {
    if ((i / power) % r == z) d.push_back(i);
  }
  return d;
}

Schedule build(const Shape& s, const Params& p) {
  ScheduleBuilder b("bruck");
  const int n = s.size, me = s.rank, r = p.k;
  const std::size_t bb = s.block_bytes(0), total = bb * static_cast<std::size_t>(n);
  const Slice work = b.scratch(total), pack = b.scratch(total), unpack = b.scratch(total);
  auto block = [&](Slice buf, int i) { return buf.sub(static_cast<std::size_t>(i) * bb, bb); };
  // Rotate: work[i] = send[(me + i) mod n], the block for member me + i.
  const std::size_t head = static_cast<std::size_t>(n - me) * bb;
  b.copy(Slice{Buffer::send, static_cast<std::size_t>(me) * bb, head}, work.sub(0, head));
  b.copy(Slice{Buffer::send, 0, total - head}, work.sub(head, total - head));
  for (int power = 1; power < n; power *= r) {
    for (int z = 1; z < r && z * power < n; ++z) {
      const std::vector<int> d = moved(n, r, power, z);
      for (std::size_t j = 0; j < d.size(); ++j)
        b.copy(block(work, d[j]), block(pack, static_cast<int>(j)));
      const std::size_t bytes = d.size() * bb;
      b.send(mod(me + z * power, n), pack.sub(0, bytes), Copier::exchange);
      b.recv(mod(me - z * power, n), unpack.sub(0, bytes), Copier::exchange);
      for (std::size_t j = 0; j < d.size(); ++j)
        b.copy(block(unpack, static_cast<int>(j)), block(work, d[j]));
    }
  }
  // Block i now came from member me − i.
  for (int i = 0; i < n; ++i)
    b.copy(block(work, i), block(Slice{Buffer::recv, 0, total}, mod(me - i, n)));
  return b.finish();
}

Cost cost(const Shape& s, const Params& p) {
  const int n = s.size, r = p.k;
  const std::size_t bb = s.block_bytes(0);
  Cost c;
  if (bb == 0) return c;
  for (int power = 1; power < n; power *= r) {
    for (int z = 1; z < r && z * power < n; ++z) {
      const std::size_t blocks = moved(n, r, power, z).size();
      if (blocks > 0) c = plus_message(c, blocks * bb);
    }
  }
  return c;
}

std::vector<Params> candidates(const Shape& s) {
  std::vector<Params> out;
  if (!s.counts.empty() || s.size < 3) return out;
  for (int r : {2, 3, 4, 6, 8, 16, 32}) {
    if (r < s.size) out.push_back(Params{r, 0, {}, ""});
  }
  return out;
}

}  // namespace

const Algorithm index_bruck{"bruck", CollKind::index, build, cost, candidates};

}  // namespace ccl::algorithms
