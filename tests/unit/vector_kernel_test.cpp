// The library's vectorised kernels for sum, prod, min and max give bitwise the results of the
// operator applied element by element, in the operand order given, whatever the length (vector
// bodies and tails) and however the output aliases the operands; make_kernel uses them.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "ccl/reduce_op.hpp"

namespace {

template <class T>
std::vector<T> values(std::size_t n, unsigned seed) {
  std::mt19937_64 gen(seed);
  std::vector<T> v(n);
  for (std::size_t i = 0; i < n; ++i) {
    if constexpr (std::is_floating_point_v<T>) {
      v[i] = static_cast<T>(std::uniform_real_distribution<double>(-1e3, 1e3)(gen));
      // Values where min and max depend on the operand order: NaN and zeros of both signs.
      if (i % 7 == 3) v[i] = std::numeric_limits<T>::quiet_NaN();
      if (i % 11 == 5) v[i] = seed % 2 ? T(-0.0) : T(0.0);
    } else if constexpr (std::is_signed_v<T>) {
      v[i] = static_cast<T>(std::uniform_int_distribution<int>(-30000, 30000)(gen));  // no overflow
    } else {
      v[i] = static_cast<T>(gen());  // unsigned arithmetic wraps
    }
  }
  return v;
}

template <class T>
bool same_bits(const std::vector<T>& a, const std::vector<T>& b) {
  if (a.size() != b.size()) return false;
  return a.empty() ||
         std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;  // data() may be null
}

enum class Alias { apart, into_left, into_right, same_operands };

template <class Op, class T>
void check(Op op) {
  const ccl::ReduceKernel k = ccl::make_kernel<T>(op);
  const ccl::ReduceKernel::Fn vector = &ccl::detail::vector_kernel<Op, T>;
  ASSERT_EQ(k.fn, vector) << "make_kernel did not take the vector kernel";
  for (std::size_t n : {0, 1, 3, 8, 15, 16, 17, 63, 1000, 4099}) {
    for (Alias alias : {Alias::apart, Alias::into_left, Alias::into_right, Alias::same_operands}) {
      std::vector<T> left = values<T>(n, 1), right = values<T>(n, 2);
      if (alias == Alias::same_operands) right = left;
      std::vector<T> expected(n);
      for (std::size_t i = 0; i < n; ++i) expected[i] = op(left[i], right[i]);  // a copy's bits
      std::vector<T> out(n, T(7));
      auto* l = reinterpret_cast<const std::byte*>(left.data());
      auto* r = reinterpret_cast<const std::byte*>(alias == Alias::same_operands ? left.data()
                                                                                 : right.data());
      switch (alias) {
        case Alias::apart:
        case Alias::same_operands:
          k.apply(l, r, reinterpret_cast<std::byte*>(out.data()), n);
          break;
        case Alias::into_left:
          k.apply(l, r, reinterpret_cast<std::byte*>(left.data()), n);
          out = left;
          break;
        case Alias::into_right:
          k.apply(l, r, reinterpret_cast<std::byte*>(right.data()), n);
          out = right;
          break;
      }
      EXPECT_TRUE(same_bits(out, expected))
          << Op::name << " on " << sizeof(T) << "-byte elements, n = " << n << ", alias "
          << static_cast<int>(alias);
    }
  }
}

template <class T>
void check_all() {
  check<ccl::ops::Sum, T>(ccl::sum);
  check<ccl::ops::Prod, T>(ccl::prod);
  check<ccl::ops::Min, T>(ccl::min);
  check<ccl::ops::Max, T>(ccl::max);
}

TEST(VectorKernels, Double) {
  check_all<double>();
}
TEST(VectorKernels, Float) {
  check_all<float>();
}
TEST(VectorKernels, Int32) {
  check_all<std::int32_t>();
}
TEST(VectorKernels, Int64) {
  check_all<std::int64_t>();
}
TEST(VectorKernels, UInt32) {
  check_all<std::uint32_t>();
}
TEST(VectorKernels, UInt64) {
  check_all<std::uint64_t>();
}

TEST(VectorKernels, OtherOperatorsKeepTheGenericLoop) {
  const ccl::ReduceKernel k = ccl::make_kernel<double>([](double a, double b) { return a - b; });
  std::vector<double> a{5, 7}, b{1, 2}, out(2);
  k.apply(reinterpret_cast<const std::byte*>(a.data()),
          reinterpret_cast<const std::byte*>(b.data()), reinterpret_cast<std::byte*>(out.data()),
          2);
  EXPECT_EQ(out, (std::vector<double>{4, 5}));
  EXPECT_FALSE((ccl::detail::has_vector_kernel<ccl::ops::Sum, short>));
  EXPECT_FALSE((ccl::detail::has_vector_kernel<ccl::ops::LogicalAnd, double>));
}

}  // namespace
