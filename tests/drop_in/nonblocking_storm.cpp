// A plain MPI program (no ccl in it): a window of nonblocking collectives of every kind the
// drop-in runs, on four communicators at once, mixed with point-to-point requests, each rank
// completing them its own way: MPI_Wait, Test, Waitall, Testall, Waitany, Testany, Waitsome,
// Testsome and Request_get_status, chosen by a per-rank random stream. Every result is checked
// against values computed locally. Datatypes are freed, and communicators made, while
// collectives are in flight, as MPI allows. Under libccl_mpi it once crashed (a gather's
// receive type freed before the wait, then unpacked) and hung (Open MPI's MPI_Comm_idup
// meeting the program's own nonblocking collectives); it must finish either way.
//   nonblocking_storm [OPERATIONS]
//   nonblocking_storm poll-hang   the last rank never joins an MPI_Iallreduce that the others only
//                                 poll with MPI_Test: the watchdog (CCL_TIMEOUT) must report it
#include <mpi.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <unistd.h>

namespace {

constexpr int kWindow = 12;
constexpr int kComms = 4;
constexpr int kCount = 5;  // ints per member's block
int world_rank = 0, world_size = 1;
long checked = 0;

void expect(bool ok, const std::string& what) {
  ++checked;
  if (ok) return;
  std::fprintf(stderr, "nonblocking_storm: rank %d: FAILED: %s\n", world_rank, what.c_str());
  MPI_Abort(MPI_COMM_WORLD, 1);
}

// The same sequence on every rank (what to post) or a rank's own (how to complete).
struct Random {
  std::uint64_t s;
  unsigned next(unsigned n) {
    s = s * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<unsigned>((s >> 33) % n);
  }
};

int value(int op, int rank, int i) {
  return (op * 131 + rank * 17 + i * 7) % 1000;
}

enum Kind {
  bcast,
  reduce,
  allreduce,
  scatter,
  gather_strided,
  allgather,
  alltoall,
  scan,
  exscan,
  barrier,
  allgatherv,
  alltoallv,
  reduce_scatter_block,
  ring_p2p,
  kinds
};
const char* const kNames[] = {"Ibcast",
                              "Ireduce",
                              "Iallreduce",
                              "Iscatter",
                              "Igather (strided)",
                              "Iallgather",
                              "Ialltoall",
                              "Iscan",
                              "Iexscan",
                              "Ibarrier",
                              "Iallgatherv",
                              "Ialltoallv",
                              "Ireduce_scatter_block",
                              "Isend/Irecv"};

// One slot of the window: its buffers, what was posted and its requests (two for ring_p2p).
struct Slot {
  int op = -1, kind = 0, root = 0;
  MPI_Comm comm = MPI_COMM_NULL;
  std::vector<int> in, out;
  MPI_Request req[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
};

// Every third element of the strided type is the data; the rest must stay untouched.
constexpr int kStride = 3, kUntouched = -7;

void post(Slot& s, int op, Random& shared, const std::vector<MPI_Comm>& comms) {
  s.op = op;
  s.kind = static_cast<int>(shared.next(kinds));
  s.comm = comms[shared.next(kComms)];
  int r = 0, n = 1;
  MPI_Comm_rank(s.comm, &r);
  MPI_Comm_size(s.comm, &n);
  // Drawn alike on every rank whatever the size of its communicator: the stream stays shared.
  s.root = static_cast<int>(shared.next(1u << 20) % static_cast<unsigned>(n));
  const int block = kCount, all = kCount * n;
  s.in.assign(static_cast<std::size_t>(all * kStride), 0);
  s.out.assign(static_cast<std::size_t>(all * kStride), kUntouched);
  for (int i = 0; i < all; ++i) s.in[static_cast<std::size_t>(i)] = value(op, r, i);
  std::vector<int> counts(static_cast<std::size_t>(n)), displs(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) {
    counts[static_cast<std::size_t>(i)] = 1 + (i + op) % block;  // uneven blocks
    displs[static_cast<std::size_t>(i)] = i * block;
  }
  int* in = s.in.data();
  int* out = s.out.data();
  MPI_Request* q = s.req;
  switch (s.kind) {
    case bcast:
      if (r != s.root) s.in.assign(s.in.size(), -1);
      MPI_Ibcast(in, block, MPI_INT, s.root, s.comm, q);
      break;
    case reduce:
      MPI_Ireduce(in, out, block, MPI_INT, MPI_SUM, s.root, s.comm, q);
      break;
    case allreduce:
      MPI_Iallreduce(in, out, block, MPI_INT, MPI_MAX, s.comm, q);
      break;
    case scatter:
      MPI_Iscatter(in, block, MPI_INT, out, block, MPI_INT, s.root, s.comm, q);
      break;
    case gather_strided: {
      // The root receives through a strided type it frees before the collective completes.
      MPI_Datatype vec, strided, dup;
      MPI_Type_vector(1, 1, kStride, MPI_INT, &vec);
      MPI_Type_create_resized(vec, 0, kStride * static_cast<MPI_Aint>(sizeof(int)), &strided);
      MPI_Type_free(&vec);
      MPI_Type_commit(&strided);
      MPI_Type_dup(strided, &dup);
      MPI_Type_free(&strided);
      MPI_Igather(in, block, MPI_INT, out, block, dup, s.root, s.comm, q);
      MPI_Type_free(&dup);
      break;
    }
    case allgather:
      MPI_Iallgather(in, block, MPI_INT, out, block, MPI_INT, s.comm, q);
      break;
    case alltoall:
      MPI_Ialltoall(in, block, MPI_INT, out, block, MPI_INT, s.comm, q);
      break;
    case scan:
      MPI_Iscan(in, out, block, MPI_INT, MPI_SUM, s.comm, q);
      break;
    case exscan:
      MPI_Iexscan(in, out, block, MPI_INT, MPI_SUM, s.comm, q);
      break;
    case barrier:
      MPI_Ibarrier(s.comm, q);
      break;
    case allgatherv:
      MPI_Iallgatherv(in, counts[static_cast<std::size_t>(r)], MPI_INT, out, counts.data(),
                      displs.data(), MPI_INT, s.comm, q);
      break;
    case alltoallv:  // member r sends counts[j] to j and receives counts[r] from everyone
    {
      std::vector<int> rc(static_cast<std::size_t>(n), counts[static_cast<std::size_t>(r)]);
      MPI_Ialltoallv(in, counts.data(), displs.data(), MPI_INT, out, rc.data(), displs.data(),
                     MPI_INT, s.comm, q);
    } break;
    case reduce_scatter_block:
      MPI_Ireduce_scatter_block(in, out, block, MPI_INT, MPI_SUM, s.comm, q);
      break;
    default:  // a ring of point-to-point messages on the same communicator
      MPI_Irecv(out, block, MPI_INT, (r + n - 1) % n, op % 1000, s.comm, &q[0]);
      MPI_Isend(in, block, MPI_INT, (r + 1) % n, op % 1000, s.comm, &q[1]);
      break;
  }
}

void check(const Slot& s) {
  int r = 0, n = 1;
  MPI_Comm_rank(s.comm, &r);
  MPI_Comm_size(s.comm, &n);
  const std::string what = std::string(kNames[s.kind]) + " #" + std::to_string(s.op);
  auto at = [&](int i) { return s.out[static_cast<std::size_t>(i)]; };
  const int block = kCount;
  for (int i = 0; i < block && s.kind != barrier; ++i) {
    long sum = 0, before = 0, maximum = -1;
    for (int m = 0; m < n; ++m) {
      sum += value(s.op, m, i);
      if (m < r) before += value(s.op, m, i);
      if (value(s.op, m, i) > maximum) maximum = value(s.op, m, i);
    }
    switch (s.kind) {
      case bcast:
        expect(s.in[static_cast<std::size_t>(i)] == value(s.op, s.root, i), what);
        break;
      case reduce:
        expect(r != s.root || at(i) == sum, what);
        break;
      case allreduce:
        expect(at(i) == maximum, what);
        break;
      case scatter:
        expect(at(i) == value(s.op, s.root, r * block + i), what);
        break;
      case gather_strided:
        for (int m = 0; m < n && r == s.root; ++m) {
          expect(at((m * block + i) * kStride) == value(s.op, m, i), what);
          expect(at((m * block + i) * kStride + 1) == kUntouched, what + ": a gap was written");
        }
        break;
      case allgather:
        for (int m = 0; m < n; ++m) expect(at(m * block + i) == value(s.op, m, i), what);
        break;
      case alltoall:
        for (int m = 0; m < n; ++m)
          expect(at(m * block + i) == value(s.op, m, r * block + i), what);
        break;
      case scan:
        expect(at(i) == before + value(s.op, r, i), what);
        break;
      case exscan:
        expect(r == 0 || at(i) == before, what);
        break;
      case reduce_scatter_block: {
        long column = 0;
        for (int m = 0; m < n; ++m) column += value(s.op, m, r * block + i);
        expect(at(i) == column, what);
        break;
      }
      case ring_p2p:
        expect(at(i) == value(s.op, (r + n - 1) % n, i), what);
        break;
      default:
        break;
    }
  }
  const int mine = 1 + (r + s.op) % block;  // this member's count in the v-forms
  for (int m = 0; m < n; ++m) {
    for (int i = 0; s.kind == allgatherv && i < 1 + (m + s.op) % block; ++i) {
      expect(at(m * block + i) == value(s.op, m, i), what);
    }
    for (int i = 0; s.kind == alltoallv && i < mine; ++i) {
      expect(at(m * block + i) == value(s.op, m, r * block + i), what);
    }
  }
}

bool finished(const Slot& s) {
  return s.req[0] == MPI_REQUEST_NULL && s.req[1] == MPI_REQUEST_NULL;
}

// Complete some requests of the window, in one of nine ways.
void complete_some(std::vector<Slot>& window, Random& own) {
  std::vector<MPI_Request> all;
  for (Slot& s : window) all.insert(all.end(), {s.req[0], s.req[1]});
  const int n = static_cast<int>(all.size());
  std::vector<int> indices(all.size());
  int flag = 0, index = 0, outcount = 0;
  const unsigned pick = own.next(static_cast<unsigned>(n));
  switch (own.next(9)) {
    case 0:
      MPI_Waitall(n, all.data(), MPI_STATUSES_IGNORE);
      break;
    case 1:
      MPI_Testall(n, all.data(), &flag, MPI_STATUSES_IGNORE);
      break;
    case 2:
      MPI_Waitany(n, all.data(), &index, MPI_STATUS_IGNORE);
      break;
    case 3:
      MPI_Testany(n, all.data(), &index, &flag, MPI_STATUS_IGNORE);
      break;
    case 4:
      MPI_Waitsome(n, all.data(), &outcount, indices.data(), MPI_STATUSES_IGNORE);
      break;
    case 5:
      MPI_Testsome(n, all.data(), &outcount, indices.data(), MPI_STATUSES_IGNORE);
      break;
    case 6:
      MPI_Wait(&all[pick], MPI_STATUS_IGNORE);
      break;
    case 7:
      MPI_Test(&all[pick], &flag, MPI_STATUS_IGNORE);
      break;
    default:  // a status query does not free: complete it with a test once it says done
      if (all[pick] != MPI_REQUEST_NULL) {
        MPI_Request_get_status(all[pick], &flag, MPI_STATUS_IGNORE);
        if (flag) MPI_Test(&all[pick], &flag, MPI_STATUS_IGNORE);
      }
      break;
  }
  for (std::size_t i = 0; i < window.size(); ++i) {
    window[i].req[0] = all[2 * i];
    window[i].req[1] = all[2 * i + 1];
  }
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &world_size);
  if (argc > 1 && std::string(argv[1]) == "poll-hang") {
    int x = 1, y = 0, flag = 0;
    MPI_Request q;
    if (world_rank == world_size - 1) {
      sleep(120);
    } else {
      MPI_Iallreduce(&x, &y, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &q);
      while (!flag) MPI_Test(&q, &flag, MPI_STATUS_IGNORE);
    }
    std::fprintf(stderr, "nonblocking_storm: rank %d: the unfinished allreduce ended\n",
                 world_rank);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  const int operations = argc > 1 ? std::atoi(argv[1]) : 3000;
  std::vector<MPI_Comm> comms{MPI_COMM_WORLD};
  for (int i = 1; i < kComms; ++i) {
    MPI_Comm c;
    // Made while the world's first collectives are in flight.
    if (i == 2) {
      int x = world_rank, y = 0;
      MPI_Request q;
      MPI_Iallreduce(&x, &y, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &q);
      MPI_Comm_split(MPI_COMM_WORLD, world_rank % 2, -world_rank, &c);
      MPI_Wait(&q, MPI_STATUS_IGNORE);
      expect(y == world_size * (world_size - 1) / 2, "Iallreduce beside MPI_Comm_split");
    } else {
      MPI_Comm_dup(MPI_COMM_WORLD, &c);
    }
    comms.push_back(c);
  }
  // Posting is the same on every member (sub-communicators too: every rank posts every
  // operation, on its own half for the split one); completing is each rank's own.
  Random shared{2024}, own{static_cast<std::uint64_t>(world_rank) * 7777 + 1};
  std::vector<Slot> window(kWindow);
  int posted = 0, done = 0;
  for (Slot& s : window) post(s, posted++, shared, comms);
  while (done < operations) {
    complete_some(window, own);
    for (Slot& s : window) {
      if (s.op < 0 || !finished(s)) continue;
      check(s);
      ++done;
      s.op = -1;
      if (posted < operations) post(s, posted++, shared, comms);
    }
  }
  for (std::size_t i = 1; i < comms.size(); ++i) MPI_Comm_free(&comms[i]);
  long all_checks = 0;
  MPI_Reduce(&checked, &all_checks, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  if (world_rank == 0) {
    std::printf("nonblocking_storm: %d ranks, %d operations, %ld checks: OK\n", world_size, done,
                all_checks);
  }
  MPI_Finalize();
  return 0;
}
