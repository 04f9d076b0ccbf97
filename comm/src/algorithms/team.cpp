// The primitives of team.hpp. Each emit() closes its rounds, so that stages compose as
// sequential rounds and each cost() can advance the timeline stage by stage.
#include "team.hpp"

#include <algorithm>
#include <optional>
#include <string>

#include "ccl/error.hpp"

namespace ccl::algorithms {

Timeline::Timeline(std::size_t members)
    : dense_(members <= static_cast<std::size_t>(kExactUpTo)),
      dense_clocks_(dense_ ? members : 0) {}

void Timeline::make_room(const Team& t) {
  while (!dense_ && 2 * (touched_ + static_cast<std::size_t>(t.size)) > keys_.size()) grow();
}

Cost& Timeline::operator[](std::size_t member) {
  if (dense_) return dense_clocks_[member];
  if (2 * (touched_ + 1) > keys_.size()) grow();  // (not within a primitive: make_room)
  const std::size_t mask = keys_.size() - 1;
  for (std::size_t slot = (member * 0x9E3779B97F4A7C15ull >> 20) & mask;;
       slot = (slot + 1) & mask) {
    if (keys_[slot] == member + 1) return clocks_[slot];
    if (keys_[slot] == 0) {
      keys_[slot] = member + 1;
      clocks_[slot] = level_;
      ++touched_;
      return clocks_[slot];
    }
  }
}

void Timeline::grow() {
  std::vector<std::size_t> keys(std::max<std::size_t>(64, 2 * keys_.size()), 0);
  std::vector<Cost> clocks(keys.size());
  keys.swap(keys_);
  clocks.swap(clocks_);
  touched_ = 0;
  for (std::size_t i = 0; i < keys.size(); ++i) {
    if (keys[i] != 0) (*this)[keys[i] - 1] = clocks[i];
  }
}

Cost Timeline::worst() const {
  if (dense_) return algorithms::worst(dense_clocks_);
  Cost w = level_;
  for (std::size_t i = 0; i < keys_.size(); ++i) {
    if (keys_[i] != 0) w = longest(w, clocks_[i]);
  }
  return w;
}

void Timeline::level() {
  level_ = worst();
  if (dense_) {
    for (Cost& c : dense_clocks_) c = level_;
  }
  std::fill(keys_.begin(), keys_.end(), 0);
  touched_ = 0;
}

void Timeline::set(const Team& t, const Cost& c) {
  if (!dense_ && t.size == t.n && t.stride == 1) {
    std::fill(keys_.begin(), keys_.end(), 0);
    touched_ = 0;
    level_ = c;
    return;
  }
  for (int i = 0; i < t.size; ++i) (*this)[static_cast<std::size_t>(t.rel(i))] = c;
}

namespace {

Cost& at(Timeline& tl, const Team& t, int i) {
  return tl[static_cast<std::size_t>(t.rel(i))];
}

int subtree_of(int v, int size) {
  return v == 0 ? size : std::min(lowest_bit(v), size - v);
}

// Children masks of index v, largest first (sends) — the binomial tree of bcast and scatter.
std::vector<int> child_masks(int v, int size) {
  int mask = 1;
  while (mask < size && !(v & mask)) mask <<= 1;
  std::vector<int> out;
  for (mask >>= 1; mask > 0; mask >>= 1) {
    if (v + mask < size) out.push_back(mask);
  }
  return out;
}

}  // namespace

Mesh::Mesh(const std::vector<int>& dims) : dims_(dims), stride_(dims.size(), 1) {
  for (int i = static_cast<int>(dims.size()) - 1; i >= 0; --i) {
    stride_[static_cast<std::size_t>(i)] = size_;
    size_ *= dims[static_cast<std::size_t>(i)];
  }
}

bool Mesh::zero_after(int v, int i) const {
  for (int j = i + 1; j < dims(); ++j) {
    if (coord(v, j) != 0) return false;
  }
  return true;
}

Team Mesh::line(const Team& whole, int v, int i) const {
  const int st = stride_[static_cast<std::size_t>(i)];
  Team t{whole.n, whole.base, v - coord(v, i) * st, st, extent(i), -1};
  if (whole.me == v) t.me = coord(v, i);
  return t;
}

std::vector<std::vector<int>> factorizations(int n, int parts) {
  std::vector<std::vector<int>> out;
  if (parts == 1) {
    if (n >= 2) out.push_back({n});
    return out;
  }
  for (int d = 2; d <= n / 2; ++d) {
    if (n % d != 0) continue;
    for (auto& rest : factorizations(n / d, parts - 1)) {
      rest.insert(rest.begin(), d);
      out.push_back(std::move(rest));
    }
  }
  return out;
}

std::vector<Pieces> MeshPlan::layouts(std::size_t bytes, std::size_t elem, int v) const {
  std::vector<Pieces> out;
  Pieces cur(bytes, 1, elem);
  int index = 0;
  for (int i = 0; i < splits; ++i) {
    out.emplace_back(cur, index, mesh.extent(i), elem);
    cur = out.back();
    index = mesh.coord(v, i);
  }
  return out;
}

std::size_t MeshPlan::held_bytes(const std::vector<Pieces>& lay, int v) const {
  return lay.back().bytes(mesh.coord(v, splits - 1));
}

Slice MeshPlan::held(const std::vector<Pieces>& lay, int v, Slice data) const {
  if (splits == 0) return data;
  const int c = mesh.coord(v, splits - 1);
  return data.sub(lay.back().begin(c), lay.back().bytes(c));
}

MeshPlan parse_mesh_plan(const Shape& s, const Params& p, char split, char reverse,
                         std::string_view algorithm) {
  const std::string& w = p.plan;
  std::size_t a = 0;
  while (a < w.size() && w[a] == split) ++a;
  const bool middle = a < w.size() && w[a] == 'M';
  const std::string expect = std::string(a, split) + (middle ? "M" : "") + std::string(a, reverse);
  MeshPlan plan{Mesh(p.mesh), static_cast<int>(a), middle};
  if (w.empty() || w != expect || p.mesh.size() != a + (middle ? 1 : 0) ||
      plan.mesh.size() != s.size) {
    throw Error("ccl: " + std::string(algorithm) + " needs plan " + split + "^a [M] " + reverse +
                "^a on a mesh of a (+1 with M) dimensions whose product is the group size; got '" +
                to_string(p) + "' for " + std::to_string(s.size) + " members");
  }
  return plan;
}

std::vector<Params> mesh_plan_candidates(int n, char split, char reverse) {
  std::vector<Params> out;
  for (int k = 2; k <= 3; ++k) {
    for (const auto& mesh : factorizations(n, k)) {
      const std::string a(static_cast<std::size_t>(k - 1), split),
          z(static_cast<std::size_t>(k - 1), reverse);
      out.push_back(Params{0, 0, mesh, a + "M" + z});
      out.push_back(Params{0, 0, mesh, a + split + reverse + z});
    }
  }
  return out;
}

Pieces::Pieces(std::size_t bytes, int parts, std::size_t elem) {
  const std::size_t elems = bytes / elem, base = elems / static_cast<std::size_t>(parts),
                    extra = elems % static_cast<std::size_t>(parts);
  offset_.assign(static_cast<std::size_t>(parts) + 1, 0);
  for (int i = 0; i < parts; ++i) {
    const std::size_t n = base + (static_cast<std::size_t>(i) < extra ? 1 : 0);
    offset_[static_cast<std::size_t>(i) + 1] = offset_[static_cast<std::size_t>(i)] + n * elem;
  }
}

Pieces::Pieces(const Pieces& outer, int i, int parts, std::size_t elem)
    : Pieces(outer.bytes(i), parts, elem) {
  for (auto& o : offset_) o += outer.begin(i);
}

Pieces::Pieces(const BlockLayout& blocks, int n) : offset_(static_cast<std::size_t>(n) + 1) {
  for (int i = 0; i <= n; ++i)
    offset_[static_cast<std::size_t>(i)] = i < n ? blocks.offset(i) : blocks.total();
}

std::size_t Pieces::largest() const {
  std::size_t m = 0;
  for (int i = 0; i < parts(); ++i) m = std::max(m, bytes(i));
  return m;
}

// ---- binomial broadcast ----

void emit_tree_bcast(ScheduleBuilder& b, const Team& t, Slice data) {
  const int v = t.me;
  if (v != 0) {
    b.recv(t.rank(v - lowest_bit(v)), data);
    b.end_round();
  }
  for (int mask : child_masks(v, t.size)) b.send(t.rank(v + mask), data);
  b.end_round();
}

void cost_tree_bcast(Timeline& tl, const Team& t, std::size_t bytes) {
  tl.make_room(t);
  if (bytes == 0) return;
  std::vector<Cost> arrival(static_cast<std::size_t>(t.size));
  for (int v = 0; v < t.size; ++v) {
    Cost c = at(tl, t, v);
    if (v != 0) c = receive(c, arrival[static_cast<std::size_t>(v)], bytes);
    for (int mask : child_masks(v, t.size)) {
      c = plus_message(c, bytes);
      arrival[static_cast<std::size_t>(v + mask)] = c;
    }
    at(tl, t, v) = c;
  }
}

// ---- binomial scatter and gather of pieces, in place ----

void emit_tree_scatter(ScheduleBuilder& b, const Team& t, Slice data, const Pieces& p) {
  const int v = t.me, sub = subtree_of(v, t.size);
  if (v != 0) {
    b.recv(t.rank(v - lowest_bit(v)), data.sub(p.begin(v), p.span(v, v + sub)));
    b.end_round();
  }
  for (int mask : child_masks(v, t.size)) {
    const int c = v + mask, len = std::min(mask, t.size - c);
    b.send(t.rank(c), data.sub(p.begin(c), p.span(c, c + len)));
  }
  b.end_round();
}

void cost_tree_scatter(Timeline& tl, const Team& t, const Pieces& p) {
  tl.make_room(t);
  std::vector<Cost> arrival(static_cast<std::size_t>(t.size));
  for (int v = 0; v < t.size; ++v) {
    Cost c = at(tl, t, v);
    const std::size_t held = p.span(v, v + subtree_of(v, t.size));
    if (v != 0 && held > 0) c = receive(c, arrival[static_cast<std::size_t>(v)], held);
    for (int mask : child_masks(v, t.size)) {
      const int ch = v + mask, len = std::min(mask, t.size - ch);
      c = maybe_message(c, p.span(ch, ch + len));
      arrival[static_cast<std::size_t>(ch)] = c;
    }
    at(tl, t, v) = c;
  }
}

void emit_tree_gather(ScheduleBuilder& b, const Team& t, Slice data, const Pieces& p) {
  const int v = t.me, sub = subtree_of(v, t.size);
  for (int mask = 1; mask < sub && v + mask < t.size; mask <<= 1) {
    const int c = v + mask, len = std::min(mask, t.size - c);
    b.recv(t.rank(c), data.sub(p.begin(c), p.span(c, c + len)));
  }
  b.end_round();
  if (v != 0) b.send(t.rank(v - lowest_bit(v)), data.sub(p.begin(v), p.span(v, v + sub)));
  b.end_round();
}

void cost_tree_gather(Timeline& tl, const Team& t, const Pieces& p) {
  tl.make_room(t);
  std::vector<Cost> sent(static_cast<std::size_t>(t.size));
  for (int v = t.size - 1; v >= 0; --v) {
    const int sub = subtree_of(v, t.size);
    Cost c = at(tl, t, v);
    for (int mask = 1; mask < sub && v + mask < t.size; mask <<= 1) {
      const int ch = v + mask, len = std::min(mask, t.size - ch);
      if (p.span(ch, ch + len) > 0)
        c = receive(c, sent[static_cast<std::size_t>(ch)], p.span(ch, ch + len));
    }
    if (v != 0) c = maybe_message(c, p.span(v, v + sub));
    sent[static_cast<std::size_t>(v)] = c;
    at(tl, t, v) = c;
  }
}

// ---- ring collect and ring reduce-scatter ----

void emit_ring_collect(ScheduleBuilder& b, const Team& t, Slice data, const Pieces& p,
                       std::optional<Slice> own) {
  const int d = t.size, i = t.me;
  for (int s = 0; s + 1 < d; ++s) {
    const int out = mod(i - s, d), in = mod(i - s - 1, d);
    b.send(t.rank(mod(i + 1, d)), s == 0 && own ? *own : data.sub(p.begin(out), p.bytes(out)),
           Copier::exchange);
    b.recv(t.rank(mod(i - 1, d)), data.sub(p.begin(in), p.bytes(in)), Copier::exchange);
    // The own piece, sent from where it is, is copied into place while the first step runs.
    if (s == 0 && own) b.copy_during(*own, data.sub(p.begin(i), p.bytes(i)));
    b.end_round();
  }
  if (d == 1 && own) b.copy(*own, data.sub(p.begin(i), p.bytes(i)));
}

namespace {

// The exact ring costs below follow every member through every step: quadratic in the ring's
// size. A ring whose members start together and move pieces of one size stays in step, and one
// member's recurrence is then exact; rings of more than kExactUpTo members, and any ring in a
// group of more (whose costs are upper bounds already), are priced that way too, from the latest
// start with the largest piece (an upper bound: each operation is monotone in every component).

struct RingBound {
  Cost start;             // the latest start, component by component
  std::size_t piece = 0;  // the largest piece
  bool uniform = true;    // every member starts there and every piece has that size
};

RingBound ring_bound(Timeline& tl, const Team& t, const Pieces& p) {
  if (tl.at_level()) {  // every member starts at the level: only the pieces can differ
    RingBound r{tl.level_clock(), p.bytes(0), true};
    for (int i = 1; i < t.size; ++i) {
      r.uniform = r.uniform && p.bytes(i) == r.piece;
      r.piece = std::max(r.piece, p.bytes(i));
    }
    return r;
  }
  RingBound r{at(tl, t, 0), p.bytes(0), true};
  for (int i = 1; i < t.size; ++i) {
    const Cost& c = at(tl, t, i);
    if (!(c == r.start) || p.bytes(i) != r.piece) r.uniform = false;
    r.start = longest(r.start, c);
    r.piece = std::max(r.piece, p.bytes(i));
  }
  return r;
}

// One step of a ring in step: send the piece on, receive the next from the member before.
Cost ring_step(const Cost& c, std::size_t piece) {
  Cost next = maybe_message(c, piece);
  if (piece > 0) next = longest(next, receive(c, plus_message(c, piece), piece));
  return next;
}

}  // namespace

void cost_ring_collect(Timeline& tl, const Team& t, const Pieces& p) {
  tl.make_room(t);
  const int d = t.size;
  if (d > 1) {
    const RingBound r = ring_bound(tl, t, p);
    if (r.uniform || !tl.exact()) {  // !exact(): a group of more than kExactUpTo
      Cost c = r.start;
      for (int s = 0; s + 1 < d; ++s) c = ring_step(c, r.piece);
      tl.set(t, c);
      return;
    }
  }
  std::vector<Cost> next(static_cast<std::size_t>(d));
  for (int s = 0; s + 1 < d; ++s) {
    for (int i = 0; i < d; ++i) {
      const int prev = mod(i - 1, d), out = mod(i - s, d), in = mod(i - s - 1, d);
      Cost c = maybe_message(at(tl, t, i), p.bytes(out));
      if (p.bytes(in) > 0)
        c = longest(c,
                    receive(at(tl, t, i), plus_message(at(tl, t, prev), p.bytes(in)), p.bytes(in)));
      next[static_cast<std::size_t>(i)] = c;
    }
    for (int i = 0; i < d; ++i) at(tl, t, i) = next[static_cast<std::size_t>(i)];
  }
}

void emit_ring_reduce_scatter(ScheduleBuilder& b, const Team& t, Slice data, const Pieces& p,
                              Slice incoming, std::optional<Slice> own) {
  // Piece j starts at member j + 1 and travels the ring, each member folding in its own part,
  // until it ends, complete, at member j. Each piece passes a member once, so its own part can
  // be read where it already is: the fold writes data, the first send reads `own`.
  const int d = t.size, i = t.me;
  const Slice mine = own.value_or(data);
  if (d == 1) b.copy(mine, data);
  for (int s = 0; s + 1 < d; ++s) {
    const int out = mod(i - 1 - s, d), in = mod(i - 2 - s, d);
    const Slice piece = data.sub(p.begin(out), p.bytes(out));
    if (s > 0)
      b.reduce(incoming.sub(0, p.bytes(out)), piece, true, mine.sub(p.begin(out), p.bytes(out)));
    b.send(t.rank(mod(i + 1, d)), s > 0 ? piece : mine.sub(p.begin(out), p.bytes(out)),
           Copier::exchange);
    b.recv(t.rank(mod(i - 1, d)), incoming.sub(0, p.bytes(in)), Copier::exchange);
  }
  if (d > 1) {
    b.reduce(incoming.sub(0, p.bytes(i)), data.sub(p.begin(i), p.bytes(i)), true,
             mine.sub(p.begin(i), p.bytes(i)));
  }
  b.end_round();
}

void cost_ring_reduce_scatter(Timeline& tl, const Team& t, const Pieces& p) {
  tl.make_room(t);
  const int d = t.size;
  if (d > 1) {
    const RingBound r = ring_bound(tl, t, p);
    if (r.uniform || !tl.exact()) {  // !exact(): a group of more than kExactUpTo
      Cost c = r.start;
      for (int s = 0; s + 1 < d; ++s) {
        if (s > 0) c.c3 += u64(r.piece);
        c = ring_step(c, r.piece);
      }
      c.c3 += u64(r.piece);
      tl.set(t, c);
      return;
    }
  }
  std::vector<Cost> folded(static_cast<std::size_t>(d)), next(folded.size());
  for (int s = 0; s + 1 < d; ++s) {
    for (int i = 0; i < d; ++i) {
      Cost c = at(tl, t, i);
      if (s > 0) c.c3 += u64(p.bytes(mod(i - 1 - s, d)));
      folded[static_cast<std::size_t>(i)] = c;
    }
    for (int i = 0; i < d; ++i) {
      const int prev = mod(i - 1, d), out = mod(i - 1 - s, d), in = mod(i - 2 - s, d);
      Cost c = maybe_message(folded[static_cast<std::size_t>(i)], p.bytes(out));
      if (p.bytes(in) > 0) {
        c = longest(c, receive(folded[static_cast<std::size_t>(i)],
                               plus_message(folded[static_cast<std::size_t>(prev)], p.bytes(in)),
                               p.bytes(in)));
      }
      next[static_cast<std::size_t>(i)] = c;
    }
    for (int i = 0; i < d; ++i) at(tl, t, i) = next[static_cast<std::size_t>(i)];
  }
  if (d > 1) {
    for (int i = 0; i < d; ++i) at(tl, t, i).c3 += u64(p.bytes(i));
  }
}

// ---- pipelined chain ----

Cost cost_chain(int n, const std::vector<std::size_t>& bounds, bool folds) {
  const int S = static_cast<int>(bounds.size()) - 1;
  if (n == 1 || S == 0) return {};
  auto bytes = [&](int j) {
    return bounds[static_cast<std::size_t>(j) + 1] - bounds[static_cast<std::size_t>(j)];
  };
  // sent[v][j]: the stamp of segment j leaving member v.
  std::vector<std::vector<Cost>> sent(static_cast<std::size_t>(n),
                                      std::vector<Cost>(static_cast<std::size_t>(S)));
  Cost c, worst_so_far;
  for (int j = 0; j < S; ++j) {
    c = plus_message(c, bytes(j));
    sent[0][static_cast<std::size_t>(j)] = c;
  }
  worst_so_far = c;
  for (int v = 1; v < n; ++v) {
    c = Cost{};
    for (int j = 0; j <= S; ++j) {
      Cost local = c;
      if (folds && j >= 1) local.c3 += u64(bytes(j - 1));
      Cost after = local;
      if (j >= 1 && v < n - 1) {
        after = plus_message(local, bytes(j - 1));
        sent[static_cast<std::size_t>(v)][static_cast<std::size_t>(j - 1)] = after;
      }
      if (j < S) {
        after = longest(
            after,
            receive(local, sent[static_cast<std::size_t>(v - 1)][static_cast<std::size_t>(j)],
                    bytes(j)));
      }
      c = after;
    }
    worst_so_far = longest(worst_so_far, c);
  }
  return worst_so_far;
}

// ---- recursive-doubling allreduce ----

void emit_rd_allreduce(ScheduleBuilder& b, const Team& t, Slice data, Slice incoming) {
  const int n = t.size, i = t.me;
  int p = 1;
  while (p * 2 <= n) p *= 2;
  const int rem = n - p;
  int survivor = -1;
  if (i < 2 * rem) {
    if (i % 2 == 0) {
      b.send(t.rank(i + 1), data);
    } else {
      b.recv(t.rank(i - 1), incoming);
      b.reduce(incoming, data, true);
      survivor = i / 2;
    }
  } else {
    survivor = i - rem;
  }
  if (survivor >= 0) {
    for (int mask = 1; mask < p; mask <<= 1) {
      const int partner = survivor ^ mask;
      const int peer = partner < rem ? partner * 2 + 1 : partner + rem;
      b.send(t.rank(peer), data, Copier::exchange);
      b.recv(t.rank(peer), incoming, Copier::exchange);
      b.reduce(incoming, data, partner < survivor);
    }
  }
  b.end_round();
  if (i < 2 * rem) {
    if (i % 2 == 1) {
      b.send(t.rank(i - 1), data);
    } else {
      b.recv(t.rank(i + 1), data);
    }
  }
  b.end_round();
}

void cost_rd_allreduce(Timeline& tl, const Team& t, std::size_t bytes) {
  tl.make_room(t);
  if (bytes == 0 || t.size == 1) return;
  const int n = t.size;
  const std::uint64_t m = u64(bytes);
  int p = 1;
  while (p * 2 <= n) p *= 2;
  const int rem = n - p;
  auto member = [&](int survivor) { return survivor < rem ? survivor * 2 + 1 : survivor + rem; };
  for (int i = 0; i + 1 < 2 * rem; i += 2) {  // fold: 2i+1 takes 2i's vector and folds it in
    const Cost sent = plus_message(at(tl, t, i), bytes);
    at(tl, t, i) = sent;
    Cost& odd = at(tl, t, i + 1);
    odd = receive(odd, sent, bytes);
    odd.c3 += m;
  }
  std::vector<Cost> next(static_cast<std::size_t>(p));
  for (int mask = 1; mask < p; mask <<= 1) {
    for (int s = 0; s < p; ++s) {
      const Cost& own = at(tl, t, member(s));
      Cost c = longest(plus_message(own, bytes),
                       receive(own, plus_message(at(tl, t, member(s ^ mask)), bytes), bytes));
      c.c3 += m;
      next[static_cast<std::size_t>(s)] = c;
    }
    for (int s = 0; s < p; ++s) at(tl, t, member(s)) = next[static_cast<std::size_t>(s)];
  }
  for (int i = 0; i + 1 < 2 * rem; i += 2) {  // unfold: 2i+1 hands the result back
    const Cost sent = plus_message(at(tl, t, i + 1), bytes);
    at(tl, t, i + 1) = sent;
    at(tl, t, i) = receive(at(tl, t, i), sent, bytes);
  }
}

// ---- binomial reduce to index 0 ----

namespace {
std::vector<int> reduce_children(int v, int size) {
  std::vector<int> c;
  for (int j = 1; j < size && !(v & j) && v + j < size; j <<= 1) c.push_back(v + j);
  return c;
}
}  // namespace

void emit_tree_reduce(ScheduleBuilder& b, const Team& t, Slice data, Slice incoming) {
  const int v = t.me;
  for (int child : reduce_children(v, t.size)) {
    b.recv(t.rank(child), incoming);
    b.reduce(incoming, data, false);
  }
  if (v != 0) b.send(t.rank(v - lowest_bit(v)), data);
  b.end_round();
}

void cost_tree_reduce(Timeline& tl, const Team& t, std::size_t bytes) {
  tl.make_room(t);
  if (bytes == 0) return;
  std::vector<Cost> sent(static_cast<std::size_t>(t.size));
  for (int v = t.size - 1; v >= 0; --v) {
    Cost c = at(tl, t, v);
    for (int child : reduce_children(v, t.size)) {
      c = receive(c, sent[static_cast<std::size_t>(child)], bytes);
      c.c3 += u64(bytes);
    }
    if (v != 0) c = plus_message(c, bytes);
    sent[static_cast<std::size_t>(v)] = c;
    at(tl, t, v) = c;
  }
}

}  // namespace ccl::algorithms
