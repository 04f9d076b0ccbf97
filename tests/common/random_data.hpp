// Data of the randomised collective cases: the value any member contributes as a function of
// (seed, step, world rank, key), the junk that fills buffers before a call, the user reduce
// operators, a reference version of every operator written without ccl's, and printing.
#pragma once

#include <cstdint>
#include <sstream>
#include <string>
#include <type_traits>

#include "ccl/reduce_op.hpp"
#include "random_case.hpp"
#include "reference.hpp"

namespace rnd {

using I64 = std::int64_t;
using Mat = ref::Mat;
using VI = ccl::ValueIndex<int>;
// Three bytes, no padding: blocks start at odd addresses and segment edges fall mid-word.
struct Tri {
  std::uint8_t b[3];
  friend bool operator==(const Tri&, const Tri&) = default;
};
static_assert(sizeof(Tri) == 3);

// User operators. FirstNonzero is associative but not commutative (the first non-zero operand in
// rank order wins); Xor and TriAdd are passed through ccl::commutative.
struct FirstNonzero {
  I64 operator()(const I64& a, const I64& b) const { return a != 0 ? a : b; }
};
struct Xor {
  I64 operator()(const I64& a, const I64& b) const { return a ^ b; }
};
struct TriAdd {
  Tri operator()(const Tri& a, const Tri& b) const {
    return {{static_cast<std::uint8_t>(a.b[0] + b.b[0]), static_cast<std::uint8_t>(a.b[1] + b.b[1]),
             static_cast<std::uint8_t>(a.b[2] + b.b[2])}};
  }
};

// Calls f with the ccl operator object for `op` on elements of T.
template <class T, class F>
void with_op(Op op, F&& f) {
  if constexpr (std::is_same_v<T, I64>) {
    switch (op) {
      case Op::sum:
        return f(ccl::sum);
      case Op::prod:
        return f(ccl::prod);
      case Op::min:
        return f(ccl::min);
      case Op::max:
        return f(ccl::max);
      case Op::land:
        return f(ccl::land);
      case Op::lor:
        return f(ccl::lor);
      case Op::band:
        return f(ccl::band);
      case Op::bor:
        return f(ccl::bor);
      case Op::first_nonzero:
        return f(FirstNonzero{});
      default:
        return f(ccl::commutative(Xor{}));
    }
  } else if constexpr (std::is_same_v<T, Mat>) {
    f(ref::MatMul{});
  } else if constexpr (std::is_same_v<T, VI>) {
    if (op == Op::minloc) return f(ccl::minloc);
    f(ccl::maxloc);
  } else {
    f(ccl::commutative(TriAdd{}));
  }
}

// a op b, spelled out independently of ccl's operators.
inline I64 apply(Op op, I64 a, I64 b) {
  switch (op) {
    case Op::sum:
      return a + b;
    case Op::prod:
      return a * b;
    case Op::min:
      return a < b ? a : b;
    case Op::max:
      return a > b ? a : b;
    case Op::land:
      return (a != 0 && b != 0) ? 1 : 0;
    case Op::lor:
      return (a != 0 || b != 0) ? 1 : 0;
    case Op::band:
      return a & b;
    case Op::bor:
      return a | b;
    case Op::first_nonzero:
      return a != 0 ? a : b;
    default:
      return a ^ b;
  }
}
inline Mat apply(Op, const Mat& a, const Mat& b) {
  return ref::mat_mul(a, b);
}
inline VI apply(Op op, const VI& a, const VI& b) {
  // minloc: the least value, the least index among equals; maxloc: the greatest value, likewise.
  const bool a_first = op == Op::minloc
                           ? (a.value < b.value || (a.value == b.value && a.index <= b.index))
                           : (a.value > b.value || (a.value == b.value && a.index <= b.index));
  return a_first ? a : b;
}
inline Tri apply(Op, const Tri& a, const Tri& b) {
  Tri t;
  for (int i = 0; i < 3; ++i) t.b[i] = static_cast<std::uint8_t>((a.b[i] + b.b[i]) & 0xFF);
  return t;
}

// What world rank `w` contributes at `key` in step `step` of case `seed`. I64 flavours:
// 0 any 64 bits, 1 |v| < 2^39, 2 in [-3, 3], 3 mostly zero, 4 bits mostly set, 5 bits mostly
// clear, 6 ±1 with rare 0 and (on world ranks below 40 only) 2, so products stay below 2^40.
template <class T>
T value(std::uint64_t seed, int step, int w, std::uint64_t key, int flavour) {
  const std::uint64_t h =
      hash({seed, static_cast<std::uint64_t>(step), static_cast<std::uint64_t>(w), key});
  const std::uint64_t h2 = mix(h), h3 = mix(h2);
  if constexpr (std::is_same_v<T, I64>) {
    const I64 bounded = static_cast<I64>(h >> 25) - (I64{1} << 38);
    switch (flavour) {
      case 1:
        return bounded;
      case 2:
        return static_cast<I64>(h % 7) - 3;
      case 3:
        return (h2 & 7) == 0 ? bounded : 0;
      case 4:
        return static_cast<I64>(h | h2 | h3);
      case 5:
        return static_cast<I64>(h & h2 & h3);
      case 6:
        if (w < 40 && h2 % 16 == 0) return 2;
        if (h2 % 97 == 1) return 0;
        return (h & 1) != 0 ? 1 : -1;
      default:
        return static_cast<I64>(h);
    }
  } else if constexpr (std::is_same_v<T, Mat>) {
    // Odd determinant: every product stays invertible mod 2^64, so no long product decays to 0.
    return Mat{h | 1, h2 & ~std::uint64_t{1}, h3, mix(h3) | 1};
  } else if constexpr (std::is_same_v<T, VI>) {
    return VI{static_cast<int>(h % 8), static_cast<int>((h >> 8) % 6)};  // ties on purpose
  } else {
    return Tri{{static_cast<std::uint8_t>(h), static_cast<std::uint8_t>(h >> 8),
                static_cast<std::uint8_t>(h >> 16)}};
  }
}

// What a buffer holds before the call where nothing may be read or was not yet written: a value
// no member contributes (except by chance for I64 and Tri).
template <class T>
T junk(std::uint64_t seed, int step, int w, std::uint64_t where) {
  const std::uint64_t h =
      hash({seed, static_cast<std::uint64_t>(step), static_cast<std::uint64_t>(w), where, 0x7A4C});
  if constexpr (std::is_same_v<T, I64>) {
    return static_cast<I64>(h);
  } else if constexpr (std::is_same_v<T, Mat>) {
    return Mat{h & ~std::uint64_t{1}, h, h, h};  // even: no contributed matrix has that
  } else if constexpr (std::is_same_v<T, VI>) {
    return VI{-1000 - static_cast<int>(h % 1000), -1};
  } else {
    return value<T>(seed ^ 0x7A4C, step, w, where, 0);
  }
}

inline std::string show(I64 v) {
  return std::to_string(v);
}
inline std::string show(const Mat& m) {
  std::ostringstream s;
  s << "[" << m.a << " " << m.b << "; " << m.c << " " << m.d << "]";
  return s.str();
}
inline std::string show(const VI& v) {
  std::ostringstream s;
  s << "(" << v.value << ", " << v.index << ")";
  return s.str();
}
inline std::string show(const Tri& t) {
  std::ostringstream s;
  s << "<" << int{t.b[0]} << " " << int{t.b[1]} << " " << int{t.b[2]} << ">";
  return s.str();
}

}  // namespace rnd
