// Checks of every collective written once for any runner: the simulator runner plays all members
// of a group in one process, the MPI runner plays this rank's member. A runner provides
//   int size();                 the group size
//   void each(f);               f(r) for every member r it plays
//   void collective(f);         f(group_of_r, r) -> ccl::Request for every member it plays, then
//                               completes them all
// Buffers are indexed by member; a runner touches only the members it plays.
#pragma once

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <vector>

#include "ccl/ccl.hpp"
#include "reference.hpp"

namespace cases {

using I64 = std::int64_t;
template <class T>
using PerMember = std::vector<std::vector<T>>;

template <class Runner>
PerMember<I64> members(Runner& run) {
  return PerMember<I64>(static_cast<std::size_t>(run.size()));
}

template <class Runner>
void bcast(Runner& run, std::size_t n, int root) {
  auto buf = members(run);
  run.each([&](int r) { buf[r] = r == root ? ref::data(root, n) : std::vector<I64>(n, -1); });
  run.collective([&](const ccl::Group& g, int r) { return ccl::ibcast(g, buf[r], root); });
  run.each([&](int r) { EXPECT_EQ(buf[r], ref::data(root, n)) << "member " << r; });
}

template <class Runner>
void reduce_sum(Runner& run, std::size_t n, int root) {
  auto send = members(run), recv = members(run);
  run.each([&](int r) {
    send[r] = ref::data(r, n);
    recv[r].assign(r == root ? n : 0, -1);
  });
  run.collective([&](const ccl::Group& g, int r) {
    return ccl::ireduce(g, send[r], recv[r], ccl::sum, root);
  });
  run.each([&](int r) {
    if (r == root) {
      EXPECT_EQ(recv[r], ref::sum(run.size(), n));
    }
  });
}

template <class Runner>
void reduce_matrix(Runner& run, std::size_t n, int root) {
  PerMember<ref::Mat> send(static_cast<std::size_t>(run.size())), recv(send.size());
  run.each([&](int r) {
    send[r] = ref::mats(r, n);
    recv[r].assign(r == root ? n : 0, ref::Mat{});
  });
  run.collective([&](const ccl::Group& g, int r) {
    return ccl::ireduce(g, send[r], recv[r], ref::MatMul{}, root);
  });
  run.each([&](int r) {
    if (r == root) {
      EXPECT_TRUE(recv[r] == ref::product(run.size(), n)) << "rank order lost";
    }
  });
}

template <class Runner>
void combine_sum(Runner& run, std::size_t n) {
  auto send = members(run), recv = members(run);
  run.each([&](int r) {
    send[r] = ref::data(r, n);
    recv[r].assign(n, -1);
  });
  run.collective(
      [&](const ccl::Group& g, int r) { return ccl::icombine(g, send[r], recv[r], ccl::sum); });
  const auto expected = ref::sum(run.size(), n);
  run.each([&](int r) { EXPECT_EQ(recv[r], expected) << "member " << r; });
}

template <class Runner>
void combine_matrix(Runner& run, std::size_t n) {
  PerMember<ref::Mat> send(static_cast<std::size_t>(run.size())), recv(send.size());
  run.each([&](int r) {
    send[r] = ref::mats(r, n);
    recv[r].assign(n, ref::Mat{});
  });
  run.collective([&](const ccl::Group& g, int r) {
    return ccl::icombine(g, send[r], recv[r], ref::MatMul{});
  });
  const auto expected = ref::product(run.size(), n);
  run.each(
      [&](int r) { EXPECT_TRUE(recv[r] == expected) << "member " << r << ": rank order lost"; });
}

// Floating-point sums whose value depends on the order of additions: every member must still
// hold the same bits. Returns member results' bit patterns for the runner to compare further.
template <class Runner>
std::vector<std::uint64_t> combine_double_bits(Runner& run, std::size_t n) {
  PerMember<double> send(static_cast<std::size_t>(run.size())), recv(send.size());
  run.each([&](int r) {
    send[r].resize(n);
    for (std::size_t i = 0; i < n; ++i)
      send[r][i] = std::pow(10.0, (r * 7 + static_cast<int>(i)) % 17 - 8) / 3.0;
    recv[r].assign(n, 0.0);
  });
  run.collective(
      [&](const ccl::Group& g, int r) { return ccl::icombine(g, send[r], recv[r], ccl::sum); });
  // Every element's sum to 1e-12 (the members' order of additions may differ from this one).
  std::vector<double> expected(n, 0.0);
  for (int m = 0; m < run.size(); ++m) {
    for (std::size_t i = 0; i < n; ++i)
      expected[i] += std::pow(10.0, (m * 7 + static_cast<int>(i)) % 17 - 8) / 3.0;
  }
  std::vector<std::uint64_t> bits;
  run.each([&](int r) {
    std::size_t wrong = 0;
    for (std::size_t i = 0; i < n; ++i) {
      if (!(std::abs(recv[r][i] - expected[i]) <= 1e-12 * std::abs(expected[i])) && wrong++ == 0) {
        ADD_FAILURE() << "member " << r << ", element " << i << ": " << recv[r][i] << ", expected "
                      << expected[i];
      }
    }
    EXPECT_EQ(wrong, 0u) << "member " << r << ": elements off by more than 1e-12";
    if (bits.empty()) {
      for (double v : recv[r]) bits.push_back(std::bit_cast<std::uint64_t>(v));
    } else {
      for (std::size_t i = 0; i < n; ++i)
        EXPECT_EQ(std::bit_cast<std::uint64_t>(recv[r][i]), bits[i])
            << "member " << r << " differs";
    }
  });
  return bits;
}

template <class Runner>
void prefix_sum(Runner& run, std::size_t n) {
  auto send = members(run), recv = members(run);
  run.each([&](int r) {
    send[r] = ref::data(r, n);
    recv[r].assign(n, -1);
  });
  run.collective(
      [&](const ccl::Group& g, int r) { return ccl::iprefix(g, send[r], recv[r], ccl::sum); });
  run.each([&](int r) { EXPECT_EQ(recv[r], ref::sum(r + 1, n)) << "member " << r; });
}

template <class Runner>
void prefix_matrix(Runner& run, std::size_t n) {
  PerMember<ref::Mat> send(static_cast<std::size_t>(run.size())), recv(send.size());
  run.each([&](int r) {
    send[r] = ref::mats(r, n);
    recv[r].assign(n, ref::Mat{});
  });
  run.collective(
      [&](const ccl::Group& g, int r) { return ccl::iprefix(g, send[r], recv[r], ref::MatMul{}); });
  run.each([&](int r) { EXPECT_TRUE(recv[r] == ref::product(r + 1, n)) << "member " << r; });
}

template <class Runner>
void scatter(Runner& run, std::size_t count, int root) {
  auto send = members(run), recv = members(run);
  run.each([&](int r) {
    if (r == root) send[r] = ref::blocks(run.size(), count, 3);
    recv[r].assign(count, -1);
  });
  run.collective(
      [&](const ccl::Group& g, int r) { return ccl::iscatter(g, send[r], recv[r], root); });
  run.each([&](int r) { EXPECT_EQ(recv[r], ref::data(r, count, 3)) << "member " << r; });
}

template <class Runner>
void gather(Runner& run, std::size_t count, int root) {
  auto send = members(run), recv = members(run);
  run.each([&](int r) {
    send[r] = ref::data(r, count, 4);
    if (r == root) recv[r].assign(count * static_cast<std::size_t>(run.size()), -1);
  });
  run.collective(
      [&](const ccl::Group& g, int r) { return ccl::igather(g, send[r], recv[r], root); });
  run.each([&](int r) {
    if (r == root) {
      EXPECT_EQ(recv[r], ref::blocks(run.size(), count, 4));
    }
  });
}

template <class Runner>
void concat(Runner& run, std::size_t count) {
  auto send = members(run), recv = members(run);
  run.each([&](int r) {
    send[r] = ref::data(r, count, 4);
    recv[r].assign(count * static_cast<std::size_t>(run.size()), -1);
  });
  run.collective([&](const ccl::Group& g, int r) { return ccl::iconcat(g, send[r], recv[r]); });
  const auto expected = ref::blocks(run.size(), count, 4);
  run.each([&](int r) { EXPECT_EQ(recv[r], expected) << "member " << r; });
}

template <class Runner>
void index(Runner& run, std::size_t count) {
  auto send = members(run), recv = members(run);
  run.each([&](int r) {
    send[r] = ref::index_send(r, run.size(), count);
    recv[r].assign(send[r].size(), -1);
  });
  run.collective([&](const ccl::Group& g, int r) { return ccl::iindex(g, send[r], recv[r]); });
  run.each([&](int r) {
    EXPECT_EQ(recv[r], ref::index_expected(r, run.size(), count)) << "member " << r;
  });
}

template <class Runner>
void shift(Runner& run, std::size_t n, int distance) {
  auto send = members(run), recv = members(run);
  const int P = run.size();
  run.each([&](int r) {
    send[r] = ref::data(r, n, 6);
    recv[r].assign(n, -1);
  });
  run.collective(
      [&](const ccl::Group& g, int r) { return ccl::ishift(g, send[r], recv[r], distance); });
  run.each([&](int r) {
    const int from = ((r - distance) % P + P) % P;
    EXPECT_EQ(recv[r], ref::data(from, n, 6)) << "member " << r;
  });
}

template <class Runner>
void sync(Runner& run) {
  run.collective([&](const ccl::Group& g, int) { return ccl::isync(g); });
}

template <class Runner>
void concatv(Runner& run, int salt) {
  const auto counts = ref::uneven_counts(run.size(), salt);
  const auto expected = ref::uneven_blocks(counts);
  auto send = members(run), recv = members(run);
  run.each([&](int r) {
    send[r] = ref::data(r, counts[r], 5);
    recv[r].assign(expected.size(), -1);
  });
  run.collective(
      [&](const ccl::Group& g, int r) { return ccl::iconcatv(g, send[r], recv[r], counts); });
  run.each([&](int r) { EXPECT_EQ(recv[r], expected) << "member " << r; });
}

template <class Runner>
void gatherv(Runner& run, int root, int salt) {
  const auto counts = ref::uneven_counts(run.size(), salt);
  const auto expected = ref::uneven_blocks(counts);
  auto send = members(run), recv = members(run);
  run.each([&](int r) {
    send[r] = ref::data(r, counts[r], 5);
    if (r == root) recv[r].assign(expected.size(), -1);
  });
  run.collective(
      [&](const ccl::Group& g, int r) { return ccl::igatherv(g, send[r], recv[r], counts, root); });
  run.each([&](int r) {
    if (r == root) {
      EXPECT_EQ(recv[r], expected);
    }
  });
}

template <class Runner>
void scatterv(Runner& run, int root, int salt) {
  const auto counts = ref::uneven_counts(run.size(), salt);
  auto send = members(run), recv = members(run);
  run.each([&](int r) {
    if (r == root) send[r] = ref::uneven_blocks(counts);
    recv[r].assign(counts[r], -1);
  });
  run.collective([&](const ccl::Group& g, int r) {
    return ccl::iscatterv(g, send[r], recv[r], counts, root);
  });
  run.each([&](int r) { EXPECT_EQ(recv[r], ref::data(r, counts[r], 5)) << "member " << r; });
}

template <class Runner>
void indexv(Runner& run) {
  const int P = run.size();
  auto send = members(run), recv = members(run);
  run.each([&](int r) {
    send[r] = ref::indexv_send(r, P);
    recv[r].assign(ref::indexv_expected(r, P).size(), -1);
  });
  run.collective([&](const ccl::Group& g, int r) {
    return ccl::iindexv(g, send[r], ref::indexv_send_counts(r, P), recv[r],
                        ref::indexv_recv_counts(r, P));
  });
  run.each([&](int r) { EXPECT_EQ(recv[r], ref::indexv_expected(r, P)) << "member " << r; });
}

// ---- in place ----

template <class Runner>
void in_place(Runner& run, std::size_t n) {
  const int P = run.size();
  const std::size_t Pn = static_cast<std::size_t>(P);
  auto buf = members(run);
  // combine
  run.each([&](int r) { buf[r] = ref::data(r, n); });
  run.collective(
      [&](const ccl::Group& g, int r) { return ccl::icombine(g, buf[r], buf[r], ccl::sum); });
  run.each([&](int r) { EXPECT_EQ(buf[r], ref::sum(P, n)) << "combine in place, member " << r; });
  // prefix
  run.each([&](int r) { buf[r] = ref::data(r, n); });
  run.collective(
      [&](const ccl::Group& g, int r) { return ccl::iprefix(g, buf[r], buf[r], ccl::sum); });
  run.each(
      [&](int r) { EXPECT_EQ(buf[r], ref::sum(r + 1, n)) << "prefix in place, member " << r; });
  // reduce at the root (root P−1)
  run.each([&](int r) { buf[r] = ref::data(r, n); });
  run.collective([&](const ccl::Group& g, int r) {
    auto recv = r == P - 1 ? std::span<I64>(buf[r]) : std::span<I64>();
    return ccl::ireduce(g, buf[r], recv, ccl::sum, P - 1);
  });
  run.each([&](int r) {
    if (r == P - 1) {
      EXPECT_EQ(buf[r], ref::sum(P, n)) << "reduce in place";
    }
  });
  // shift
  run.each([&](int r) { buf[r] = ref::data(r, n, 6); });
  run.collective([&](const ccl::Group& g, int r) { return ccl::ishift(g, buf[r], buf[r], 1); });
  run.each([&](int r) { EXPECT_EQ(buf[r], ref::data((r - 1 + P) % P, n, 6)) << "shift in place"; });
  // index
  run.each([&](int r) { buf[r] = ref::index_send(r, P, n); });
  run.collective([&](const ccl::Group& g, int r) { return ccl::iindex(g, buf[r], buf[r]); });
  run.each([&](int r) { EXPECT_EQ(buf[r], ref::index_expected(r, P, n)) << "index in place"; });
  // concat: the send block is the member's own block of recv
  run.each([&](int r) {
    buf[r].assign(Pn * n, -1);
    auto own = ref::data(r, n, 4);
    std::copy(own.begin(), own.end(), buf[r].begin() + static_cast<std::ptrdiff_t>(r * n));
  });
  run.collective([&](const ccl::Group& g, int r) {
    return ccl::iconcat(g, std::span<const I64>(buf[r]).subspan(r * n, n), buf[r]);
  });
  run.each([&](int r) { EXPECT_EQ(buf[r], ref::blocks(P, n, 4)) << "concat in place"; });
  // gather at root 0 with the root's block already in place
  run.each([&](int r) {
    buf[r] = ref::data(r, n, 4);
    if (r == 0) buf[r].resize(Pn * n, -1);
  });
  run.collective([&](const ccl::Group& g, int r) {
    auto send = std::span<const I64>(buf[r]).subspan(0, n);
    auto recv = r == 0 ? std::span<I64>(buf[r]) : std::span<I64>();
    return ccl::igather(g, send, recv, 0);
  });
  run.each([&](int r) {
    if (r == 0) {
      EXPECT_EQ(buf[r], ref::blocks(P, n, 4)) << "gather in place";
    }
  });
  // scatter from root P−1 whose own block stays in place
  run.each([&](int r) { buf[r] = r == P - 1 ? ref::blocks(P, n, 3) : std::vector<I64>(n, -1); });
  run.collective([&](const ccl::Group& g, int r) {
    auto recv =
        r == P - 1 ? std::span<I64>(buf[r]).subspan((Pn - 1) * n, n) : std::span<I64>(buf[r]);
    auto send = r == P - 1 ? std::span<const I64>(buf[r]) : std::span<const I64>();
    return ccl::iscatter(g, send, recv, P - 1);
  });
  run.each([&](int r) {
    auto got = r == P - 1
                   ? std::vector<I64>(buf[r].begin() + static_cast<std::ptrdiff_t>((Pn - 1) * n),
                                      buf[r].end())
                   : buf[r];
    EXPECT_EQ(got, ref::data(r, n, 3)) << "scatter in place, member " << r;
  });
}

// ---- built-in operators ----

template <class Runner>
void builtin_ops(Runner& run) {
  const int P = run.size();
  PerMember<I64> send(static_cast<std::size_t>(P)), recv(send.size());
  using Row = std::vector<I64> (*)(int);
  Row row = [](int r) { return std::vector<I64>{r + 2, (r % 3) == 0 ? 1 : 0, r % 2, 6 + r}; };
  // prod gets factors whose products fit in int64 at any P ((P + 1)! overflows from P = 20).
  Row prod_row = [](int r) {
    return std::vector<I64>{(r % 3) == 0 ? -1 : 1, r < 60 && r % 2 ? 2 : 1, r % 2,
                            r < 140 && r % 7 == 3 ? 3 : 1};
  };
  auto fold = [&](auto f, std::size_t i, Row data) {
    I64 acc = data(0)[i];
    for (int r = 1; r < P; ++r) acc = f(acc, data(r)[i]);
    return acc;
  };
  auto go = [&](auto op, auto f, Row data) {
    const std::vector<I64> expect{fold(f, 0, data), fold(f, 1, data), fold(f, 2, data),
                                  fold(f, 3, data)};
    run.each([&](int r) {
      send[r] = data(r);
      recv[r].assign(4, -7);
    });
    run.collective(
        [&](const ccl::Group& g, int r) { return ccl::icombine(g, send[r], recv[r], op); });
    run.each([&](int r) { EXPECT_EQ(recv[r], expect) << "op " << ccl::make_kernel<I64>(op).name; });
  };
  go(ccl::sum, std::plus<>{}, row);
  go(ccl::prod, std::multiplies<>{}, prod_row);
  go(
      ccl::min, [](I64 a, I64 b) { return std::min(a, b); }, row);
  go(
      ccl::max, [](I64 a, I64 b) { return std::max(a, b); }, row);
  go(
      ccl::land, [](I64 a, I64 b) { return static_cast<I64>(a && b); }, row);
  go(
      ccl::lor, [](I64 a, I64 b) { return static_cast<I64>(a || b); }, row);
  go(
      ccl::band, [](I64 a, I64 b) { return a & b; }, row);
  go(
      ccl::bor, [](I64 a, I64 b) { return a | b; }, row);

  // minloc / maxloc: values with ties, ties resolved to the smaller index.
  using VI = ccl::ValueIndex<double>;
  PerMember<VI> vs(static_cast<std::size_t>(P)), vr(vs.size());
  run.each([&](int r) {
    vs[r] = {VI{static_cast<double>((r * 5) % 7), r}, VI{static_cast<double>(r % 3), r}};
    vr[r].assign(2, VI{-1, -1});
  });
  run.collective(
      [&](const ccl::Group& g, int r) { return ccl::icombine(g, vs[r], vr[r], ccl::minloc); });
  VI lo{1e9, -1}, hi{-1e9, -1};
  for (int r = 0; r < P; ++r) {
    double v = static_cast<double>((r * 5) % 7);
    if (v < lo.value) lo = {v, r};
  }
  for (int r = 0; r < P; ++r) {
    double v = static_cast<double>(r % 3);
    if (v > hi.value) hi = {v, r};
  }
  run.each([&](int r) { EXPECT_TRUE(vr[r][0] == lo) << "minloc"; });
  run.collective(
      [&](const ccl::Group& g, int r) { return ccl::icombine(g, vs[r], vr[r], ccl::maxloc); });
  run.each([&](int r) { EXPECT_TRUE(vr[r][1] == hi) << "maxloc"; });
}

// Every collective at the lengths that matter: 0, 1, below and above the group size, for several
// roots. `block_counts` are the block lengths for the block-wise collectives.
template <class Runner>
void all(Runner& run, const std::vector<std::size_t>& vector_lengths,
         const std::vector<std::size_t>& block_counts) {
  const int P = run.size();
  const std::vector<int> roots = P == 1 ? std::vector<int>{0} : std::vector<int>{0, P - 1, P / 2};
  for (std::size_t n : vector_lengths) {
    for (int root : roots) {
      bcast(run, n, root);
      reduce_sum(run, n, root);
      reduce_matrix(run, n, root);
    }
    combine_sum(run, n);
    combine_matrix(run, n);
    combine_double_bits(run, n);
    prefix_sum(run, n);
    prefix_matrix(run, n);
    for (int d : {1, -1, 0, P + 2}) shift(run, n, d);
  }
  for (std::size_t c : block_counts) {
    for (int root : roots) {
      scatter(run, c, root);
      gather(run, c, root);
    }
    concat(run, c);
    index(run, c);
    in_place(run, c);
  }
  for (int salt : {0, 2}) {
    concatv(run, salt);
    for (int root : roots) {
      gatherv(run, root, salt);
      scatterv(run, root, salt);
    }
  }
  indexv(run);
  sync(run);
  builtin_ops(run);
}

}  // namespace cases
