// Test data and straightforward reference results for the collectives, shared by the simulator
// and the MPI tests. Values are integers so that every reference is exact; 2x2 matrix products
// (mod 2^64) are the associative, non-commutative operator that checks rank order.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace ref {

inline std::int64_t value(int member, std::size_t i, int salt = 0) {
  return (member + 1) * 1000003LL + static_cast<std::int64_t>(i) * 7919 + salt * 31;
}

inline std::vector<std::int64_t> data(int member, std::size_t n, int salt = 0) {
  std::vector<std::int64_t> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = value(member, i, salt);
  return v;
}

struct Mat {
  std::uint64_t a, b, c, d;
  friend bool operator==(const Mat&, const Mat&) = default;
};

inline Mat mat_mul(const Mat& x, const Mat& y) {
  return {x.a * y.a + x.b * y.c, x.a * y.b + x.b * y.d, x.c * y.a + x.d * y.c,
          x.c * y.b + x.d * y.d};
}

struct MatMul {
  Mat operator()(const Mat& x, const Mat& y) const { return mat_mul(x, y); }
};

inline Mat mat(int member, std::size_t i) {
  const auto m = static_cast<std::uint64_t>(member), k = static_cast<std::uint64_t>(i);
  return {1 + m, 2 + k, 3 * m + 1, 5 + m * k};
}

inline std::vector<Mat> mats(int member, std::size_t n) {
  std::vector<Mat> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = mat(member, i);
  return v;
}

// Sum over members [0, upto) of data(member, n).
inline std::vector<std::int64_t> sum(int upto, std::size_t n) {
  std::vector<std::int64_t> s(n, 0);
  for (int m = 0; m < upto; ++m) {
    for (std::size_t i = 0; i < n; ++i) s[i] += value(m, i);
  }
  return s;
}

// Ordered product over members [0, upto) of mats(member, n).
inline std::vector<Mat> product(int upto, std::size_t n) {
  std::vector<Mat> p = mats(0, n);
  for (int m = 1; m < upto; ++m) {
    for (std::size_t i = 0; i < n; ++i) p[i] = mat_mul(p[i], mat(m, i));
  }
  return p;
}

// Blocks of `count` values of members 0 .. size−1, concatenated (what concat delivers).
inline std::vector<std::int64_t> blocks(int size, std::size_t count, int salt = 0) {
  std::vector<std::int64_t> v;
  for (int m = 0; m < size; ++m) {
    auto d = data(m, count, salt);
    v.insert(v.end(), d.begin(), d.end());
  }
  return v;
}

// Per-member counts with zeros and uneven sizes (v-forms).
inline std::vector<std::size_t> uneven_counts(int size, int salt = 0) {
  std::vector<std::size_t> c(static_cast<std::size_t>(size));
  for (int i = 0; i < size; ++i)
    c[static_cast<std::size_t>(i)] = static_cast<std::size_t>((i * 7 + 3 + salt) % 5);
  return c;
}

inline std::vector<std::int64_t> uneven_blocks(const std::vector<std::size_t>& counts) {
  std::vector<std::int64_t> v;
  for (std::size_t m = 0; m < counts.size(); ++m) {
    auto d = data(static_cast<int>(m), counts[m], 5);
    v.insert(v.end(), d.begin(), d.end());
  }
  return v;
}

// index: the value member `from` sends as element k of its block for member `to`.
inline std::int64_t index_value(int from, int to, std::size_t k) {
  return value(from, static_cast<std::size_t>(to) * 1000003 + k, 9);
}

// What member `me` sends (index with blocks of `count`) and expects to receive.
inline std::vector<std::int64_t> index_send(int me, int size, std::size_t count) {
  std::vector<std::int64_t> v;
  for (int to = 0; to < size; ++to) {
    for (std::size_t k = 0; k < count; ++k) v.push_back(index_value(me, to, k));
  }
  return v;
}
inline std::vector<std::int64_t> index_expected(int me, int size, std::size_t count) {
  std::vector<std::int64_t> v;
  for (int from = 0; from < size; ++from) {
    for (std::size_t k = 0; k < count; ++k) v.push_back(index_value(from, me, k));
  }
  return v;
}

// indexv: member `from` sends indexv_count(from, to) elements to member `to`.
inline std::size_t indexv_count(int from, int to) {
  return static_cast<std::size_t>((from + 2 * to) % 4);
}
inline std::vector<std::size_t> indexv_send_counts(int me, int size) {
  std::vector<std::size_t> c;
  for (int to = 0; to < size; ++to) c.push_back(indexv_count(me, to));
  return c;
}
inline std::vector<std::size_t> indexv_recv_counts(int me, int size) {
  std::vector<std::size_t> c;
  for (int from = 0; from < size; ++from) c.push_back(indexv_count(from, me));
  return c;
}
inline std::vector<std::int64_t> indexv_send(int me, int size) {
  std::vector<std::int64_t> v;
  for (int to = 0; to < size; ++to) {
    for (std::size_t k = 0; k < indexv_count(me, to); ++k) v.push_back(index_value(me, to, k));
  }
  return v;
}
inline std::vector<std::int64_t> indexv_expected(int me, int size) {
  std::vector<std::int64_t> v;
  for (int from = 0; from < size; ++from) {
    for (std::size_t k = 0; k < indexv_count(from, me); ++k) v.push_back(index_value(from, me, k));
  }
  return v;
}

}  // namespace ref
