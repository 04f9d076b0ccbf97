// One random collective on one group, for the members this process plays: their buffers (filled
// from random_data.hpp, between guard elements of junk), the ccl call, and afterwards a check of
// every element of every buffer — results against the reference, guards and inputs against what
// they held before the call.
#pragma once

#include <algorithm>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "ccl/ccl.hpp"
#include "ccl/selection.hpp"
#include "random_case.hpp"
#include "random_data.hpp"

namespace rnd {

// Everything a call depends on.
struct CallContext {
  const Case* cs = nullptr;
  int step = 0;
  int group = 0;            // index in the step's level
  std::vector<int> played;  // group ranks this process plays, ascending

  const Step& spec() const { return cs->steps[static_cast<std::size_t>(step)]; }
  const Call& call() const { return spec().calls[static_cast<std::size_t>(group)]; }
  const Level& level() const { return cs->levels[static_cast<std::size_t>(spec().level)]; }
  const std::vector<int>& members() const {
    return level().groups[static_cast<std::size_t>(group)];
  }
  int size() const { return static_cast<int>(members().size()); }
};

class CallRun {
 public:
  virtual ~CallRun() = default;
  // The algorithm to force, "name[:params]", or "" for ccl's own choice.
  virtual std::string algorithm() const = 0;
  // Starts the call of played member i (an index into CallContext::played); when `blocking`,
  // runs the blocking form instead and returns an empty request.
  virtual ccl::Request start(std::size_t i, const ccl::Group& g, bool blocking) = 0;
  // After completion: the first wrong element, described, or nothing.
  virtual std::optional<std::string> check() = 0;
};

namespace detail {

inline std::uint64_t index_key(int to, std::size_t k) {
  return (static_cast<std::uint64_t>(to) << 32) | k;
}

// ccl::Shape needs the kind's vector or block length; this is the common part.
inline ccl::Shape shape_of(const CallContext& ctx, std::size_t elem) {
  using K = ccl::CollKind;
  const Step& s = ctx.spec();
  const Call& c = ctx.call();
  ccl::Shape sh;
  sh.kind = s.kind;
  sh.size = ctx.size();
  sh.root = ccl::is_rooted(s.kind) ? c.root : 0;
  sh.elem = s.kind == K::sync ? 1 : elem;
  sh.count = c.count;
  sh.counts = c.counts;
  sh.distance = s.kind == K::shift ? c.distance : 0;
  sh.commutative = !ccl::is_reduction(s.kind) || commutative(s.op);
  if (s.kind == K::concat) sh.torus = ctx.level().torus[static_cast<std::size_t>(ctx.group)];
  return sh;
}

}  // namespace detail

template <class T>
class CallRunT final : public CallRun {
 public:
  explicit CallRunT(CallContext ctx) : ctx_(std::move(ctx)), P_(ctx_.size()) {
    // Block offsets of the v-forms (and of the fixed-size block kinds, for one code path).
    off_.assign(static_cast<std::size_t>(P_) + 1, 0);
    for (int i = 0; i < P_; ++i)
      off_[static_cast<std::size_t>(i) + 1] = off_[static_cast<std::size_t>(i)] + block(i);
    members_.reserve(ctx_.played.size());
    for (int r : ctx_.played) members_.push_back(make_member(r));
  }

  std::string algorithm() const override {
    const Call& c = ctx_.call();
    if (c.algorithm % 3 == 0) return {};
    ccl::Shape sh = detail::shape_of(ctx_, sizeof(T));
    if (kind() == ccl::CollKind::indexv) {  // as member 0 sees it: the same on every member
      for (int j = 0; j < P_; ++j) {
        sh.counts.push_back(vcount(0, j));
        sh.recv_counts.push_back(vcount(j, 0));
      }
    }
    std::vector<std::string> options;
    for (const ccl::Algorithm* a : ccl::catalog()) {
      if (a->kind != ccl::base_kind(kind())) continue;
      for (const ccl::Params& p : a->candidates(sh)) options.push_back(ccl::Choice{a, p}.str());
    }
    if (options.empty()) return {};
    return options[(c.algorithm / 3) % options.size()];
  }

  ccl::Request start(std::size_t i, const ccl::Group& g, bool blocking) override {
    using K = ccl::CollKind;
    Member& m = members_[i];
    const int root = ctx_.call().root;
    ccl::Request req;
    switch (kind()) {
      case K::bcast:
        if (blocking)
          ccl::bcast(g, m.r, root);
        else
          req = ccl::ibcast(g, m.r, root);
        break;
      case K::reduce:
      case K::combine:
      case K::prefix:
        with_op<T>(ctx_.spec().op, [&](auto op) {
          if (kind() == K::reduce) {
            if (blocking)
              ccl::reduce(g, m.s, m.r, op, root);
            else
              req = ccl::ireduce(g, m.s, m.r, op, root);
          } else if (kind() == K::combine) {
            if (blocking)
              ccl::combine(g, m.s, m.r, op);
            else
              req = ccl::icombine(g, m.s, m.r, op);
          } else {
            if (blocking)
              ccl::prefix(g, m.s, m.r, op);
            else
              req = ccl::iprefix(g, m.s, m.r, op);
          }
        });
        break;
      case K::scatter:
        if (blocking)
          ccl::scatter(g, m.s, m.r, root);
        else
          req = ccl::iscatter(g, m.s, m.r, root);
        break;
      case K::gather:
        if (blocking)
          ccl::gather(g, m.s, m.r, root);
        else
          req = ccl::igather(g, m.s, m.r, root);
        break;
      case K::concat:
        if (blocking)
          ccl::concat(g, m.s, m.r);
        else
          req = ccl::iconcat(g, m.s, m.r);
        break;
      case K::index:
        if (blocking)
          ccl::index(g, m.s, m.r);
        else
          req = ccl::iindex(g, m.s, m.r);
        break;
      case K::shift:
        if (blocking)
          ccl::shift(g, m.s, m.r, ctx_.call().distance);
        else
          req = ccl::ishift(g, m.s, m.r, ctx_.call().distance);
        break;
      case K::sync:
        if (blocking)
          ccl::sync(g);
        else
          req = ccl::isync(g);
        break;
      case K::concatv:
        if (blocking)
          ccl::concatv(g, m.s, m.r, ctx_.call().counts);
        else
          req = ccl::iconcatv(g, m.s, m.r, ctx_.call().counts);
        break;
      case K::gatherv:
        if (blocking)
          ccl::gatherv(g, m.s, m.r, ctx_.call().counts, root);
        else
          req = ccl::igatherv(g, m.s, m.r, ctx_.call().counts, root);
        break;
      case K::scatterv:
        if (blocking)
          ccl::scatterv(g, m.s, m.r, ctx_.call().counts, root);
        else
          req = ccl::iscatterv(g, m.s, m.r, ctx_.call().counts, root);
        break;
      case K::indexv:
        if (blocking)
          ccl::indexv(g, m.s, m.sc, m.r, m.rc);
        else
          req = ccl::iindexv(g, m.s, m.sc, m.r, m.rc);
        break;
    }
    return req;
  }

  std::optional<std::string> check() override {
    using K = ccl::CollKind;
    const bool root_played =
        std::ranges::any_of(members_, [&](const Member& m) { return m.rank == ctx_.call().root; });
    if (kind() == K::combine || (kind() == K::reduce && root_played)) fold_all();
    next_ = 0;
    for (const Member& m : members_) {
      if (kind() == K::prefix) advance_prefix(m.rank);
      if (auto e = compare(m, m.a)) return e;
      if (auto e = compare(m, m.b)) return e;
    }
    return std::nullopt;
  }

 private:
  static constexpr std::size_t kPad = 3;  // guard elements on each side of every buffer

  struct Buffer {
    std::vector<T> v, before;
    const char* role = "";
    bool expected = false;  // the body holds results (else it must stay as it was)
    std::size_t size() const { return v.empty() ? 0 : v.size() - 2 * kPad; }
    std::span<T> body() { return {v.data() + kPad, size()}; }
  };
  struct Member {
    int rank = 0, world = 0;
    bool in_place = false;
    Buffer a, b;  // a: input only; b: results, or input and results in place
    std::span<const T> s;
    std::span<T> r;
    std::vector<std::size_t> sc, rc, roff;  // indexv: counts sent, received; receive offsets
  };

  ccl::CollKind kind() const { return ctx_.spec().kind; }
  std::uint64_t seed() const { return ctx_.cs->seed; }
  int world_of(int rank) const { return ctx_.members()[static_cast<std::size_t>(rank)]; }
  T val(int world, std::uint64_t key) const {
    return value<T>(seed(), ctx_.step, world, key, ctx_.spec().flavour);
  }
  std::uint64_t member_hash(int world, std::uint64_t what) const {
    return hash(
        {seed(), static_cast<std::uint64_t>(ctx_.step), static_cast<std::uint64_t>(world), what});
  }

  // Elements of member i's block for the block-wise kinds and v-forms.
  std::size_t block(int i) const {
    const Call& c = ctx_.call();
    return c.counts.empty() ? c.count : c.counts[static_cast<std::size_t>(i)];
  }
  // indexv: elements member `from` sends member `to` (symmetric: as many as it receives back).
  std::size_t vcount(int from, int to) const {
    const Call& c = ctx_.call();
    const int a = c.symmetric ? std::min(from, to) : from,
              b = c.symmetric ? std::max(from, to) : to;
    const std::uint64_t h =
        hash({seed(), static_cast<std::uint64_t>(ctx_.step), static_cast<std::uint64_t>(ctx_.group),
              static_cast<std::uint64_t>(a), static_cast<std::uint64_t>(b), 0x1D});
    return h % 4 == 0 ? 0 : static_cast<std::size_t>((h >> 8) % (c.max_count + 1));
  }

  template <class Fill>
  Buffer make(const Member& m, std::size_t len, const char* role, bool expected, Fill fill) const {
    Buffer b;
    b.role = role;
    b.expected = expected;
    b.v.resize(len + 2 * kPad);
    for (std::size_t j = 0; j < b.v.size(); ++j) {
      b.v[j] = j < kPad || j >= kPad + len
                   ? junk<T>(seed(), ctx_.step, m.world, (std::uint64_t{0xFACE} << 32) | j)
                   : fill(j - kPad);
    }
    return b;
  }
  Buffer junk_buffer(const Member& m, std::size_t len, const char* role, bool expected) const {
    return make(m, len, role, expected,
                [&](std::size_t j) { return junk<T>(seed(), ctx_.step, m.world, j); });
  }
  Buffer data_buffer(const Member& m, std::size_t len, const char* role, bool expected) const {
    return make(m, len, role, expected, [&](std::size_t j) { return val(m.world, j); });
  }

  // Reduce (at non-roots), gather, gatherv: the results buffer is ignored; junk of any length
  // then must stay as it is.
  void ignored_recv(Member& m) {
    if (!ctx_.call().junk_elsewhere) return;
    m.b =
        junk_buffer(m, member_hash(m.world, 0x1E) % (ctx_.call().count + 3), "ignored recv", false);
    m.r = m.b.body();
  }
  void ignored_send(Member& m) {
    if (!ctx_.call().junk_elsewhere) return;
    m.a =
        junk_buffer(m, member_hash(m.world, 0x1E) % (ctx_.call().count + 3), "ignored send", false);
    m.s = m.a.body();
  }
  // bcast-like vectors: in place one buffer, else input and results apart.
  void vector_in_out(Member& m) {
    const std::size_t n = ctx_.call().count;
    if (m.in_place) {
      m.b = data_buffer(m, n, "send/recv (in place)", true);
      m.s = m.r = m.b.body();
    } else {
      m.a = data_buffer(m, n, "send", false);
      m.b = junk_buffer(m, n, "recv", true);
      m.s = m.a.body();
      m.r = m.b.body();
    }
  }
  // Results laid out in blocks (gather, concat and v-forms): in place, the own block already
  // sits in the results buffer and is passed as the input.
  void blocks_in(Member& m) {
    const auto r = static_cast<std::size_t>(m.rank);
    const std::size_t mine = block(m.rank);
    m.b = junk_buffer(m, off_.back(), "recv", true);
    if (m.in_place) {
      for (std::size_t k = 0; k < mine; ++k) m.b.body()[off_[r] + k] = val(m.world, k);
      m.s = m.b.body().subspan(off_[r], mine);
      m.b.role = "recv (own block in place)";
    } else {
      m.a = data_buffer(m, mine, "send", false);
      m.s = m.a.body();
    }
    m.r = m.b.body();
  }
  // Scatter's root: in place, its own results block is a slice of the input, which stays as it is.
  void blocks_out_root(Member& m) {
    const auto r = static_cast<std::size_t>(m.rank);
    if (m.in_place) {
      m.b = data_buffer(m, off_.back(), "send (own block in place)", false);
      m.s = m.b.body();
      m.r = m.b.body().subspan(off_[r], block(m.rank));
    } else {
      m.a = data_buffer(m, off_.back(), "send", false);
      m.b = junk_buffer(m, block(m.rank), "recv", true);
      m.s = m.a.body();
      m.r = m.b.body();
    }
  }

  Member make_member(int rank) {
    using K = ccl::CollKind;
    const Call& c = ctx_.call();
    Member m;
    m.rank = rank;
    m.world = world_of(rank);
    m.in_place = c.in_place == InPlace::all ||
                 (c.in_place == InPlace::mixed && (member_hash(m.world, 0x1DEA) & 1));
    const bool root = rank == c.root;
    switch (kind()) {
      case K::bcast:
        m.b = root ? data_buffer(m, c.count, "buf", true) : junk_buffer(m, c.count, "buf", true);
        m.r = m.b.body();
        break;
      case K::reduce:
        if (root) {
          vector_in_out(m);
        } else {
          m.a = data_buffer(m, c.count, "send", false);
          m.s = m.a.body();
          ignored_recv(m);
        }
        break;
      case K::combine:
      case K::prefix:
      case K::shift:
        vector_in_out(m);
        break;
      case K::scatter:
      case K::scatterv:
        if (root) {
          blocks_out_root(m);
        } else {
          ignored_send(m);
          m.b = junk_buffer(m, block(rank), "recv", true);
          m.r = m.b.body();
        }
        break;
      case K::gather:
      case K::gatherv:
        if (root) {
          blocks_in(m);
        } else {
          m.a = data_buffer(m, block(rank), "send", false);
          m.s = m.a.body();
          ignored_recv(m);
        }
        break;
      case K::concat:
      case K::concatv:
        blocks_in(m);
        break;
      case K::index: {
        const std::size_t n = c.count;
        auto fill = [&](std::size_t j) {
          return val(m.world, detail::index_key(static_cast<int>(j / n), j % n));
        };
        if (m.in_place) {
          m.b = make(m, n * static_cast<std::size_t>(P_), "send/recv (in place)", true, fill);
          m.s = m.r = m.b.body();
        } else {
          m.a = make(m, n * static_cast<std::size_t>(P_), "send", false, fill);
          m.b = junk_buffer(m, n * static_cast<std::size_t>(P_), "recv", true);
          m.s = m.a.body();
          m.r = m.b.body();
        }
        break;
      }
      case K::indexv: {
        std::vector<int> to_of;  // send element -> destination
        std::vector<std::size_t> k_of;
        m.roff.push_back(0);
        for (int j = 0; j < P_; ++j) {
          m.sc.push_back(vcount(rank, j));
          m.rc.push_back(vcount(j, rank));
          m.roff.push_back(m.roff.back() + m.rc.back());
          for (std::size_t k = 0; k < m.sc.back(); ++k) {
            to_of.push_back(j);
            k_of.push_back(k);
          }
        }
        auto fill = [&](std::size_t j) {
          return val(m.world, detail::index_key(to_of[j], k_of[j]));
        };
        m.in_place = m.in_place && c.symmetric;
        if (m.in_place) {
          m.b = make(m, to_of.size(), "send/recv (in place)", true, fill);
          m.s = m.r = m.b.body();
        } else {
          m.a = make(m, to_of.size(), "send", false, fill);
          m.b = junk_buffer(m, m.roff.back(), "recv", true);
          m.s = m.a.body();
          m.r = m.b.body();
        }
        break;
      }
      case K::sync:
        break;
    }
    m.a.before = m.a.v;
    m.b.before = m.b.v;
    return m;
  }

  // The reference results.
  void fold_all() {
    const std::size_t n = ctx_.call().count;
    fold_.resize(n);
    for (std::size_t j = 0; j < n; ++j) {
      T acc = val(world_of(0), j);
      for (int q = 1; q < P_; ++q) acc = apply(ctx_.spec().op, acc, val(world_of(q), j));
      fold_[j] = acc;
    }
  }
  void advance_prefix(int rank) {  // fold_ = member 0 op ... op member `rank`
    const std::size_t n = ctx_.call().count;
    for (; next_ <= rank; ++next_) {
      if (next_ == 0) fold_.assign(n, T{});
      for (std::size_t j = 0; j < n; ++j) {
        const T v = val(world_of(next_), j);
        fold_[j] = next_ == 0 ? v : apply(ctx_.spec().op, fold_[j], v);
      }
    }
  }
  int owner(const std::vector<std::size_t>& offsets, std::size_t j) const {  // block holding j
    return static_cast<int>(std::upper_bound(offsets.begin(), offsets.end(), j) - offsets.begin()) -
           1;
  }
  T expected(const Member& m, std::size_t j) const {
    using K = ccl::CollKind;
    const Call& c = ctx_.call();
    switch (kind()) {
      case K::bcast:
        return val(world_of(c.root), j);
      case K::reduce:
      case K::combine:
      case K::prefix:
        return fold_[j];
      case K::shift: {
        const long long P = P_, src = ((m.rank - static_cast<long long>(c.distance)) % P + P) % P;
        return val(world_of(static_cast<int>(src)), j);
      }
      case K::scatter:
      case K::scatterv:
        return val(world_of(c.root), off_[static_cast<std::size_t>(m.rank)] + j);
      case K::gather:
      case K::gatherv:
      case K::concat:
      case K::concatv: {
        const int from = owner(off_, j);
        return val(world_of(from), j - off_[static_cast<std::size_t>(from)]);
      }
      case K::index: {
        const int from = static_cast<int>(j / c.count);
        return val(world_of(from), detail::index_key(m.rank, j % c.count));
      }
      case K::indexv: {
        const int from = owner(m.roff, j);
        return val(world_of(from),
                   detail::index_key(m.rank, j - m.roff[static_cast<std::size_t>(from)]));
      }
      case K::sync:
        break;
    }
    return T{};
  }

  std::optional<std::string> compare(const Member& m, const Buffer& b) const {
    const std::size_t n = b.size();
    for (std::size_t j = 0; j < b.v.size(); ++j) {
      const bool body = j >= kPad && j < kPad + n;
      const T want = body && b.expected ? expected(m, j - kPad) : b.before[j];
      if (b.v[j] == want) continue;
      std::string where =
          !body ? std::string("guard element ") + (j < kPad ? "before" : "after") + " the " +
                      b.role + " buffer (" + std::to_string(n) + " elements)"
                : std::string(b.role) + (b.expected ? "" : " (must not change)") + " element " +
                      std::to_string(j - kPad) + " of " + std::to_string(n);
      return "member " + std::to_string(m.rank) + " (world rank " + std::to_string(m.world) + ", " +
             (m.in_place ? "in place" : "not in place") + "): " + where + ": expected " +
             show(want) + ", got " + show(b.v[j]);
    }
    return std::nullopt;
  }

  CallContext ctx_;
  int P_;
  std::vector<std::size_t> off_;  // block offsets, P_ + 1 entries
  std::vector<Member> members_;
  std::vector<T> fold_;
  int next_ = 0;  // prefix: members folded into fold_ so far
};

inline std::unique_ptr<CallRun> make_call_run(CallContext ctx) {
  switch (ctx.spec().elem) {
    case Elem::i64:
      return std::make_unique<CallRunT<I64>>(std::move(ctx));
    case Elem::mat:
      return std::make_unique<CallRunT<Mat>>(std::move(ctx));
    case Elem::vi:
      return std::make_unique<CallRunT<VI>>(std::move(ctx));
    case Elem::tri:
      return std::make_unique<CallRunT<Tri>>(std::move(ctx));
  }
  return nullptr;
}

// "combine of 5 int64 (sum) on group 3 of level 1 (7 members: 4 9 2 ...), in place: mixed".
inline std::string describe(const CallContext& ctx, const std::string& algorithm) {
  using K = ccl::CollKind;
  const Step& s = ctx.spec();
  const Call& c = ctx.call();
  std::string d = std::string(ccl::name(s.kind));
  if (s.kind == K::concatv || s.kind == K::gatherv || s.kind == K::scatterv) {
    d += " of counts [";
    for (std::size_t i = 0; i < c.counts.size() && i < 16; ++i) {
      if (i > 0) d += ' ';
      d += std::to_string(c.counts[i]);
    }
    d += c.counts.size() > 16 ? " ...]" : "]";
  } else if (s.kind == K::indexv) {
    d += std::string(" of counts up to ") + std::to_string(c.max_count) +
         (c.symmetric ? " (symmetric)" : "");
  } else if (s.kind != K::sync) {
    d += " of " + std::to_string(c.count);
  }
  if (s.kind != K::sync) d += std::string(" ") + name(s.elem);
  if (s.op != Op::none) d += std::string(" (") + name(s.op) + ")";
  if (ccl::is_rooted(s.kind)) d += ", root " + std::to_string(c.root);
  if (s.kind == K::shift) d += ", distance " + std::to_string(c.distance);
  const auto& mem = ctx.members();
  d += " on group " + std::to_string(ctx.group) + " of level " + std::to_string(s.level) + " (" +
       std::to_string(mem.size()) + " members:";
  for (std::size_t i = 0; i < mem.size() && i < 16; ++i) {
    d += ' ';  // (appends, not " " + ...: GCC 12 -Wrestrict false positive)
    d += std::to_string(mem[i]);
  }
  d += mem.size() > 16 ? " ...)" : ")";
  const auto& torus = ctx.level().torus[static_cast<std::size_t>(ctx.group)];
  if (!torus.empty()) {
    d += ", torus ";
    for (std::size_t i = 0; i < torus.size(); ++i) {
      if (i > 0) d += 'x';
      d += std::to_string(torus[i]);
    }
  }
  d += std::string(", in place: ") + name(c.in_place);
  if (c.junk_elsewhere && ccl::is_rooted(s.kind)) d += ", junk buffers at non-roots";
  d += ", algorithm " + (algorithm.empty() ? std::string("auto") : algorithm);
  return d;
}

}  // namespace rnd
