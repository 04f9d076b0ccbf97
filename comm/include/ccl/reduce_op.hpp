// Reduction operators. Built-in ones (sum, prod, min, max, land, lor, band, bor, minloc, maxloc)
// are commutative; any other callable T(const T&, const T&) is taken as associative but not
// commutative, so the library keeps rank order: the result is x0 op x1 op ... op x(n-1).
// Wrap a callable in ccl::commutative(f) to let algorithms reorder operands.
//
// A ReduceKernel is the type-erased form the executor runs on byte slices.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <typeinfo>

namespace ccl {

// Value and index pair for minloc / maxloc (ties pick the smaller index, as MPI does).
template <class T>
struct ValueIndex {
  T value;
  int index;
  friend bool operator==(const ValueIndex&, const ValueIndex&) = default;
};

namespace ops {

struct Sum {
  static constexpr std::string_view name = "sum";
  template <class T>
  T operator()(const T& a, const T& b) const {
    return a + b;
  }
};
struct Prod {
  static constexpr std::string_view name = "prod";
  template <class T>
  T operator()(const T& a, const T& b) const {
    return a * b;
  }
};
struct Min {
  static constexpr std::string_view name = "min";
  template <class T>
  T operator()(const T& a, const T& b) const {
    return b < a ? b : a;
  }
};
struct Max {
  static constexpr std::string_view name = "max";
  template <class T>
  T operator()(const T& a, const T& b) const {
    return a < b ? b : a;
  }
};
struct LogicalAnd {
  static constexpr std::string_view name = "land";
  template <class T>
  T operator()(const T& a, const T& b) const {
    return static_cast<T>(a && b);
  }
};
struct LogicalOr {
  static constexpr std::string_view name = "lor";
  template <class T>
  T operator()(const T& a, const T& b) const {
    return static_cast<T>(a || b);
  }
};
struct BitAnd {
  static constexpr std::string_view name = "band";
  template <class T>
  requires std::is_integral_v<T> T operator()(const T& a, const T& b) const { return a & b; }
};
struct BitOr {
  static constexpr std::string_view name = "bor";
  template <class T>
  requires std::is_integral_v<T> T operator()(const T& a, const T& b) const { return a | b; }
};
struct MinLoc {
  static constexpr std::string_view name = "minloc";
  template <class T>
  ValueIndex<T> operator()(const ValueIndex<T>& a, const ValueIndex<T>& b) const {
    if (b.value < a.value || (!(a.value < b.value) && b.index < a.index)) return b;
    return a;
  }
};
struct MaxLoc {
  static constexpr std::string_view name = "maxloc";
  template <class T>
  ValueIndex<T> operator()(const ValueIndex<T>& a, const ValueIndex<T>& b) const {
    if (a.value < b.value || (!(b.value < a.value) && b.index < a.index)) return b;
    return a;
  }
};

// A user callable declared commutative.
template <class F>
struct Commutative {
  F f;
  template <class T>
  T operator()(const T& a, const T& b) const {
    return f(a, b);
  }
};

}  // namespace ops

inline constexpr ops::Sum sum{};
inline constexpr ops::Prod prod{};
inline constexpr ops::Min min{};
inline constexpr ops::Max max{};
inline constexpr ops::LogicalAnd land{};
inline constexpr ops::LogicalOr lor{};
inline constexpr ops::BitAnd band{};
inline constexpr ops::BitOr bor{};
inline constexpr ops::MinLoc minloc{};
inline constexpr ops::MaxLoc maxloc{};

template <class F>
ops::Commutative<std::decay_t<F>> commutative(F&& f) {
  return {std::forward<F>(f)};
}

namespace detail {
template <class Op>
concept BuiltinOp = requires {
  Op::name;
};
template <class Op>
struct IsCommutativeWrapper : std::false_type {};
template <class F>
struct IsCommutativeWrapper<ops::Commutative<F>> : std::true_type {};

std::uint64_t fingerprint(std::string_view text);
}  // namespace detail

// out[i] = left[i] op right[i] for n elements; out may alias left or right.
struct ReduceKernel {
  using Fn = void (*)(const void* op, const std::byte* left, const std::byte* right, std::byte* out,
                      std::size_t n);
  Fn fn = nullptr;
  std::shared_ptr<const void> op;  // a stateful callable, kept alive while a request is in flight
  std::uint64_t id = 0;            // same on every process for the same operator
  std::string_view name;
  bool commutative = true;

  explicit operator bool() const { return fn != nullptr; }
  void apply(const std::byte* left, const std::byte* right, std::byte* out, std::size_t n) const {
    fn(op.get(), left, right, out, n);
  }
};

namespace detail {
// Sum, prod, min and max on these element types are also compiled into the library for the
// widest vectors the CPU has (vector_kernels.cpp), with the same results as the loop below.
template <class Op, class T>
inline constexpr bool has_vector_kernel =
    (std::is_same_v<Op, ops::Sum> || std::is_same_v<Op, ops::Prod> ||
     std::is_same_v<Op, ops::Min> ||
     std::is_same_v<Op, ops::Max>)&&(std::is_same_v<T, float> || std::is_same_v<T, double> ||
                                     std::is_same_v<T, std::int32_t> ||
                                     std::is_same_v<T, std::int64_t> ||
                                     std::is_same_v<T, std::uint32_t> ||
                                     std::is_same_v<T, std::uint64_t>);
template <class Op, class T>
void vector_kernel(const void* op, const std::byte* left, const std::byte* right, std::byte* out,
                   std::size_t n);

// Identity of an operator on elements of T: its type name and the element type, equal in every
// process of one program, different for different lambdas or element types. Computed once.
template <class T, class Op>
std::uint64_t operator_id() {
  static const std::uint64_t id =
      fingerprint(std::string(typeid(Op).name()) + "/" + typeid(T).name());
  return id;
}
}  // namespace detail

template <class T, class Op>
ReduceKernel make_kernel(Op op) {
  static_assert(std::is_trivially_copyable_v<T>, "reduction element must be trivially copyable");
  static_assert(std::is_invocable_r_v<T, const Op&, const T&, const T&>,
                "reduction operator must be callable as T(const T&, const T&)");
  // Stateless operators (built-ins, lambdas without captures) need no stored object.
  constexpr bool stateless = std::is_empty_v<Op> && std::is_default_constructible_v<Op>;
  ReduceKernel k;
  if constexpr (!stateless) k.op = std::make_shared<const Op>(std::move(op));
  if constexpr (detail::has_vector_kernel<Op, T>) {
    k.fn = &detail::vector_kernel<Op, T>;
  } else {
    k.fn = [](const void* f, const std::byte* l, const std::byte* r, std::byte* o, std::size_t n) {
      const T* a = reinterpret_cast<const T*>(l);
      const T* b = reinterpret_cast<const T*>(r);
      T* out = reinterpret_cast<T*>(o);
      if constexpr (stateless) {
        (void)f;
        const Op fop{};
        for (std::size_t i = 0; i < n; ++i) out[i] = fop(a[i], b[i]);
      } else {
        const Op& fop = *static_cast<const Op*>(f);
        for (std::size_t i = 0; i < n; ++i) out[i] = fop(a[i], b[i]);
      }
    };
  }
  if constexpr (detail::BuiltinOp<Op>) {
    k.name = Op::name;
    k.commutative = true;
  } else {
    k.commutative = detail::IsCommutativeWrapper<Op>::value;
    k.name = k.commutative ? "user (commutative)" : "user";
  }
  k.id = detail::operator_id<T, Op>();
  return k;
}

}  // namespace ccl
