// Randomised collective cases: from one 64-bit seed, a world split into random groups and a
// sequence of random collectives on them. Every process runs the same generator, so all members
// derive the same case; only the data a member contributes differs, and that is a function of
// (seed, step, world rank, key) (random_data.hpp), so each member can compute what every other
// member sent and check its results locally. Nothing here calls ccl: the case is plain data.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <map>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

#include "ccl/shape.hpp"

namespace rnd {

// SplitMix64: fixed arithmetic, so every platform and standard library derives the same case
// (std::uniform_int_distribution is implementation-defined).
inline std::uint64_t mix(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ULL;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
  return x ^ (x >> 31);
}

inline std::uint64_t hash(std::initializer_list<std::uint64_t> parts) {
  std::uint64_t h = 0x243F6A8885A308D3ULL;
  for (std::uint64_t p : parts) h = mix(h ^ mix(p));
  return h;
}

class Rng {
 public:
  explicit Rng(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() { return mix(state_++ * 0x2545F4914F6CDD1DULL); }
  // Uniform in [0, n), n > 0 (the modulo bias is irrelevant here).
  std::size_t below(std::size_t n) { return static_cast<std::size_t>(next() % n); }
  int range(int lo, int hi) {  // [lo, hi]
    return lo + static_cast<int>(below(static_cast<std::size_t>(hi - lo) + 1));
  }
  bool chance(int num, int den) {
    return below(static_cast<std::size_t>(den)) < static_cast<std::size_t>(num);
  }
  template <class T>
  const T& pick(const std::vector<T>& v) {
    return v[below(v.size())];
  }

 private:
  std::uint64_t state_;
};

// Element types (random_data.hpp): 8-byte integers, 32-byte 2x2 matrices (non-commutative
// product), value/index pairs (minloc, maxloc) and 3-byte records (odd sizes and alignment).
enum class Elem : std::uint8_t { i64, mat, vi, tri };
// Reduce operators: the built-ins, and user ones — first_nonzero (associative, not commutative),
// xor and tri_add (declared commutative with ccl::commutative), matmul (rank order matters).
enum class Op : std::uint8_t {
  none,
  sum,
  prod,
  min,
  max,
  land,
  lor,
  band,
  bor,
  first_nonzero,
  xor_,
  matmul,
  minloc,
  maxloc,
  tri_add
};
// None: separate buffers; all: every member in place; mixed: each member decides alone.
enum class InPlace : std::uint8_t { none, all, mixed };
// How a batch completes: blocking calls (a batch of one), wait() in a shuffled order per member,
// ccl::wait_all in program order, or test() polled in a shuffled order.
enum class Finish : std::uint8_t { blocking, wait_shuffled, wait_all, test_poll };

inline const char* name(Elem e) {
  static const char* const n[] = {"int64", "mat2x2", "value_index", "bytes3"};
  return n[static_cast<int>(e)];
}
inline const char* name(Op o) {
  static const char* const n[] = {"none", "sum",    "prod",   "min",    "max",
                                  "land", "lor",    "band",   "bor",    "first_nonzero",
                                  "xor",  "matmul", "minloc", "maxloc", "tri_add"};
  return n[static_cast<int>(o)];
}
inline const char* name(InPlace p) {
  static const char* const n[] = {"no", "all", "mixed"};
  return n[static_cast<int>(p)];
}
inline const char* name(Finish f) {
  static const char* const n[] = {"blocking", "wait (shuffled)", "wait_all", "test (polled)"};
  return n[static_cast<int>(f)];
}
inline bool commutative(Op o) {
  return o != Op::first_nonzero && o != Op::matmul;
}

// One grouping of the world: level 0 is the world itself; every later level partitions the
// groups of an earlier one (ccl::partition), or forms the same groups from member lists
// (ccl::group).
struct Level {
  int parent = -1;                       // level whose groups were split; -1 for the world
  bool listed = false;                   // formed with ccl::group from the lists below
  std::vector<int> color, key;           // by world rank: partition's arguments
  std::vector<std::vector<int>> groups;  // world ranks in group order
  std::vector<int> group_of, rank_in;    // by world rank
  std::vector<std::vector<int>> torus;   // per group: declared torus dimensions, or none
};

// One collective on one group. Per-member choices (in place or not under `mixed`) and the indexv
// counts are functions of the seed (random_data.hpp), so they take no room here.
struct Call {
  int root = 0;
  std::size_t count = 0;            // vector length, or block length of the block-wise kinds
  std::vector<std::size_t> counts;  // concatv, gatherv, scatterv
  std::size_t max_count = 0;        // indexv: counts between members are in [0, max_count]
  bool symmetric = false;           // indexv: member i sends j what j sends i (in place allowed)
  int distance = 0;                 // shift
  InPlace in_place = InPlace::none;
  bool junk_elsewhere = false;  // non-roots pass a junk buffer where theirs is ignored
  std::uint64_t algorithm = 0;  // which algorithm to force, if any (random_exec.hpp)
};

// One step: the same kind of collective on every group of a level.
struct Step {
  ccl::CollKind kind = ccl::CollKind::sync;
  int level = 0;
  Elem elem = Elem::i64;
  Op op = Op::none;
  int flavour = 0;          // how values are drawn (random_data.hpp)
  std::vector<Call> calls;  // one per group of the level
};

// Steps started back to back (nonblocking), then completed together.
struct Batch {
  std::vector<int> steps;
  Finish finish = Finish::wait_shuffled;
};

struct Limits {
  int steps = 24;                 // collectives per case
  std::size_t budget = 4u << 20;  // bytes of data a collective may move over all members
};

struct Case {
  std::uint64_t seed = 0;
  int world = 1;
  bool develop = false;  // run in ccl's develop mode (cross-member argument checks)
  std::vector<Level> levels;
  std::vector<Step> steps;
  std::vector<Batch> batches;

  // Collective calls checked: one per group per step; or only those on groups of 2 or more.
  std::size_t calls(std::size_t min_size = 1) const {
    std::size_t n = 0;
    for (const Step& s : steps) {
      for (const auto& g : levels[static_cast<std::size_t>(s.level)].groups)
        n += g.size() >= min_size ? 1 : 0;
    }
    return n;
  }
};

// The world size for a simulator case: awkward sizes first (tiny, primes, powers of two and their
// neighbours), now and then a large one up to `max_size`.
inline int sim_world_size(std::uint64_t seed, int max_size) {
  Rng rng(hash({seed, 0x517E}));
  static const std::vector<int> tiny{1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 12, 13, 15, 16, 17};
  static const std::vector<int> mid{19, 23, 24, 29, 31,  32,  33,  37, 47,
                                    63, 64, 65, 97, 100, 127, 128, 129};
  static const std::vector<int> big{211, 255, 256, 257, 331, 509, 511, 512, 513, 1000, 1023, 1024};
  const std::size_t r = rng.below(100);
  int p = r < 45   ? rng.pick(tiny)
          : r < 70 ? rng.pick(mid)
          : r < 90 ? rng.range(1, 64)
          : r < 97 ? rng.pick(big)
                   : rng.range(600, 1024);
  return std::clamp(p, 1, std::max(1, max_size));
}

namespace detail {

inline Level world_level(int world) {
  Level lv;
  lv.groups.emplace_back(static_cast<std::size_t>(world));
  std::iota(lv.groups[0].begin(), lv.groups[0].end(), 0);
  lv.group_of.assign(static_cast<std::size_t>(world), 0);
  lv.rank_in = lv.groups[0];
  lv.torus.emplace_back();
  return lv;
}

// A random factorisation of n into 2 or 3 dimensions, or none when n is prime or small.
inline std::vector<int> torus_dims(Rng& rng, int n) {
  std::vector<int> divisors;
  for (int d = 2; d < n; ++d) {
    if (n % d == 0) divisors.push_back(d);
  }
  if (n < 4 || divisors.empty()) return {};
  const int a = rng.pick(divisors), rest = n / a;
  std::vector<int> dims{a, rest};
  for (int d = 2; d < rest && rng.chance(1, 2); ++d) {
    if (rest % d == 0 && rng.chance(1, 3)) {
      dims = {a, d, rest / d};
      break;
    }
  }
  return dims;
}

// Split every group of `parent` with random colors and keys: sometimes one color (the whole group,
// reordered by its keys), sometimes all different (singletons), else blocks, residues or random
// colors; keys in order, reversed, random with ties (broken by parent rank) or all equal.
inline Level split(const Level& parent, int parent_index, int world, Rng& rng) {
  Level lv;
  lv.parent = parent_index;
  lv.listed = rng.chance(1, 5);
  const auto W = static_cast<std::size_t>(world);
  lv.color.assign(W, 0);
  lv.key.assign(W, 0);
  lv.group_of.assign(W, -1);
  lv.rank_in.assign(W, -1);
  for (const auto& g : parent.groups) {
    const int n = static_cast<int>(g.size());
    const int scheme = static_cast<int>(rng.below(6)), k = rng.range(1, std::max(1, n));
    const int keys = static_cast<int>(rng.below(5));
    const int base = rng.range(-5, 5);
    for (int i = 0; i < n; ++i) {
      const auto w = static_cast<std::size_t>(g[static_cast<std::size_t>(i)]);
      switch (scheme) {
        case 0:
          lv.color[w] = base;
          break;
        case 1:
          lv.color[w] = i;
          break;
        case 2:
          lv.color[w] = i % k;
          break;
        case 3:
          lv.color[w] = i / k;
          break;
        case 4:
          lv.color[w] = base + static_cast<int>(rng.below(static_cast<std::size_t>(k)));
          break;
        default:
          lv.color[w] = i < k ? 7 : -7;
          break;
      }
      switch (keys) {
        case 0:
          lv.key[w] = i;
          break;
        case 1:
          lv.key[w] = -i;
          break;
        case 2:
          lv.key[w] = static_cast<int>(rng.below(3));
          break;
        case 3:
          lv.key[w] = static_cast<int>(static_cast<std::uint32_t>(rng.next()));
          break;
        default:
          lv.key[w] = 0;
          break;
      }
    }
    // New groups in the order of their colors; members by key, ties by parent rank.
    std::map<int, std::vector<int>> by_color;
    for (int w : g) by_color[lv.color[static_cast<std::size_t>(w)]].push_back(w);
    for (auto& [color, members] : by_color) {
      std::stable_sort(members.begin(), members.end(), [&](int a, int b) {
        return lv.key[static_cast<std::size_t>(a)] < lv.key[static_cast<std::size_t>(b)];
      });
      for (std::size_t r = 0; r < members.size(); ++r) {
        lv.group_of[static_cast<std::size_t>(members[r])] = static_cast<int>(lv.groups.size());
        lv.rank_in[static_cast<std::size_t>(members[r])] = static_cast<int>(r);
      }
      lv.torus.push_back(rng.chance(1, 3) ? torus_dims(rng, static_cast<int>(members.size()))
                                          : std::vector<int>{});
      lv.groups.push_back(std::move(members));
    }
  }
  return lv;
}

// A count in [0, cap]: often 0, 1, below or around the group size, else log-uniform.
inline std::size_t count(Rng& rng, int group_size, std::size_t cap) {
  const auto P = static_cast<std::size_t>(group_size);
  std::size_t n = 0;
  const std::size_t r = rng.below(20);
  if (r < 2) {
    n = 0;
  } else if (r < 4) {
    n = 1;
  } else if (r < 8) {
    n = P > 1 ? 1 + rng.below(P - 1) : 1;
  } else if (r < 10) {
    n = P - 1 + rng.below(3);
  } else {
    std::size_t bits = 0;
    while ((std::size_t{1} << bits) < cap) ++bits;
    const std::size_t top = std::size_t{1} << rng.below(bits + 1);
    n = top / 2 + rng.below(top / 2 + 1);
  }
  return std::min(n, cap);
}

inline int distance(Rng& rng, int P) {
  switch (rng.below(8)) {
    case 0:
      return 0;
    case 1:
      return 1;
    case 2:
      return -1;
    case 3:
      return rng.chance(1, 2) ? P : -P;
    case 4:
      return rng.range(-3 * P, 3 * P);
    case 5:
      return (rng.chance(1, 2) ? 1 : -1) * (1 << 30) + rng.range(-P, P);
    case 6:
      return rng.chance(1, 2) ? 2147483647 : -2147483647;
    default:
      return rng.range(-P, P);
  }
}

inline bool has_in_place(ccl::CollKind k) {
  return k != ccl::CollKind::bcast && k != ccl::CollKind::sync;
}

inline void choose_types(Step& s, Rng& rng) {
  using K = ccl::CollKind;
  const bool reduction = s.kind == K::reduce || s.kind == K::combine || s.kind == K::prefix;
  const std::size_t r = rng.below(20);
  s.elem = r < 12 ? Elem::i64 : r < 15 ? Elem::mat : r < 18 ? Elem::vi : Elem::tri;
  if (!reduction) return;  // data moves as it is: any values
  switch (s.elem) {
    case Elem::mat:
      s.op = Op::matmul;
      return;
    case Elem::vi:
      s.op = rng.chance(1, 2) ? Op::minloc : Op::maxloc;
      return;
    case Elem::tri:
      s.op = Op::tri_add;
      return;
    case Elem::i64:
      break;
  }
  static const std::vector<Op> ops{Op::sum, Op::prod, Op::min, Op::max,           Op::land,
                                   Op::lor, Op::band, Op::bor, Op::first_nonzero, Op::xor_};
  s.op = rng.pick(ops);
  // Values that make the result telling and keep sums and products within int64.
  switch (s.op) {
    case Op::sum:
      s.flavour = rng.pick(std::vector<int>{1, 2, 3, 6});
      break;
    case Op::prod:
      s.flavour = 6;
      break;
    case Op::land:
    case Op::lor:
      s.flavour = rng.pick(std::vector<int>{0, 2, 3, 6});
      break;
    case Op::band:
      s.flavour = rng.chance(2, 3) ? 4 : static_cast<int>(rng.below(7));
      break;
    case Op::bor:
      s.flavour = rng.chance(2, 3) ? 5 : static_cast<int>(rng.below(7));
      break;
    case Op::first_nonzero:
      s.flavour = rng.chance(3, 4) ? 3 : 2;
      break;
    default:
      s.flavour = static_cast<int>(rng.below(7));
      break;
  }
}

inline std::size_t elem_size(Elem e) {
  switch (e) {
    case Elem::i64:
      return 8;
    case Elem::mat:
      return 32;
    case Elem::vi:
      return 8;
    case Elem::tri:
      return 3;
  }
  return 8;
}

inline Call make_call(const Step& s, int P, std::size_t budget, Rng& rng) {
  using K = ccl::CollKind;
  Call c;
  const auto Pn = static_cast<std::size_t>(P);
  const std::size_t elems = budget / elem_size(s.elem);
  // The data over all members stays within the budget: P·n for vectors, P²·c for blocks.
  const std::size_t vector_cap = std::max<std::size_t>(4, elems / Pn);
  // Blocks of one element still when P² of them fit in four budgets (int64 at P = 1024).
  std::size_t block_cap = elems / (Pn * Pn);
  if (block_cap == 0 && Pn * Pn * elem_size(s.elem) <= 4 * budget) block_cap = 1;
  c.root = rng.chance(1, 4) ? (rng.chance(1, 2) ? 0 : P - 1) : static_cast<int>(rng.below(Pn));
  switch (s.kind) {
    case K::scatter:
    case K::gather:
    case K::concat:
    case K::index:
      c.count = count(rng, P, block_cap);
      break;
    case K::concatv:
    case K::gatherv:
    case K::scatterv: {
      const std::size_t cap = count(rng, P, 2 * block_cap + 1);
      const int zeros = static_cast<int>(rng.below(4));  // share of zero blocks, in quarters
      for (int i = 0; i < P; ++i) {
        c.counts.push_back(rng.chance(zeros, 4) ? 0 : rng.below(cap + 1));
      }
      break;
    }
    case K::indexv:
      c.max_count = count(rng, P, 2 * block_cap + 1);
      break;
    case K::sync:
      break;
    default:
      c.count = count(rng, P, vector_cap);
      break;
  }
  c.distance = distance(rng, P);
  if (has_in_place(s.kind)) {
    const std::size_t r = rng.below(10);
    c.in_place = r < 5 ? InPlace::none : r < 8 ? InPlace::all : InPlace::mixed;
  }
  c.symmetric = c.in_place != InPlace::none || rng.chance(1, 4);
  c.junk_elsewhere = rng.chance(1, 2);
  c.algorithm = rng.next();
  return c;
}

}  // namespace detail

inline Case make_case(std::uint64_t seed, int world, const Limits& lim) {
  using K = ccl::CollKind;
  Case cs;
  cs.seed = seed;
  cs.world = world;
  Rng rng(hash({seed, static_cast<std::uint64_t>(world), 0xCA5E}));
  cs.develop = rng.chance(1, 5);
  cs.levels.push_back(detail::world_level(world));
  const int extra = rng.range(1, 3);
  for (int l = 0; l < extra; ++l) {
    // Split the world or an earlier split (nested groups).
    const int parent = static_cast<int>(rng.below(cs.levels.size()));
    cs.levels.push_back(
        detail::split(cs.levels[static_cast<std::size_t>(parent)], parent, world, rng));
  }
  static const std::vector<K> kinds{K::bcast,   K::reduce,  K::combine,  K::scatter, K::gather,
                                    K::concat,  K::index,   K::prefix,   K::shift,   K::sync,
                                    K::concatv, K::gatherv, K::scatterv, K::indexv};
  for (int i = 0; i < lim.steps; ++i) {
    if (i > 0 && rng.chance(1, 6)) {
      // An earlier step's shapes again, with new data: cached schedules bound to other buffers.
      cs.steps.push_back(cs.steps[rng.below(cs.steps.size())]);
      continue;
    }
    Step s;
    s.kind = rng.pick(kinds);
    s.level = static_cast<int>(rng.below(cs.levels.size()));
    detail::choose_types(s, rng);
    for (const auto& g : cs.levels[static_cast<std::size_t>(s.level)].groups) {
      s.calls.push_back(detail::make_call(s, static_cast<int>(g.size()), lim.budget, rng));
    }
    cs.steps.push_back(std::move(s));
  }
  // Batches of 1 to 12 steps; several outstanding requests on one group or on overlapping ones.
  for (int i = 0; i < lim.steps;) {
    Batch b;
    const int len = std::min(lim.steps - i, rng.chance(1, 3)   ? 1
                                            : rng.chance(1, 8) ? rng.range(7, 12)
                                                               : rng.range(2, 6));
    for (int k = 0; k < len; ++k) b.steps.push_back(i++);
    const std::size_t r = rng.below(len == 1 ? 4 : 3);
    b.finish = len == 1 && r == 3 ? Finish::blocking : static_cast<Finish>(r + 1);
    cs.batches.push_back(std::move(b));
  }
  return cs;
}

}  // namespace rnd
