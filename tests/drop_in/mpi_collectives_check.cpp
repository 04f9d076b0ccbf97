// A plain MPI program (no ccl in it) that calls every collective the drop-in intercepts and
// checks every result against values computed locally: blocking and nonblocking forms, roots,
// MPI_IN_PLACE, counts 0 and below the group size, datatypes with and without gaps, predefined
// and user operators (a non-commutative one among them), sub-communicators, nonblocking
// collectives beside point-to-point requests in MPI_Waitall / Waitany / Testsome, collectives
// started on two communicators in different orders, and communicators freed. Run it with and
// without LD_PRELOAD=libccl_mpi.so: it must pass both ways.
//   mpi_collectives_check [ROUNDS | mismatch | bad-root]
// "mismatch" and "bad-root" make erroneous broadcasts (counts differing by rank; an invalid
// root on rank 1), which must end the job with an error.
#include <mpi.h>

#include <complex>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <string>
#include <vector>

namespace {

int world_rank = 0;
long checks = 0;

void expect(bool ok, const std::string& what) {
  ++checks;
  if (ok) return;
  std::fprintf(stderr, "mpi_collectives_check: rank %d: FAILED: %s\n", world_rank, what.c_str());
  MPI_Abort(MPI_COMM_WORLD, 1);
}

// Deterministic data: element i of rank r's contribution in test t.
long long value(int t, int r, int i) {
  return (t * 7919LL + r * 104729LL + i * 31LL) % 1000 - 500;
}

// 2x2 integer matrices with wrapping products: associative, not commutative.
struct Mat {
  std::uint32_t a, b, c, d;
  bool operator==(const Mat&) const = default;
};
Mat mul(const Mat& x, const Mat& y) {
  return {x.a * y.a + x.b * y.c, x.a * y.b + x.b * y.d, x.c * y.a + x.d * y.c,
          x.c * y.b + x.d * y.d};
}
Mat mat_of(int t, int r, int i) {
  const auto v = static_cast<std::uint32_t>(value(t, r, i) + 1000);
  return {v, v + 1, 2 * v + 3, 1};
}
void mat_op(void* in, void* inout, int* len, MPI_Datatype*) {
  auto* x = static_cast<Mat*>(in);
  auto* y = static_cast<Mat*>(inout);
  for (int i = 0; i < *len; ++i) y[i] = mul(x[i], y[i]);
}
// A commutative user operator of another kind: a plain sum.
void plain_sum(void* in, void* inout, int* len, MPI_Datatype*) {
  auto* x = static_cast<long long*>(in);
  auto* y = static_cast<long long*>(inout);
  for (int i = 0; i < *len; ++i) y[i] += x[i];
}
// A commutative user operator for any datatype made of ints: sums the ints each element holds,
// where its type map puts them (dense, or the first int of each element and a gap after it).
void int_sum_by_type(void* in, void* inout, int* len, MPI_Datatype* type) {
  MPI_Aint lb = 0, extent = 0;
  int size = 0;
  MPI_Type_get_extent(*type, &lb, &extent);
  MPI_Type_size(*type, &size);
  const auto stride = static_cast<int>(extent / static_cast<MPI_Aint>(sizeof(int)));
  const int ints = size / static_cast<int>(sizeof(int));
  auto* x = static_cast<int*>(in);
  auto* y = static_cast<int*>(inout);
  for (int e = 0; e < *len; ++e)
    for (int k = 0; k < ints; ++k) y[e * stride + k] += x[e * stride + k];
}
// A commutative user operator: sum of absolute values.
void abs_sum(void* in, void* inout, int* len, MPI_Datatype*) {
  auto* x = static_cast<long long*>(in);
  auto* y = static_cast<long long*>(inout);
  for (int i = 0; i < *len; ++i) y[i] = std::llabs(x[i]) + std::llabs(y[i]);
}

struct Ctx {
  MPI_Comm comm;
  int rank, size;
  MPI_Datatype mat;    // contiguous(4, uint32)
  MPI_Op mat_op;       // non-commutative
  MPI_Op abs_op;       // commutative
  MPI_Datatype gappy;  // vector: every other int (gaps)
};

void check_bcast(const Ctx& x, int t) {
  for (int root = 0; root < x.size; ++root) {
    for (int n : {0, 1, x.size - 1 > 0 ? x.size - 1 : 1, 1000}) {
      std::vector<long long> buf(static_cast<std::size_t>(n), -1);
      if (x.rank == root)
        for (int i = 0; i < n; ++i) buf[i] = value(t, root, i);
      MPI_Bcast(buf.data(), n, MPI_LONG_LONG, root, x.comm);
      for (int i = 0; i < n; ++i)
        expect(buf[i] == value(t, root, i), "bcast n=" + std::to_string(n));
    }
    // The root sends every other int of a strided buffer; the others receive them packed.
    const int n = 13;
    std::vector<int> buf(static_cast<std::size_t>(2 * n), -7);
    if (x.rank == root) {
      for (int i = 0; i < n; ++i) buf[2 * i] = static_cast<int>(value(t, root, i));
      MPI_Bcast(buf.data(), n, x.gappy, root, x.comm);
      for (int i = 0; i < n; ++i) expect(buf[2 * i + 1] == -7, "bcast gappy untouched");
    } else {
      MPI_Bcast(buf.data(), n, MPI_INT, root, x.comm);
      for (int i = 0; i < n; ++i) expect(buf[i] == value(t, root, i), "bcast gappy");
    }
  }
}

void check_reductions(const Ctx& x, int t) {
  const int n = 37;
  std::vector<long long> mine(n), sum(n, 0), out(n);
  for (int i = 0; i < n; ++i) {
    mine[i] = value(t, x.rank, i);
    for (int r = 0; r < x.size; ++r) sum[i] += value(t, r, i);
  }
  for (int root = 0; root < x.size; ++root) {
    MPI_Reduce(mine.data(), out.data(), n, MPI_LONG_LONG, MPI_SUM, root, x.comm);
    if (x.rank == root) expect(out == sum, "reduce sum");
    std::vector<long long> inplace = mine;
    MPI_Reduce(x.rank == root ? MPI_IN_PLACE : inplace.data(), inplace.data(), n, MPI_LONG_LONG,
               MPI_SUM, root, x.comm);
    if (x.rank == root) expect(inplace == sum, "reduce in place");
  }
  MPI_Allreduce(mine.data(), out.data(), n, MPI_LONG_LONG, MPI_SUM, x.comm);
  expect(out == sum, "allreduce sum");
  out = mine;
  MPI_Allreduce(MPI_IN_PLACE, out.data(), n, MPI_LONG_LONG, MPI_SUM, x.comm);
  expect(out == sum, "allreduce in place");
  // max over int, bxor, lxor, minloc and maxloc pairs, complex sums, a commutative user op.
  int imax = 0, mx = static_cast<int>(value(t, x.rank, 0));
  MPI_Allreduce(&mx, &imax, 1, MPI_INT, MPI_MAX, x.comm);
  int want = -1000, xr = 0, lx = 0;
  for (int r = 0; r < x.size; ++r) {
    want = std::max(want, static_cast<int>(value(t, r, 0)));
    xr ^= static_cast<int>(value(t, r, 1));
    lx ^= value(t, r, 2) > 0 ? 1 : 0;
  }
  expect(imax == want, "allreduce max");
  int bx = static_cast<int>(value(t, x.rank, 1)), bx_out = 0;
  MPI_Allreduce(&bx, &bx_out, 1, MPI_INT, MPI_BXOR, x.comm);
  expect(bx_out == xr, "allreduce bxor");
  int l = value(t, x.rank, 2) > 0 ? 1 : 0, l_out = 0;  // one member: no operator applied
  MPI_Allreduce(&l, &l_out, 1, MPI_INT, MPI_LXOR, x.comm);
  expect(l_out == lx, "allreduce lxor");
  struct {
    double v;
    int i;
  } loc{static_cast<double>(value(t, x.rank, 3) % 7), x.rank}, loc_out{}, loc_max{};
  MPI_Allreduce(&loc, &loc_out, 1, MPI_DOUBLE_INT, MPI_MINLOC, x.comm);
  MPI_Allreduce(&loc, &loc_max, 1, MPI_DOUBLE_INT, MPI_MAXLOC, x.comm);
  double best = 1e9, worst = -1e9;
  int best_at = -1, worst_at = -1;
  for (int r = 0; r < x.size; ++r) {
    const double v = static_cast<double>(value(t, r, 3) % 7);
    if (v < best) best = v, best_at = r;
    if (v > worst) worst = v, worst_at = r;
  }
  expect(loc_out.v == best && loc_out.i == best_at, "minloc");
  expect(loc_max.v == worst && loc_max.i == worst_at, "maxloc");
  std::complex<double> z(static_cast<double>(value(t, x.rank, 4)), 1.0), z_out;
  MPI_Allreduce(&z, &z_out, 1, MPI_C_DOUBLE_COMPLEX, MPI_SUM, x.comm);
  double re = 0;
  for (int r = 0; r < x.size; ++r) re += static_cast<double>(value(t, r, 4));
  expect(z_out == std::complex<double>(re, x.size), "complex sum");
  std::vector<long long> abs_want(n, 0);
  for (int i = 0; i < n; ++i)
    for (int r = 0; r < x.size; ++r) abs_want[i] += std::llabs(value(t, r, i));
  if (x.size > 1) {  // with one member the operator is never applied
    MPI_Allreduce(mine.data(), out.data(), n, MPI_LONG_LONG, x.abs_op, x.comm);
    expect(out == abs_want, "allreduce commutative user op");
  }
  // The non-commutative operator: rank order everywhere.
  const int m = 5;
  std::vector<Mat> mats(m), prod(m), got(m);
  for (int i = 0; i < m; ++i) {
    mats[i] = mat_of(t, x.rank, i);
    prod[i] = mat_of(t, 0, i);
    for (int r = 1; r < x.size; ++r) prod[i] = mul(prod[i], mat_of(t, r, i));
  }
  MPI_Allreduce(mats.data(), got.data(), m, x.mat, x.mat_op, x.comm);
  expect(got == prod, "allreduce non-commutative");
  for (int root = 0; root < x.size; ++root) {
    MPI_Reduce(mats.data(), got.data(), m, x.mat, x.mat_op, root, x.comm);
    if (x.rank == root) expect(got == prod, "reduce non-commutative");
  }
  // Scan and exscan, in rank order.
  std::vector<Mat> incl(m), excl(m);
  for (int i = 0; i < m; ++i) {
    incl[i] = mat_of(t, 0, i);
    for (int r = 1; r <= x.rank; ++r) incl[i] = mul(incl[i], mat_of(t, r, i));
    if (x.rank > 0) {
      excl[i] = mat_of(t, 0, i);
      for (int r = 1; r < x.rank; ++r) excl[i] = mul(excl[i], mat_of(t, r, i));
    }
  }
  MPI_Scan(mats.data(), got.data(), m, x.mat, x.mat_op, x.comm);
  expect(got == incl, "scan non-commutative");
  got = mats;
  MPI_Scan(MPI_IN_PLACE, got.data(), m, x.mat, x.mat_op, x.comm);
  expect(got == incl, "scan in place");
  std::vector<Mat> ex(m, Mat{9, 9, 9, 9});
  MPI_Exscan(mats.data(), ex.data(), m, x.mat, x.mat_op, x.comm);
  if (x.rank > 0) expect(ex == excl, "exscan non-commutative");
  std::vector<long long> exs(n, 0), ex_out(n);
  for (int i = 0; i < n; ++i)
    for (int r = 0; r < x.rank; ++r) exs[i] += value(t, r, i);
  ex_out = mine;
  MPI_Exscan(MPI_IN_PLACE, ex_out.data(), n, MPI_LONG_LONG, MPI_SUM, x.comm);
  if (x.rank > 0) expect(ex_out == exs, "exscan in place");
  // Short and long vectors take different forms in the drop-in (one ccl call up to 2 KiB, two
  // beyond): both, blocking and not, and an empty one.
  for (int len : {0, 1, 128, 129, 1200}) {  // 128 matrices: 2 KiB
    std::vector<Mat> v(static_cast<std::size_t>(len)), want(v.size()),
        out(v.size(), Mat{9, 9, 9, 9}), iout(v.size(), Mat{9, 9, 9, 9});
    for (int i = 0; i < len; ++i) {
      v[i] = mat_of(t + 1, x.rank, i);
      want[i] = mat_of(t + 1, 0, i);
      for (int r = 1; r < x.rank; ++r) want[i] = mul(want[i], mat_of(t + 1, r, i));
    }
    MPI_Exscan(v.data(), out.data(), len, x.mat, x.mat_op, x.comm);
    MPI_Request q;
    MPI_Iexscan(v.data(), iout.data(), len, x.mat, x.mat_op, x.comm, &q);
    MPI_Wait(&q, MPI_STATUS_IGNORE);
    if (x.rank > 0) {
      expect(out == want, "exscan of " + std::to_string(len) + " matrices");
      expect(iout == want, "iexscan of " + std::to_string(len) + " matrices");
    }
  }
  // Reduce-scatter with equal blocks: block r of the sum to rank r.
  const int b = 3;
  std::vector<Mat> all(static_cast<std::size_t>(b * x.size)), block(b);
  for (int i = 0; i < b * x.size; ++i) all[i] = mat_of(t, x.rank, i);
  MPI_Reduce_scatter_block(all.data(), block.data(), b, x.mat, x.mat_op, x.comm);
  for (int i = 0; i < b; ++i) {
    Mat w = mat_of(t, 0, x.rank * b + i);
    for (int r = 1; r < x.size; ++r) w = mul(w, mat_of(t, r, x.rank * b + i));
    expect(block[i] == w, "reduce_scatter_block non-commutative");
  }
  std::vector<long long> rs(static_cast<std::size_t>(b * x.size));
  for (int i = 0; i < b * x.size; ++i) rs[i] = value(t, x.rank, i);
  MPI_Reduce_scatter_block(MPI_IN_PLACE, rs.data(), b, MPI_LONG_LONG, MPI_SUM, x.comm);
  for (int i = 0; i < b; ++i) {
    long long w = 0;
    for (int r = 0; r < x.size; ++r) w += value(t, r, x.rank * b + i);
    expect(rs[i] == w, "reduce_scatter_block in place");
  }
}

void check_scatter_gather(const Ctx& x, int t) {
  for (int root = 0; root < x.size; ++root) {
    // 1000 ints: the root copies its own block of 4,000 B before its sends
    // (ScheduleRun::copy_before_sends).
    for (int n : {0, 1, 5, 1000}) {
      std::vector<int> all(static_cast<std::size_t>(n * x.size)), mine(n, -1);
      if (x.rank == root)
        for (int i = 0; i < n * x.size; ++i) all[i] = static_cast<int>(value(t, root, i));
      MPI_Scatter(all.data(), n, MPI_INT, mine.data(), n, MPI_INT, root, x.comm);
      for (int i = 0; i < n; ++i) expect(mine[i] == value(t, root, x.rank * n + i), "scatter");
      if (x.rank == root) {  // in place: the root's block stays where it is
        MPI_Scatter(all.data(), n, MPI_INT, MPI_IN_PLACE, n, MPI_INT, root, x.comm);
      } else {
        MPI_Scatter(nullptr, n, MPI_INT, mine.data(), n, MPI_INT, root, x.comm);
        for (int i = 0; i < n; ++i)
          expect(mine[i] == value(t, root, x.rank * n + i), "scatter in place");
      }
      for (int i = 0; i < n; ++i) mine[i] = static_cast<int>(value(t, x.rank, i));
      std::vector<int> gathered(static_cast<std::size_t>(n * x.size), -1);
      MPI_Gather(mine.data(), n, MPI_INT, gathered.data(), n, MPI_INT, root, x.comm);
      if (x.rank == root) {
        for (int r = 0; r < x.size; ++r)
          for (int i = 0; i < n; ++i) expect(gathered[r * n + i] == value(t, r, i), "gather");
      }
      // The root gathers into a strided buffer, in place.
      std::vector<int> strided(static_cast<std::size_t>(2 * n * x.size), -3);
      if (x.rank == root) {
        for (int i = 0; i < n; ++i) strided[2 * (root * n + i)] = mine[i];
        MPI_Gather(MPI_IN_PLACE, n, MPI_INT, strided.data(), n, x.gappy, root, x.comm);
        for (int r = 0; r < x.size; ++r)
          for (int i = 0; i < n; ++i) {
            expect(strided[2 * (r * n + i)] == value(t, r, i), "gather gappy in place");
            expect(strided[2 * (r * n + i) + 1] == -3, "gather gappy gaps");
          }
      } else {
        MPI_Gather(mine.data(), n, MPI_INT, nullptr, 0, MPI_INT, root, x.comm);
      }
    }
    // V-forms: rank r has r % 3 + 1 elements, placed in reverse rank order with gaps.
    std::vector<int> counts(x.size), displs(x.size);
    int end = 0;
    for (int r = x.size - 1; r >= 0; --r) {
      counts[r] = r % 3 + 1;
      displs[r] = end + 1;
      end += counts[r] + 1;
    }
    std::vector<long long> big(static_cast<std::size_t>(end), -9), part(counts[x.rank]);
    if (x.rank == root)
      for (int r = 0; r < x.size; ++r)
        for (int i = 0; i < counts[r]; ++i) big[displs[r] + i] = value(t, r, i);
    MPI_Scatterv(big.data(), counts.data(), displs.data(), MPI_LONG_LONG, part.data(),
                 counts[x.rank], MPI_LONG_LONG, root, x.comm);
    for (int i = 0; i < counts[x.rank]; ++i) expect(part[i] == value(t, x.rank, i), "scatterv");
    std::vector<long long> back(static_cast<std::size_t>(end), -9);
    if (x.rank == root) {
      for (int i = 0; i < counts[root]; ++i) back[displs[root] + i] = part[i];
      MPI_Gatherv(MPI_IN_PLACE, 0, MPI_LONG_LONG, back.data(), counts.data(), displs.data(),
                  MPI_LONG_LONG, root, x.comm);
      expect(back == big, "gatherv in place with gaps");
    } else {
      MPI_Gatherv(part.data(), counts[x.rank], MPI_LONG_LONG, nullptr, nullptr, nullptr,
                  MPI_LONG_LONG, root, x.comm);
    }
  }
}

void check_all_to_all(const Ctx& x, int t) {
  for (int n : {0, 1, 6}) {
    std::vector<int> mine(n), all(static_cast<std::size_t>(n * x.size), -1);
    for (int i = 0; i < n; ++i) mine[i] = static_cast<int>(value(t, x.rank, i));
    MPI_Allgather(mine.data(), n, MPI_INT, all.data(), n, MPI_INT, x.comm);
    for (int r = 0; r < x.size; ++r)
      for (int i = 0; i < n; ++i) expect(all[r * n + i] == value(t, r, i), "allgather");
    std::vector<int> in_place(static_cast<std::size_t>(n * x.size), -1);
    for (int i = 0; i < n; ++i) in_place[x.rank * n + i] = mine[i];
    MPI_Allgather(MPI_IN_PLACE, 0, MPI_INT, in_place.data(), n, MPI_INT, x.comm);
    expect(in_place == all, "allgather in place");
    std::vector<int> send(static_cast<std::size_t>(n * x.size)), recv(send.size(), -1);
    for (int d = 0; d < x.size; ++d)
      for (int i = 0; i < n; ++i) send[d * n + i] = static_cast<int>(value(t, x.rank, d * 100 + i));
    MPI_Alltoall(send.data(), n, MPI_INT, recv.data(), n, MPI_INT, x.comm);
    for (int s = 0; s < x.size; ++s)
      for (int i = 0; i < n; ++i)
        expect(recv[s * n + i] == value(t, s, x.rank * 100 + i), "alltoall");
    MPI_Alltoall(MPI_IN_PLACE, 0, MPI_INT, send.data(), n, MPI_INT, x.comm);
    expect(send == recv, "alltoall in place");
  }
  // Allgatherv into a strided, gappy layout; alltoallv with rank-dependent counts.
  std::vector<int> counts(x.size), displs(x.size);
  int end = 0;
  for (int r = 0; r < x.size; ++r) {
    counts[r] = (r * 5) % 4;
    displs[r] = end + 2;
    end += counts[r] + 2;
  }
  std::vector<int> mine(counts[x.rank]), all(static_cast<std::size_t>(2 * end), -4);
  for (int i = 0; i < counts[x.rank]; ++i) mine[i] = static_cast<int>(value(t, x.rank, i));
  MPI_Allgatherv(mine.data(), counts[x.rank], MPI_INT, all.data(), counts.data(), displs.data(),
                 x.gappy, x.comm);
  for (int r = 0; r < x.size; ++r)
    for (int i = 0; i < counts[r]; ++i)
      expect(all[2 * (displs[r] + i)] == value(t, r, i), "allgatherv gappy");
  for (int i = 0; i < end; ++i) expect(all[2 * i + 1] == -4, "allgatherv gaps untouched");
  std::vector<int> sc(x.size), sd(x.size), rc(x.size), rd(x.size);
  int send_total = 0, recv_total = 0;
  for (int p = 0; p < x.size; ++p) {
    sc[p] = (x.rank + 2 * p) % 3;
    rc[p] = (p + 2 * x.rank) % 3;
  }
  for (int p = x.size - 1; p >= 0; --p) {  // send blocks in reverse order
    sd[p] = send_total;
    send_total += sc[p];
  }
  for (int p = 0; p < x.size; ++p) {
    rd[p] = recv_total;
    recv_total += rc[p];
  }
  std::vector<long long> sbuf(send_total), rbuf(recv_total, -1);
  for (int p = 0; p < x.size; ++p)
    for (int i = 0; i < sc[p]; ++i) sbuf[sd[p] + i] = value(t, x.rank, p * 10 + i);
  MPI_Alltoallv(sbuf.data(), sc.data(), sd.data(), MPI_LONG_LONG, rbuf.data(), rc.data(), rd.data(),
                MPI_LONG_LONG, x.comm);
  for (int p = 0; p < x.size; ++p)
    for (int i = 0; i < rc[p]; ++i)
      expect(rbuf[rd[p] + i] == value(t, p, x.rank * 10 + i), "alltoallv");
  MPI_Barrier(x.comm);
}

// Nonblocking collectives beside point-to-point requests, completed by every wait and test.
void check_nonblocking(const Ctx& x, int t) {
  const int n = 50;
  std::vector<long long> a(n), sum(n, 0), out(n), bc(n, 0), ring_in(1),
      ring_out(1, value(t, x.rank, 0));
  for (int i = 0; i < n; ++i) {
    a[i] = value(t, x.rank, i);
    for (int r = 0; r < x.size; ++r) sum[i] += value(t, r, i);
    if (x.rank == 0) bc[i] = value(t, 0, i + 1);
  }
  std::vector<MPI_Request> q(5);
  MPI_Iallreduce(a.data(), out.data(), n, MPI_LONG_LONG, MPI_SUM, x.comm, &q[0]);
  MPI_Irecv(ring_in.data(), 1, MPI_LONG_LONG, (x.rank + x.size - 1) % x.size, 77, x.comm, &q[1]);
  MPI_Ibcast(bc.data(), n, MPI_LONG_LONG, 0, x.comm, &q[2]);
  MPI_Isend(ring_out.data(), 1, MPI_LONG_LONG, (x.rank + 1) % x.size, 77, x.comm, &q[3]);
  MPI_Ibarrier(x.comm, &q[4]);
  MPI_Waitall(5, q.data(), MPI_STATUSES_IGNORE);
  expect(out == sum, "iallreduce in waitall");
  for (int i = 0; i < n; ++i) expect(bc[i] == value(t, 0, i + 1), "ibcast in waitall");
  expect(ring_in[0] == value(t, (x.rank + x.size - 1) % x.size, 0), "p2p beside collectives");
  // Waitany until all done, then Testsome polling.
  std::vector<int> g(static_cast<std::size_t>(x.size)), one{static_cast<int>(value(t, x.rank, 9))};
  std::vector<long long> sc(n);
  MPI_Iallgather(one.data(), 1, MPI_INT, g.data(), 1, MPI_INT, x.comm, &q[0]);
  MPI_Iscan(a.data(), sc.data(), n, MPI_LONG_LONG, MPI_SUM, x.comm, &q[1]);
  for (int done = 0; done < 2; ++done) {
    int index = -1;
    MPI_Waitany(2, q.data(), &index, MPI_STATUS_IGNORE);
    expect(index == 0 || index == 1, "waitany index");
  }
  for (int r = 0; r < x.size; ++r) expect(g[r] == value(t, r, 9), "iallgather via waitany");
  for (int i = 0; i < n; ++i) {
    long long w = 0;
    for (int r = 0; r <= x.rank; ++r) w += value(t, r, i);
    expect(sc[i] == w, "iscan via waitany");
  }
  std::vector<int> all(static_cast<std::size_t>(x.size) * 2),
      back(static_cast<std::size_t>(x.size) * 2);
  for (int i = 0; i < 2 * x.size; ++i) all[i] = static_cast<int>(value(t, x.rank, i));
  std::vector<long long> red(n, 0);
  MPI_Ialltoall(all.data(), 2, MPI_INT, back.data(), 2, MPI_INT, x.comm, &q[0]);
  MPI_Ireduce(a.data(), red.data(), n, MPI_LONG_LONG, MPI_SUM, x.size - 1, x.comm, &q[1]);
  int completed = 0;
  while (completed < 2) {
    int outcount = 0;
    std::vector<int> indices(2);
    MPI_Testsome(2, q.data(), &outcount, indices.data(), MPI_STATUSES_IGNORE);
    if (outcount != MPI_UNDEFINED) completed += outcount;
  }
  for (int s = 0; s < x.size; ++s)
    for (int i = 0; i < 2; ++i)
      expect(back[s * 2 + i] == value(t, s, x.rank * 2 + i), "ialltoall via testsome");
  if (x.rank == x.size - 1) expect(red == sum, "ireduce via testsome");
  // A user operator and its datatype freed while the reduction is under way: it completes
  // normally, the function still given a handle it can query (MPICH rejects a freed one).
  {
    MPI_Datatype pair;
    MPI_Type_contiguous(2, MPI_INT, &pair);
    MPI_Type_commit(&pair);
    MPI_Op by_type;
    MPI_Op_create(&int_sum_by_type, 1, &by_type);
    std::vector<int> in{static_cast<int>(value(t, x.rank, 3)),
                        static_cast<int>(value(t, x.rank, 4))};
    std::vector<int> got{-7, -7}, want{0, 0};
    for (int r = 0; r < x.size; ++r) {
      want[0] += static_cast<int>(value(t, r, 3));
      want[1] += static_cast<int>(value(t, r, 4));
    }
    MPI_Iallreduce(in.data(), got.data(), 1, pair, by_type, x.comm, &q[0]);
    MPI_Type_free(&pair);
    MPI_Op_free(&by_type);
    expect(pair == MPI_DATATYPE_NULL, "a freed datatype's handle is null");
    MPI_Wait(&q[0], MPI_STATUS_IGNORE);
    expect(got == want, "iallreduce whose user operator and datatype were freed under way");
  }
  int flag = 0;
  std::vector<int> scattered(3), gathered(static_cast<std::size_t>(3 * x.size));
  MPI_Iscatter(all.data(), 2, MPI_INT, scattered.data(), 2, MPI_INT, 0, x.comm, &q[0]);
  while (!flag) MPI_Test(&q[0], &flag, MPI_STATUS_IGNORE);
  for (int i = 0; i < 2; ++i)
    expect(scattered[i] == value(t, 0, 2 * x.rank + i), "iscatter via test");
  for (int i = 0; i < 3; ++i) scattered[i] = static_cast<int>(value(t, x.rank, i));
  MPI_Igather(scattered.data(), 3, MPI_INT, gathered.data(), 3, MPI_INT, 0, x.comm, &q[0]);
  MPI_Wait(&q[0], MPI_STATUS_IGNORE);
  if (x.rank == 0)
    for (int r = 0; r < x.size; ++r)
      for (int i = 0; i < 3; ++i) expect(gathered[r * 3 + i] == value(t, r, i), "igather");
}

// Operators and datatypes freed and made again, which MPI may give the freed handles: what the
// drop-in remembered about the old ones must not be used for the new ones. Each pass alternates
// a commutative sum of absolute values with a plain sum (a user function of another kind) and a
// dense pair type with a pair type whose second element is a gap.
void check_handles_reused(int t) {
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  for (int pass = 0; pass < 6; ++pass) {
    const bool abs_pass = pass % 2 == 0;
    MPI_Op op;
    MPI_Op_create(abs_pass ? &abs_sum : &plain_sum, 1, &op);
    long long mine = value(t, rank, pass), want = 0, got = 0;
    for (int r = 0; r < size; ++r)
      want += abs_pass ? std::llabs(value(t, r, pass)) : value(t, r, pass);
    if (abs_pass && size == 1) want = mine;  // one member: the operator is never applied
    MPI_Allreduce(&mine, &got, 1, MPI_LONG_LONG, op, MPI_COMM_WORLD);
    expect(got == want, "allreduce with a re-made user operator, pass " + std::to_string(pass));
    MPI_Op_free(&op);

    MPI_Datatype pair;  // two ints, or one int and a gap of one
    if (abs_pass) {
      MPI_Type_contiguous(2, MPI_INT, &pair);
    } else {
      MPI_Datatype one;
      MPI_Type_contiguous(1, MPI_INT, &one);
      MPI_Type_create_resized(one, 0, 2 * sizeof(int), &pair);
      MPI_Type_free(&one);
    }
    MPI_Type_commit(&pair);
    MPI_Op by_type;
    MPI_Op_create(&int_sum_by_type, 1, &by_type);
    std::vector<int> in{static_cast<int>(value(t, rank, 0)), static_cast<int>(value(t, rank, 1))};
    std::vector<int> out{-7, -7};
    MPI_Allreduce(in.data(), out.data(), 1, pair, by_type, MPI_COMM_WORLD);
    int s0 = 0, s1 = 0;
    for (int r = 0; r < size; ++r) {
      s0 += static_cast<int>(value(t, r, 0));
      s1 += static_cast<int>(value(t, r, 1));
    }
    expect(out[0] == s0, "allreduce on a re-made datatype, pass " + std::to_string(pass));
    expect(out[1] == (abs_pass ? s1 : -7),
           "gap of a re-made datatype, pass " + std::to_string(pass));
    MPI_Op_free(&by_type);
    MPI_Type_free(&pair);
  }
}

void run_all(const Ctx& x, int t) {
  check_bcast(x, t);
  check_reductions(x, t);
  check_scatter_gather(x, t);
  check_all_to_all(x, t);
  check_nonblocking(x, t);
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
  Ctx x{};
  MPI_Type_contiguous(4, MPI_UINT32_T, &x.mat);
  MPI_Type_commit(&x.mat);
  MPI_Op_create(&mat_op, 0, &x.mat_op);
  MPI_Op_create(&abs_sum, 1, &x.abs_op);
  MPI_Type_vector(1, 1, 2, MPI_INT, &x.gappy);  // one int, then a gap of one int
  MPI_Datatype gappy;
  MPI_Type_create_resized(x.gappy, 0, 2 * sizeof(int), &gappy);
  MPI_Type_free(&x.gappy);
  x.gappy = gappy;
  MPI_Type_commit(&x.gappy);
  const std::string mode = argc > 1 ? argv[1] : "2";
  if (mode == "mismatch" || mode == "bad-root") {  // erroneous programs: must fail, not hang
    std::vector<int> buf(100, 0);
    const int count = mode == "mismatch" ? world_rank + 1 : 10;
    const int root = mode == "bad-root" && world_rank == 1 ? 99 : 0;
    MPI_Bcast(buf.data(), count, MPI_INT, root, MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
  }
  if (mode == "zero-at-once") {
    // Only under the drop-in (MPI itself need not return at once): zero-byte blocking calls
    // move nothing, so they return at once in run mode; here only rank 0 makes them, and the
    // next collective still matches up. Were they run, rank 0 would wait forever.
    int me = 0, n = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    if (me == 0) {
      double none = 0, out = 0;
      for (int i = 0; i < 3; ++i) {
        MPI_Bcast(&none, 0, MPI_DOUBLE, n - 1, MPI_COMM_WORLD);
        MPI_Reduce(&none, &out, 0, MPI_DOUBLE, MPI_SUM, n - 1, MPI_COMM_WORLD);
        MPI_Allreduce(&none, &out, 0, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        MPI_Scan(&none, &out, 0, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        MPI_Gather(&none, 0, MPI_DOUBLE, &out, 0, MPI_DOUBLE, n - 1, MPI_COMM_WORLD);
        MPI_Scatter(&none, 0, MPI_DOUBLE, &out, 0, MPI_DOUBLE, n - 1, MPI_COMM_WORLD);
        MPI_Allgather(&none, 0, MPI_DOUBLE, &out, 0, MPI_DOUBLE, MPI_COMM_WORLD);
        MPI_Alltoall(&none, 0, MPI_DOUBLE, &out, 0, MPI_DOUBLE, MPI_COMM_WORLD);
      }
    }
    long long mine = me, sum = 0;
    MPI_Allreduce(&mine, &sum, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    expect(sum == static_cast<long long>(n) * (n - 1) / 2, "the collective after zero-byte calls");
    MPI_Finalize();
    return 0;
  }
  const int rounds = std::atoi(mode.c_str());

  // Two communicators whose first collectives the ranks start in different orders.
  MPI_Comm a, b;
  MPI_Comm_dup(MPI_COMM_WORLD, &a);
  MPI_Comm_dup(MPI_COMM_WORLD, &b);
  long long va = world_rank, vb = 100 + world_rank, sa = 0, sb = 0;
  MPI_Request ab[2];
  if (world_rank % 2 == 0) {
    MPI_Iallreduce(&va, &sa, 1, MPI_LONG_LONG, MPI_SUM, a, &ab[0]);
    MPI_Iallreduce(&vb, &sb, 1, MPI_LONG_LONG, MPI_SUM, b, &ab[1]);
  } else {
    MPI_Iallreduce(&vb, &sb, 1, MPI_LONG_LONG, MPI_SUM, b, &ab[1]);
    MPI_Iallreduce(&va, &sa, 1, MPI_LONG_LONG, MPI_SUM, a, &ab[0]);
  }
  MPI_Waitall(2, ab, MPI_STATUSES_IGNORE);
  int world_size = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &world_size);
  const long long tri = static_cast<long long>(world_size) * (world_size - 1) / 2;
  expect(sa == tri && sb == 100LL * world_size + tri, "first collectives in different orders");
  MPI_Comm_free(&a);
  MPI_Comm_free(&b);

  for (int t = 0; t < rounds; ++t) {
    x.comm = MPI_COMM_WORLD;
    MPI_Comm_rank(x.comm, &x.rank);
    MPI_Comm_size(x.comm, &x.size);
    run_all(x, t);
    // Sub-communicators: halves in reverse rank order, made and freed every round.
    MPI_Comm half;
    MPI_Comm_split(MPI_COMM_WORLD, world_rank % 2, -world_rank, &half);
    x.comm = half;
    MPI_Comm_rank(x.comm, &x.rank);
    MPI_Comm_size(x.comm, &x.size);
    run_all(x, t + 1000);
    MPI_Comm_free(&half);
  }
  for (int t = 0; t < rounds; ++t) check_handles_reused(t);
  // Many communicators made and freed: each one's group is released.
  for (int i = 0; i < 200; ++i) {
    MPI_Comm c;
    MPI_Comm_dup(MPI_COMM_WORLD, &c);
    int one = 1, total = 0;
    MPI_Allreduce(&one, &total, 1, MPI_INT, MPI_SUM, c);
    expect(total == world_size, "allreduce on a fresh communicator");
    MPI_Comm_free(&c);
  }
  // An intercommunicator (even ranks against odd ones): handed to MPI.
  if (world_size >= 2) {
    MPI_Comm local, inter;
    MPI_Comm_split(MPI_COMM_WORLD, world_rank % 2, world_rank, &local);
    MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, world_rank % 2 == 0 ? 1 : 0, 5, &inter);
    MPI_Barrier(inter);
    MPI_Comm_free(&inter);
    MPI_Comm_free(&local);
  }
  MPI_Op_free(&x.mat_op);
  MPI_Op_free(&x.abs_op);
  MPI_Type_free(&x.mat);
  MPI_Type_free(&x.gappy);
  long total = 0;
  MPI_Reduce(&checks, &total, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  if (world_rank == 0)
    std::printf("mpi_collectives_check: %d ranks, %ld checks passed\n", world_size, total);
  MPI_Finalize();
  return 0;
}
