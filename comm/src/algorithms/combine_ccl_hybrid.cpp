// The CCL paper's hybrid combine with parameter k (Aggarwal and Kipnis's message-time
// trade-off): k steps of recursive halving (reduce-scatter into 2^k pieces), log2 p − k steps of
// recursive doubling on the pieces, k steps of recursive doubling that collect the pieces back.
// k = 0 would be plain recursive doubling; k = log2 p is Rabenseifner's algorithm. Distances
// grow 1, 2, 4, ... so every partial is the reduction of an aligned block of consecutive ranks:
// rank order holds for non-commutative operators. Non-powers of two fold first and unfold last
// (as recursive doubling does). Param: k.
//
// Cost for p = n = 2^L members and m bytes: C1 = L + k, C2 = m·(2(1 − 2^−k) + (L − k)/2^k),
// C3 = m·((1 − 2^−k) + (L − k)/2^k); in all the paper's C3 (total data moved) is
// m·(n/2^k)(log n + 2^(k+1) − k − 2). Folding adds 2 start-ups and m bytes each way.
//
//   n = 4, k = 1:  halve at distance 1 (keep half)  ─►  double at distance 2 (on the half)
//                  ─►  collect at distance 1 (the halves)
#include <vector>

#include "team.hpp"

namespace ccl::algorithms {

namespace {

struct Layout {
  int p = 1, rem = 0, levels = 0;  // survivors, members folded away, log2 p
  Pieces pieces;                   // 2^k pieces of the vector
};

Layout layout_of(const Shape& s, int k) {
  Layout l;
  while (l.p * 2 <= s.size) {
    l.p *= 2;
    ++l.levels;
  }
  l.rem = s.size - l.p;
  l.pieces = Pieces(s.vector_bytes(), 1 << k, s.elem);
  return l;
}

int member_of(const Layout& l, int survivor) {
  return survivor < l.rem ? survivor * 2 + 1 : survivor + l.rem;
}

// Range of pieces [lo, hi) survivor s holds after each halving step (index 0: before any).
std::vector<std::pair<int, int>> ranges(int s, int k) {
  std::vector<std::pair<int, int>> r{{0, 1 << k}};
  for (int j = 0; j < k; ++j) {
    auto [lo, hi] = r.back();
    const int mid = (lo + hi) / 2;
    r.push_back((s >> j) & 1 ? std::pair{mid, hi} : std::pair{lo, mid});
  }
  return r;
}

Schedule build(const Shape& s, const Params& params) {
  ScheduleBuilder b("ccl_hybrid");
  const int k = params.k, r = s.rank;
  const Layout l = layout_of(s, k);
  const std::size_t m = s.vector_bytes();
  const Slice data{Buffer::recv, 0, m};
  const Slice incoming = b.scratch(m);
  const Pieces& pc = l.pieces;
  auto piece_range = [&](int lo, int hi) { return data.sub(pc.begin(lo), pc.span(lo, hi)); };
  b.copy(Slice{Buffer::send, 0, m}, data);

  int survivor = -1;
  if (r < 2 * l.rem) {
    if (r % 2 == 0) {
      b.send(r + 1, data);
    } else {
      b.recv(r - 1, incoming);
      b.reduce(incoming, data, true);
      survivor = r / 2;
    }
  } else {
    survivor = r - l.rem;
  }
  if (survivor >= 0) {
    const auto rg = ranges(survivor, k);
    for (int j = 0; j < k; ++j) {  // recursive halving
      const int partner = survivor ^ (1 << j);
      const auto [lo, hi] = rg[static_cast<std::size_t>(j)];
      const auto [klo, khi] = rg[static_cast<std::size_t>(j) + 1];
      const int olo = klo == lo ? khi : lo, ohi = klo == lo ? hi : klo;  // the half given away
      b.send(member_of(l, partner), piece_range(olo, ohi), Copier::exchange);
      b.recv(member_of(l, partner), incoming.sub(0, pc.span(klo, khi)), Copier::exchange);
      b.reduce(incoming.sub(0, pc.span(klo, khi)), piece_range(klo, khi), partner < survivor);
    }
    const auto [plo, phi] = rg.back();
    for (int j = k; j < l.levels; ++j) {  // recursive doubling on the piece
      const int partner = survivor ^ (1 << j);
      b.send(member_of(l, partner), piece_range(plo, phi), Copier::exchange);
      b.recv(member_of(l, partner), incoming.sub(0, pc.span(plo, phi)), Copier::exchange);
      b.reduce(incoming.sub(0, pc.span(plo, phi)), piece_range(plo, phi), partner < survivor);
    }
    b.end_round();
    for (int j = k - 1; j >= 0; --j) {  // collect the pieces back
      const int partner = survivor ^ (1 << j);
      const auto [lo, hi] = rg[static_cast<std::size_t>(j)];
      const auto [klo, khi] = rg[static_cast<std::size_t>(j) + 1];
      const int olo = klo == lo ? khi : lo, ohi = klo == lo ? hi : klo;
      b.send(member_of(l, partner), piece_range(klo, khi), Copier::exchange);
      b.recv(member_of(l, partner), piece_range(olo, ohi), Copier::exchange);
      b.end_round();
    }
  }
  b.end_round();
  if (r < 2 * l.rem) {
    if (r % 2 == 1) {
      b.send(r - 1, data);
    } else {
      b.recv(r + 1, data);
    }
  }
  return b.finish();
}

// Above kExactUpTo members: every member priced from the latest clock with the largest message
// of each step (an upper bound, each operation being monotone in every component), in time
// linear in log p. After j halvings a survivor holds an aligned run of 2^(k−j) pieces, and the
// run starting at piece 0 is the largest (Pieces gives the first pieces the extra elements).
Cost level_cost(const Layout& l, int k, std::size_t m) {
  const Pieces& pc = l.pieces;
  // Partners level: the partner's message arrives with the own one's departure.
  auto exchange = [](Cost c, std::size_t bytes, std::size_t folded) {
    c = maybe_message(c, bytes);
    c.c3 += u64(folded);
    return c;
  };
  Cost c;
  if (l.rem > 0) {  // fold: the odd member of a pair receives and folds in the even one's vector
    c = plus_message(c, m);
    c.c3 += u64(m);
  }
  for (int j = 0; j < k; ++j) {
    const std::size_t half = pc.span(0, 1 << (k - j - 1));
    c = exchange(c, half, half);
  }
  const std::size_t piece = k == 0 ? m : pc.bytes(0);
  for (int j = k; j < l.levels; ++j) c = exchange(c, piece, piece);
  for (int j = k - 1; j >= 0; --j) c = exchange(c, pc.span(0, 1 << (k - j - 1)), 0);
  if (l.rem > 0) c = plus_message(c, m);  // unfold
  return c;
}

Cost cost(const Shape& s, const Params& params) {
  const int k = params.k;
  const Layout l = layout_of(s, k);
  const std::size_t m = s.vector_bytes();
  if (m == 0 || s.size == 1) return {};
  if (s.size > kExactUpTo) return level_cost(l, k, m);
  const Pieces& pc = l.pieces;
  std::vector<Cost> t(static_cast<std::size_t>(s.size));
  auto at = [&](int member) -> Cost& { return t[static_cast<std::size_t>(member)]; };
  for (int i = 0; i + 1 < 2 * l.rem; i += 2) {  // fold
    at(i) = plus_message(at(i), m);
    at(i + 1) = receive(at(i + 1), at(i), m);
    at(i + 1).c3 += u64(m);
  }
  std::vector<Cost> next(static_cast<std::size_t>(l.p));
  // One exchange step between survivors: what each sends, and what each then folds in.
  auto exchange = [&](int dist, auto sent_bytes, auto folded_bytes) {
    for (int sv = 0; sv < l.p; ++sv) {
      const int partner = sv ^ dist;
      const Cost& own = at(member_of(l, sv));
      Cost c = maybe_message(own, sent_bytes(sv));
      if (sent_bytes(partner) > 0) {
        c = longest(c, receive(own, maybe_message(at(member_of(l, partner)), sent_bytes(partner)),
                               sent_bytes(partner)));
      }
      c.c3 += u64(folded_bytes(sv));
      next[static_cast<std::size_t>(sv)] = c;
    }
    for (int sv = 0; sv < l.p; ++sv) at(member_of(l, sv)) = next[static_cast<std::size_t>(sv)];
  };
  std::vector<std::vector<std::pair<int, int>>> rg(static_cast<std::size_t>(l.p));
  for (int sv = 0; sv < l.p; ++sv) rg[static_cast<std::size_t>(sv)] = ranges(sv, k);
  auto kept = [&](int sv, int j) {
    return rg[static_cast<std::size_t>(sv)][static_cast<std::size_t>(j) + 1];
  };
  auto given = [&](int sv, int j) {
    const auto [lo, hi] = rg[static_cast<std::size_t>(sv)][static_cast<std::size_t>(j)];
    const auto [klo, khi] = kept(sv, j);
    return pc.span(klo == lo ? khi : lo, klo == lo ? hi : klo);
  };
  for (int j = 0; j < k; ++j) {
    exchange(
        1 << j, [&](int sv) { return given(sv, j); },
        [&](int sv) { return pc.span(kept(sv, j).first, kept(sv, j).second); });
  }
  auto piece = [&](int sv) { return pc.span(kept(sv, k - 1).first, kept(sv, k - 1).second); };
  for (int j = k; j < l.levels; ++j) {
    exchange(
        1 << j, [&](int sv) { return k == 0 ? m : piece(sv); },
        [&](int sv) { return k == 0 ? m : piece(sv); });
  }
  for (int j = k - 1; j >= 0; --j) {
    exchange(
        1 << j, [&](int sv) { return pc.span(kept(sv, j).first, kept(sv, j).second); },
        [](int) { return std::size_t{0}; });
  }
  for (int i = 0; i + 1 < 2 * l.rem; i += 2) {  // unfold
    at(i + 1) = plus_message(at(i + 1), m);
    at(i) = receive(at(i), at(i + 1), m);
  }
  return worst(t);
}

std::vector<Params> candidates(const Shape& s) {
  std::vector<Params> out;
  int levels = 0;
  while ((2 << levels) <= s.size) ++levels;
  for (int k = 1; k <= levels && (std::size_t{1} << k) <= s.count; ++k)
    out.push_back(Params{k, 0, {}, ""});
  return out;
}

}  // namespace

const Algorithm combine_ccl_hybrid{"ccl_hybrid", CollKind::combine, build, cost, candidates};

}  // namespace ccl::algorithms
