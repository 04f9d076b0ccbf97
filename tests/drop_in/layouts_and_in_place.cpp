// A plain MPI program (no ccl in it) for what mpi_collectives_check leaves out: the derived
// datatypes the drop-in walks to find a buffer's layout (indexed, hindexed, indexed_block,
// hindexed_block, struct, hvector, dup), and MPI_IN_PLACE in Scatterv, Allgatherv, Alltoallv and
// every nonblocking form that takes it, with Igatherv and Iscatterv. Every element is checked
// against values computed on each rank, and so is every gap a datatype leaves: a collective may
// write only the elements its type map names. Run it with and without the drop-in.
//   layouts_and_in_place [ROUNDS]
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

int me = 0, ranks = 1;
long checks = 0;

void expect(bool ok, const std::string& what) {
  ++checks;
  if (ok) return;
  std::fprintf(stderr, "layouts_and_in_place: rank %d: FAILED: %s\n", me, what.c_str());
  MPI_Abort(MPI_COMM_WORLD, 1);
}

// Element i of rank r's data in round t; gaps hold kGap, receive buffers start at kUnset.
int value(int t, int r, int i) {
  return t * 100003 + r * 1009 + i * 7 + 1;
}
constexpr int kGap = -7;
constexpr int kUnset = -1;

// A derived datatype of ints: where each of its ints lies (in ints from the element's start),
// and its extent in ints. Buffers hold whole extents; every int not at a position is a gap.
struct Shape {
  std::string name;
  MPI_Datatype type = MPI_DATATYPE_NULL;
  std::vector<int> at;
  int extent = 0;
};

Shape make(std::string name, MPI_Datatype built, std::vector<int> at, int extent) {
  MPI_Datatype resized;
  MPI_Type_create_resized(built, 0, extent * static_cast<MPI_Aint>(sizeof(int)), &resized);
  MPI_Type_free(&built);
  MPI_Type_commit(&resized);
  return {std::move(name), resized, std::move(at), extent};
}

std::vector<Shape> shapes() {
  const MPI_Aint i = sizeof(int);
  std::vector<Shape> out;
  MPI_Datatype t;
  {
    int lens[] = {1, 2}, displs[] = {0, 3};
    MPI_Type_indexed(2, lens, displs, MPI_INT, &t);
    out.push_back(make("indexed", t, {0, 3, 4}, 6));
  }
  {
    int lens[] = {2, 1};
    MPI_Aint displs[] = {i, 4 * i};
    MPI_Type_create_hindexed(2, lens, displs, MPI_INT, &t);
    out.push_back(make("hindexed", t, {1, 2, 4}, 5));
  }
  {
    int displs[] = {0, 3};
    MPI_Type_create_indexed_block(2, 2, displs, MPI_INT, &t);
    out.push_back(make("indexed_block", t, {0, 1, 3, 4}, 5));
  }
  {
    MPI_Aint displs[] = {2 * i, 0};  // out of order: the type map keeps this order
    MPI_Type_create_hindexed_block(2, 1, displs, MPI_INT, &t);
    out.push_back(make("hindexed_block", t, {2, 0}, 3));
  }
  {
    int lens[] = {1, 2};
    MPI_Aint displs[] = {0, 2 * i};
    MPI_Datatype types[] = {MPI_INT, MPI_INT};
    MPI_Type_create_struct(2, lens, displs, types, &t);
    out.push_back(make("struct", t, {0, 2, 3}, 5));
  }
  {
    int lens[] = {3};
    MPI_Aint displs[] = {0};
    MPI_Datatype types[] = {MPI_INT};
    MPI_Type_create_struct(1, lens, displs, types, &t);
    out.push_back(make("dense struct", t, {0, 1, 2}, 3));  // no gaps: used in place
  }
  // No gaps, but the type map out of memory order: its packed bytes are not its memory.
  {
    int lens[] = {1, 2}, displs[] = {2, 0};
    MPI_Type_indexed(2, lens, displs, MPI_INT, &t);
    out.push_back(make("indexed, permuted", t, {2, 0, 1}, 3));
  }
  {
    int displs[] = {2, 0};
    MPI_Type_create_indexed_block(2, 2, displs, MPI_INT, &t);
    out.push_back(make("indexed_block, permuted", t, {2, 3, 0, 1}, 4));
  }
  {
    int lens[] = {1, 1};
    MPI_Aint displs[] = {i, 0};
    MPI_Datatype types[] = {MPI_INT, MPI_INT};
    MPI_Type_create_struct(2, lens, displs, types, &t);
    out.push_back(make("struct, permuted", t, {1, 0}, 2));
  }
  {
    MPI_Type_create_hvector(2, 1, 3 * i, MPI_INT, &t);
    out.push_back(make("hvector", t, {0, 3}, 4));
  }
  {
    MPI_Datatype dup;
    MPI_Type_dup(out.front().type, &dup);
    out.push_back({"dup of indexed", dup, out.front().at, out.front().extent});
  }
  return out;
}

// A buffer of n elements of shape s: element e's k-th int is fill(e, k), gaps are kGap.
template <class Fill>
std::vector<int> laid_out(const Shape& s, int n, Fill fill) {
  std::vector<int> buf(static_cast<std::size_t>(n * s.extent), kGap);
  for (int e = 0; e < n; ++e) {
    for (std::size_t k = 0; k < s.at.size(); ++k)
      buf[e * s.extent + s.at[k]] = fill(e, static_cast<int>(k));
  }
  return buf;
}

// Checks buf against the layout laid_out(s, n, want) would give, gaps included.
template <class Want>
void expect_laid_out(const Shape& s, const std::vector<int>& buf, int n, Want want,
                     const std::string& what) {
  const std::vector<int> expected = laid_out(s, n, want);
  for (std::size_t j = 0; j < expected.size(); ++j) {
    if (buf[j] != expected[j]) {
      expect(false, what + " (" + s.name + "): int " + std::to_string(j) + " is " +
                        std::to_string(buf[j]) + ", expected " + std::to_string(expected[j]));
    }
  }
  ++checks;
}

// The user operator: sums element by element the ints summed_shape's type map names.
const Shape* summed_shape = nullptr;
MPI_Op shape_sum = MPI_OP_NULL;
void sum_over_shape(void* in, void* inout, int* len, MPI_Datatype*) {
  const int* a = static_cast<const int*>(in);
  int* b = static_cast<int*>(inout);
  for (int e = 0; e < *len; ++e) {
    for (const int k : summed_shape->at)
      b[e * summed_shape->extent + k] += a[e * summed_shape->extent + k];
  }
}

void check_layouts(const Shape& s, int t) {
  const int n = 3, per = static_cast<int>(s.at.size());
  const int root = ranks - 1;
  auto own = [&](int r) { return [=](int e, int k) { return value(t, r, e * per + k); }; };
  // Bcast, blocking and nonblocking: the root's elements everywhere, gaps untouched.
  for (int nonblocking = 0; nonblocking < 2; ++nonblocking) {
    std::vector<int> buf =
        me == root ? laid_out(s, n, own(root)) : laid_out(s, n, [](int, int) { return kUnset; });
    if (nonblocking) {
      MPI_Request q;
      MPI_Ibcast(buf.data(), n, s.type, root, MPI_COMM_WORLD, &q);
      MPI_Wait(&q, MPI_STATUS_IGNORE);
    } else {
      MPI_Bcast(buf.data(), n, s.type, root, MPI_COMM_WORLD);
    }
    expect_laid_out(s, buf, n, own(root), nonblocking ? "ibcast" : "bcast");
  }
  // Allgather: member r's n elements at r * n.
  const std::vector<int> mine = laid_out(s, n, own(me));
  auto gathered = [&](int e, int k) { return value(t, e / n, (e % n) * per + k); };
  {
    std::vector<int> all = laid_out(s, n * ranks, [](int, int) { return kUnset; });
    MPI_Allgather(mine.data(), n, s.type, all.data(), n, s.type, MPI_COMM_WORLD);
    expect_laid_out(s, all, n * ranks, gathered, "allgather");
  }
  // The same data received as plain ints: the type map's order, whatever the memory's.
  {
    std::vector<int> flat(static_cast<std::size_t>(n * per * ranks), kUnset), want;
    MPI_Allgather(mine.data(), n, s.type, flat.data(), n * per, MPI_INT, MPI_COMM_WORLD);
    for (int r = 0; r < ranks; ++r)
      for (int j = 0; j < n * per; ++j) want.push_back(value(t, r, j));
    expect(flat == want, "allgather into plain ints (" + s.name + ")");
    std::vector<int> one = me == root ? laid_out(s, n, own(root))
                                      : std::vector<int>(static_cast<std::size_t>(n * per), kUnset);
    if (me == root) {
      MPI_Bcast(one.data(), n, s.type, root, MPI_COMM_WORLD);
    } else {
      MPI_Bcast(one.data(), n * per, MPI_INT, root, MPI_COMM_WORLD);
      want.assign(want.begin() + root * n * per, want.begin() + (root + 1) * n * per);
      expect(one == want, "bcast into plain ints (" + s.name + ")");
    }
  }
  // Alltoall: block j of member r goes to member j, at r.
  {
    auto to = [&](int r) { return [=](int e, int k) { return value(t, r, 1000 + e * per + k); }; };
    const std::vector<int> send = laid_out(s, n * ranks, to(me));
    std::vector<int> recv = laid_out(s, n * ranks, [](int, int) { return kUnset; });
    MPI_Alltoall(send.data(), n, s.type, recv.data(), n, s.type, MPI_COMM_WORLD);
    expect_laid_out(
        s, recv, n * ranks,
        [&](int e, int k) {
          const int from = e / n;
          return value(t, from, 1000 + (me * n + e % n) * per + k);
        },
        "alltoall");
  }
  // Allreduce with a user sum over the ints of the type map (MPI defines its own operators on
  // predefined types only). The drop-in runs it on ccl where the type has no gaps, and hands it
  // to MPI where it has.
  {
    summed_shape = &s;
    std::vector<int> sum = laid_out(s, n, [](int, int) { return kUnset; });
    MPI_Allreduce(mine.data(), sum.data(), n, s.type, shape_sum, MPI_COMM_WORLD);
    expect_laid_out(
        s, sum, n,
        [&](int e, int k) {
          int total = 0;
          for (int r = 0; r < ranks; ++r) total += value(t, r, e * per + k);
          return total;
        },
        "allreduce");
  }
}

// Counts and displacements of a v-form with gaps between blocks: member r has r % 3 + 1.
struct Blocks {
  std::vector<int> counts, displs;
  int total = 0;
};
Blocks blocks() {
  Blocks b;
  for (int r = 0; r < ranks; ++r) {
    b.counts.push_back(r % 3 + 1);
    b.displs.push_back(b.total + r);  // r ints of gap before block r
    b.total += b.counts.back() + r;
  }
  b.total += 2;  // and a tail
  return b;
}

// The MPI_IN_PLACE forms that move data, blocking v-forms and every nonblocking one.
void check_moves_in_place(int t) {
  const Blocks b = blocks();
  const int root = ranks / 2;
  // The v-forms' full buffer: block r holds member r's values, gaps kGap.
  auto v_buffer = [&](bool only_own) {
    std::vector<int> buf(static_cast<std::size_t>(b.total), kGap);
    for (int r = 0; r < ranks; ++r) {
      for (int i = 0; i < b.counts[r]; ++i) {
        buf[b.displs[r] + i] = only_own && r != me ? kGap : value(t, r, i);
      }
    }
    return buf;
  };
  const std::vector<int> every = v_buffer(false);
  MPI_Request q;
  for (int nonblocking = 0; nonblocking < 2; ++nonblocking) {
    const std::string nb = nonblocking ? "i" : "";
    auto complete = [&](int rc) {
      if (nonblocking) MPI_Wait(&q, MPI_STATUS_IGNORE);
      return rc;
    };
    // Scatterv: the root keeps its own block where it is.
    {
      std::vector<int> buf = me == root ? every : std::vector<int>(4, kUnset);
      void* recv = me == root ? MPI_IN_PLACE : buf.data();
      const int* send = me == root ? buf.data() : nullptr;
      complete(nonblocking ? MPI_Iscatterv(send, b.counts.data(), b.displs.data(), MPI_INT, recv,
                                           b.counts[me], MPI_INT, root, MPI_COMM_WORLD, &q)
                           : MPI_Scatterv(send, b.counts.data(), b.displs.data(), MPI_INT, recv,
                                          b.counts[me], MPI_INT, root, MPI_COMM_WORLD));
      if (me == root) {
        expect(buf == every, nb + "scatterv in place: the root's buffer changed");
      } else {
        for (int i = 0; i < b.counts[me]; ++i)
          expect(buf[i] == value(t, me, i), nb + "scatterv in place");
        for (int i = b.counts[me]; i < 4; ++i)
          expect(buf[i] == kUnset, nb + "scatterv wrote past its count");
      }
    }
    // Allgatherv: each member's own block already in place.
    {
      std::vector<int> buf = v_buffer(true);
      complete(nonblocking
                   ? MPI_Iallgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, buf.data(),
                                     b.counts.data(), b.displs.data(), MPI_INT, MPI_COMM_WORLD, &q)
                   : MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, buf.data(), b.counts.data(),
                                    b.displs.data(), MPI_INT, MPI_COMM_WORLD));
      expect(buf == every, nb + "allgatherv in place");
    }
    // Gatherv at the root, own block in place; the others send theirs.
    {
      std::vector<int> buf = me == root ? v_buffer(true) : std::vector<int>{};
      std::vector<int> own(static_cast<std::size_t>(b.counts[me]));
      for (int i = 0; i < b.counts[me]; ++i) own[i] = value(t, me, i);
      const void* send = me == root ? MPI_IN_PLACE : own.data();
      complete(nonblocking ? MPI_Igatherv(send, b.counts[me], MPI_INT, buf.data(), b.counts.data(),
                                          b.displs.data(), MPI_INT, root, MPI_COMM_WORLD, &q)
                           : MPI_Gatherv(send, b.counts[me], MPI_INT, buf.data(), b.counts.data(),
                                         b.displs.data(), MPI_INT, root, MPI_COMM_WORLD));
      if (me == root) expect(buf == every, nb + "gatherv in place");
    }
    // Alltoallv: what goes to j is taken from the receive buffer at j's block, so counts are
    // symmetric: c(i, j) = (i + j) % 3 + 1 ints each way, displaced with a gap of one.
    {
      std::vector<int> counts, displs;
      int total = 0;
      for (int j = 0; j < ranks; ++j) {
        counts.push_back((me + j) % 3 + 1);
        displs.push_back(total + 1);
        total += counts.back() + 1;
      }
      std::vector<int> buf(static_cast<std::size_t>(total), kGap);
      for (int j = 0; j < ranks; ++j)
        for (int i = 0; i < counts[j]; ++i) buf[displs[j] + i] = value(t, me, 5000 + j * 10 + i);
      complete(nonblocking
                   ? MPI_Ialltoallv(MPI_IN_PLACE, nullptr, nullptr, MPI_DATATYPE_NULL, buf.data(),
                                    counts.data(), displs.data(), MPI_INT, MPI_COMM_WORLD, &q)
                   : MPI_Alltoallv(MPI_IN_PLACE, nullptr, nullptr, MPI_DATATYPE_NULL, buf.data(),
                                   counts.data(), displs.data(), MPI_INT, MPI_COMM_WORLD));
      for (int j = 0; j < ranks; ++j) {
        for (int i = 0; i < counts[j]; ++i) {
          expect(buf[displs[j] + i] == value(t, j, 5000 + me * 10 + i), nb + "alltoallv in place");
        }
        expect(buf[displs[j] - 1] == kGap, nb + "alltoallv in place wrote a gap");
      }
    }
  }
  // Igatherv and Iscatterv with separate buffers.
  {
    std::vector<int> own(static_cast<std::size_t>(b.counts[me]));
    for (int i = 0; i < b.counts[me]; ++i) own[i] = value(t, me, i);
    std::vector<int> all(static_cast<std::size_t>(b.total), kGap);
    MPI_Igatherv(own.data(), b.counts[me], MPI_INT, all.data(), b.counts.data(), b.displs.data(),
                 MPI_INT, root, MPI_COMM_WORLD, &q);
    MPI_Wait(&q, MPI_STATUS_IGNORE);
    if (me == root) expect(all == every, "igatherv");
    std::vector<int> got(static_cast<std::size_t>(b.counts[me]), kUnset);
    MPI_Iscatterv(every.data(), b.counts.data(), b.displs.data(), MPI_INT, got.data(), b.counts[me],
                  MPI_INT, root, MPI_COMM_WORLD, &q);
    MPI_Wait(&q, MPI_STATUS_IGNORE);
    expect(got == own, "iscatterv");
  }
  // Iallgather, Igather, Iscatter and Ialltoall in place.
  {
    const int n = 2;
    auto block = [&](int r) { return std::vector<int>{value(t, r, 0), value(t, r, 1)}; };
    std::vector<int> all, buf(static_cast<std::size_t>(n * ranks), kUnset);
    for (int r = 0; r < ranks; ++r) {
      for (const int v : block(r)) all.push_back(v);
    }
    for (int i = 0; i < n; ++i) buf[me * n + i] = value(t, me, i);
    MPI_Iallgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, buf.data(), n, MPI_INT, MPI_COMM_WORLD, &q);
    MPI_Wait(&q, MPI_STATUS_IGNORE);
    expect(buf == all, "iallgather in place");
    const std::vector<int> own = block(me);
    std::vector<int> at_root = me == root ? std::vector<int>(all.size(), kUnset) : own;
    if (me == root) std::copy(own.begin(), own.end(), at_root.begin() + root * n);
    MPI_Igather(me == root ? MPI_IN_PLACE : at_root.data(), n, MPI_INT, at_root.data(), n, MPI_INT,
                root, MPI_COMM_WORLD, &q);
    MPI_Wait(&q, MPI_STATUS_IGNORE);
    if (me == root) expect(at_root == all, "igather in place");
    std::vector<int> part = me == root ? all : std::vector<int>(n, kUnset);
    MPI_Iscatter(me == root ? part.data() : nullptr, n, MPI_INT,
                 me == root ? MPI_IN_PLACE : part.data(), n, MPI_INT, root, MPI_COMM_WORLD, &q);
    MPI_Wait(&q, MPI_STATUS_IGNORE);
    if (me == root) {
      expect(part == all, "iscatter in place: the root's buffer changed");
    } else {
      expect(part == block(me), "iscatter in place");
    }
    std::vector<int> mix(static_cast<std::size_t>(n * ranks));
    for (int j = 0; j < ranks; ++j)
      for (int i = 0; i < n; ++i) mix[j * n + i] = value(t, me, 7000 + j * n + i);
    MPI_Ialltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, mix.data(), n, MPI_INT, MPI_COMM_WORLD, &q);
    MPI_Wait(&q, MPI_STATUS_IGNORE);
    for (int j = 0; j < ranks; ++j)
      for (int i = 0; i < n; ++i)
        expect(mix[j * n + i] == value(t, j, 7000 + me * n + i), "ialltoall in place");
  }
}

// The nonblocking reductions in place.
void check_reductions_in_place(int t) {
  const int n = 5, root = ranks - 1;
  auto mine = [&] {
    std::vector<int> v(n * ranks);
    for (int i = 0; i < n * ranks; ++i) v[i] = value(t, me, i) % 1000;
    return v;
  };
  auto sum_over = [&](int first, int last, int i) {
    int s = 0;
    for (int r = first; r <= last; ++r) s += value(t, r, i) % 1000;
    return s;
  };
  MPI_Request q;
  std::vector<int> v = mine();
  MPI_Iallreduce(MPI_IN_PLACE, v.data(), n, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &q);
  MPI_Wait(&q, MPI_STATUS_IGNORE);
  for (int i = 0; i < n; ++i) expect(v[i] == sum_over(0, ranks - 1, i), "iallreduce in place");
  v = mine();
  std::vector<int> none;
  MPI_Ireduce(me == root ? MPI_IN_PLACE : v.data(), me == root ? v.data() : none.data(), n, MPI_INT,
              MPI_SUM, root, MPI_COMM_WORLD, &q);
  MPI_Wait(&q, MPI_STATUS_IGNORE);
  if (me == root)
    for (int i = 0; i < n; ++i) expect(v[i] == sum_over(0, ranks - 1, i), "ireduce in place");
  v = mine();
  MPI_Iscan(MPI_IN_PLACE, v.data(), n, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &q);
  MPI_Wait(&q, MPI_STATUS_IGNORE);
  for (int i = 0; i < n; ++i) expect(v[i] == sum_over(0, me, i), "iscan in place");
  v = mine();
  MPI_Iexscan(MPI_IN_PLACE, v.data(), n, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &q);
  MPI_Wait(&q, MPI_STATUS_IGNORE);
  if (me > 0)  // rank 0's buffer is undefined after an exscan
    for (int i = 0; i < n; ++i) expect(v[i] == sum_over(0, me - 1, i), "iexscan in place");
  v = mine();
  MPI_Ireduce_scatter_block(MPI_IN_PLACE, v.data(), n, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &q);
  MPI_Wait(&q, MPI_STATUS_IGNORE);
  for (int i = 0; i < n; ++i) {
    expect(v[i] == sum_over(0, ranks - 1, me * n + i), "ireduce_scatter_block in place");
  }
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  const int rounds = argc > 1 ? std::atoi(argv[1]) : 2;
  std::vector<Shape> types = shapes();
  MPI_Op_create(&sum_over_shape, 1, &shape_sum);
  for (int t = 0; t < rounds; ++t) {
    for (const Shape& s : types) check_layouts(s, t);
    check_moves_in_place(t);
    check_reductions_in_place(t);
  }
  for (Shape& s : types) MPI_Type_free(&s.type);
  MPI_Op_free(&shape_sum);
  long all = 0;
  MPI_Reduce(&checks, &all, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  if (me == 0) std::printf("layouts_and_in_place: %ld checks passed on %d ranks\n", all, ranks);
  MPI_Finalize();
  return 0;
}
