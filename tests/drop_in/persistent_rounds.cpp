// A plain MPI program (no ccl in it) using persistent collectives: MPI-4's MPI_*_init on an MPI
// that has them (MPICH 4), Open MPI 4.1's MPIX_*_init from mpi-ext.h otherwise. Every kind the
// drop-in binds is initialised once, on the world and on a split communicator, and started
// round after round (with MPI_Startall, beside a persistent point-to-point pair, in an order of
// each rank's own) on new data; each rank completes the rounds its own way (Wait, Waitall,
// Testall, Testany, Waitsome), and every result is checked against values computed locally. A
// strided datatype is freed right after the binding, as MPI allows (--keep-type keeps it: Open
// MPI 4.1's own persistent bcast then crashes in MPI_Start). Run with and without libccl_mpi.
//   persistent_rounds [ROUNDS] [--keep-type]
#include <mpi.h>
#if defined(OPEN_MPI) && MPI_VERSION < 4
#include <mpi-ext.h>
#define INIT(name) MPIX_##name##_init
#else
#define INIT(name) MPI_##name##_init
#endif

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <random>
#include <string>
#include <vector>

namespace {

int world_rank = 0;
long checked = 0;
bool keep_type = false;

void expect(bool ok, const std::string& what) {
  ++checked;
  if (ok) return;
  std::fprintf(stderr, "persistent_rounds: rank %d: FAILED: %s\n", world_rank, what.c_str());
  MPI_Abort(MPI_COMM_WORLD, 1);
}

int value(int rank, int i, int round) {
  return 1000 * (rank + 1) + 7 * i + 31 * round;
}

// Every persistent collective of one communicator, with its buffers and checks.
struct Rounds {
  MPI_Comm comm;
  int rank = 0, size = 0, root = 0;
  static constexpr int n = 6;
  std::vector<int> bc, red_in, red_out, all_in, all_out, scan_out, exscan_out, sc_in, sc_out;
  std::vector<int> ga_in, ga_out, ag_out, a2a_in, a2a_out, rsb_in, rsb_out, strided;
  std::vector<int> gv_out, counts, displs, agv_out;
  std::vector<MPI_Request> requests;

  explicit Rounds(MPI_Comm c) : comm(c) {
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    root = size - 1;
    const auto p = static_cast<std::size_t>(size);
    bc.resize(n);
    red_in.resize(n);
    red_out.resize(n);
    all_in.resize(n);
    all_out.resize(n);
    scan_out.resize(n);
    exscan_out.resize(n);
    sc_in.resize(n * p);
    sc_out.resize(n);
    ga_in.resize(n);
    ga_out.resize(n * p);
    ag_out.resize(n * p);
    a2a_in.resize(2 * p);
    a2a_out.resize(2 * p);
    rsb_in.resize(3 * p);
    rsb_out.resize(3);
    strided.resize(2 * n);  // every other int: the bcast of a vector type
    for (int m = 0; m < size; ++m) counts.push_back(1 + m % 3);
    displs.resize(p);
    std::exclusive_scan(counts.begin(), counts.end(), displs.begin(), 0);
    const int total = std::accumulate(counts.begin(), counts.end(), 0);
    gv_out.resize(static_cast<std::size_t>(total));
    agv_out.resize(static_cast<std::size_t>(total));
    bind();
  }

  void bind() {
    MPI_Request r;
    const MPI_Info info = MPI_INFO_NULL;
    auto add = [&](int rc) {
      expect(rc == MPI_SUCCESS, "init");
      requests.push_back(r);
    };
    add(INIT(Bcast)(bc.data(), n, MPI_INT, 0, comm, info, &r));
    add(INIT(Reduce)(red_in.data(), red_out.data(), n, MPI_INT, MPI_SUM, root, comm, info, &r));
    add(INIT(Allreduce)(all_in.data(), all_out.data(), n, MPI_INT, MPI_MAX, comm, info, &r));
    add(INIT(Scan)(all_in.data(), scan_out.data(), n, MPI_INT, MPI_SUM, comm, info, &r));
    add(INIT(Exscan)(all_in.data(), exscan_out.data(), n, MPI_INT, MPI_SUM, comm, info, &r));
    add(INIT(Scatter)(sc_in.data(), n, MPI_INT, sc_out.data(), n, MPI_INT, root, comm, info, &r));
    add(INIT(Gather)(ga_in.data(), n, MPI_INT, ga_out.data(), n, MPI_INT, root, comm, info, &r));
    add(INIT(Allgather)(ga_in.data(), n, MPI_INT, ag_out.data(), n, MPI_INT, comm, info, &r));
    add(INIT(Alltoall)(a2a_in.data(), 2, MPI_INT, a2a_out.data(), 2, MPI_INT, comm, info, &r));
    add(INIT(Reduce_scatter_block)(rsb_in.data(), rsb_out.data(), 3, MPI_INT, MPI_SUM, comm, info,
                                   &r));
    add(INIT(Gatherv)(ga_in.data(), counts[static_cast<std::size_t>(rank)], MPI_INT, gv_out.data(),
                      counts.data(), displs.data(), MPI_INT, root, comm, info, &r));
    add(INIT(Allgatherv)(ga_in.data(), counts[static_cast<std::size_t>(rank)], MPI_INT,
                         agv_out.data(), counts.data(), displs.data(), MPI_INT, comm, info, &r));
    add(INIT(Barrier)(comm, info, &r));
    MPI_Datatype every_other;
    MPI_Type_vector(n, 1, 2, MPI_INT, &every_other);
    MPI_Type_commit(&every_other);
    add(INIT(Bcast)(strided.data(), 1, every_other, root, comm, info, &r));
    if (!keep_type) MPI_Type_free(&every_other);  // the persistent request keeps what it needs
  }

  void fill(int round) {
    for (int i = 0; i < n; ++i) {
      bc[static_cast<std::size_t>(i)] = rank == 0 ? value(0, i, round) : -1;
      red_in[static_cast<std::size_t>(i)] = value(rank, i, round);
      all_in[static_cast<std::size_t>(i)] = value(rank, i, round);
      ga_in[static_cast<std::size_t>(i)] = value(rank, i, round);
      strided[2 * static_cast<std::size_t>(i)] = rank == root ? value(root, i, round) : -1;
    }
    for (int m = 0; m < size; ++m) {
      for (int i = 0; i < n; ++i) sc_in[static_cast<std::size_t>(m * n + i)] = value(m, i, round);
      for (int i = 0; i < 2; ++i)
        a2a_in[static_cast<std::size_t>(2 * m + i)] = value(rank, m, round) + i;
      for (int i = 0; i < 3; ++i)
        rsb_in[static_cast<std::size_t>(3 * m + i)] = value(rank, m + i, round);
    }
  }

  void check(int round) {
    const std::string at =
        " (round " + std::to_string(round) + ", size " + std::to_string(size) + ")";
    for (int i = 0; i < n; ++i) {
      const auto u = static_cast<std::size_t>(i);
      int sum = 0, sum_upto = 0, max = value(0, i, round);
      for (int m = 0; m < size; ++m) {
        sum += value(m, i, round);
        if (m <= rank) sum_upto += value(m, i, round);
        max = std::max(max, value(m, i, round));
      }
      expect(bc[u] == value(0, i, round), "bcast" + at);
      if (rank == root) expect(red_out[u] == sum, "reduce" + at);
      expect(all_out[u] == max, "allreduce max" + at);
      expect(scan_out[u] == sum_upto, "scan" + at);
      if (rank > 0) expect(exscan_out[u] == sum_upto - value(rank, i, round), "exscan" + at);
      expect(sc_out[u] == value(rank, i, round), "scatter" + at);
      expect(strided[2 * u] == value(root, i, round), "strided bcast" + at);
      for (int m = 0; m < size; ++m) {
        if (rank == root)
          expect(ga_out[static_cast<std::size_t>(m * n + i)] == value(m, i, round), "gather" + at);
        expect(ag_out[static_cast<std::size_t>(m * n + i)] == value(m, i, round), "allgather" + at);
      }
    }
    for (int m = 0; m < size; ++m) {
      const auto um = static_cast<std::size_t>(m);
      for (int i = 0; i < 2; ++i) {
        expect(a2a_out[2 * um + static_cast<std::size_t>(i)] == value(m, rank, round) + i,
               "alltoall" + at);
      }
      for (int i = 0; i < counts[um]; ++i) {
        const auto k = static_cast<std::size_t>(displs[um] + i);
        if (rank == root) expect(gv_out[k] == value(m, i, round), "gatherv" + at);
        expect(agv_out[k] == value(m, i, round), "allgatherv" + at);
      }
    }
    for (int i = 0; i < 3; ++i) {
      int sum = 0;
      for (int m = 0; m < size; ++m) sum += value(m, rank + i, round);
      expect(rsb_out[static_cast<std::size_t>(i)] == sum, "reduce_scatter_block" + at);
    }
  }

  void free_all() {
    for (MPI_Request& r : requests) MPI_Request_free(&r);
    for (MPI_Request r : requests) expect(r == MPI_REQUEST_NULL, "request freed");
  }
};

// Complete every request: the rank's way of the round.
void complete(std::vector<MPI_Request>& all, int how) {
  const int count = static_cast<int>(all.size());
  switch (how) {
    case 0:
      for (MPI_Request& r : all) MPI_Wait(&r, MPI_STATUS_IGNORE);
      break;
    case 1:
      MPI_Waitall(count, all.data(), MPI_STATUSES_IGNORE);
      break;
    case 2: {
      int flag = 0;
      while (!flag) MPI_Testall(count, all.data(), &flag, MPI_STATUSES_IGNORE);
      break;
    }
    case 3: {  // Testany until none is active (a persistent request stays, inactive)
      for (;;) {
        int index = 0, flag = 0;
        MPI_Testany(count, all.data(), &index, &flag, MPI_STATUS_IGNORE);
        if (flag && index == MPI_UNDEFINED) break;
      }
      break;
    }
    default: {
      std::vector<int> indices(all.size());
      for (;;) {
        int outcount = 0;
        MPI_Waitsome(count, all.data(), &outcount, indices.data(), MPI_STATUSES_IGNORE);
        if (outcount == MPI_UNDEFINED) break;
      }
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
  int world_size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &world_size);
  const int rounds = argc > 1 ? std::atoi(argv[1]) : 8;
  keep_type = argc > 2 && std::string(argv[2]) == "--keep-type";
  MPI_Comm half;
  MPI_Comm_split(MPI_COMM_WORLD, world_rank % 2, -world_rank, &half);
  Rounds on_world(MPI_COMM_WORLD), on_half(half);

  // A persistent point-to-point pair in the same Startall: a ring shift of one int.
  int ring_out = 0, ring_in = -1;
  MPI_Request ring[2];
  MPI_Send_init(&ring_out, 1, MPI_INT, (world_rank + 1) % world_size, 9, MPI_COMM_WORLD, &ring[0]);
  MPI_Recv_init(&ring_in, 1, MPI_INT, (world_rank + world_size - 1) % world_size, 9, MPI_COMM_WORLD,
                &ring[1]);

  for (int round = 0; round < rounds; ++round) {
    on_world.fill(round);
    on_half.fill(round);
    ring_out = value(world_rank, 0, round);
    std::vector<MPI_Request> all(on_world.requests);
    all.insert(all.end(), on_half.requests.begin(), on_half.requests.end());
    all.insert(all.end(), ring, ring + 2);
    // Started in an order of each rank's own: MPI-4 matches persistent collectives by the order
    // they were bound in (MPICH's p_order), not started in.
    std::vector<MPI_Request> order(all);
    std::mt19937 rng(static_cast<unsigned>(world_rank * 7919 + round));
    std::shuffle(order.begin(), order.end(), rng);
    MPI_Startall(static_cast<int>(order.size()), order.data());
    complete(all, (world_rank + round) % 5);
    on_world.check(round);
    on_half.check(round);
    expect(ring_in == value((world_rank + world_size - 1) % world_size, 0, round), "ring");
  }
  on_world.free_all();
  on_half.free_all();
  MPI_Request_free(&ring[0]);
  MPI_Request_free(&ring[1]);
  MPI_Comm_free(&half);
  long total = 0;
  MPI_Reduce(&checked, &total, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  if (world_rank == 0)
    std::printf("persistent_rounds: %d rounds, %ld checks passed\n", rounds, total);
  MPI_Finalize();
  return 0;
}
