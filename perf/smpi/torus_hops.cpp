// ccl-torus-hops: checks, under SMPI on a platform from torus_platform.sh, that the simulated
// torus numbers its nodes as ccl's Torus numbers ranks: every ccl neighbour (±1 in a dimension)
// must be one link away. Otherwise the torus allgathers' "neighbour" steps cross several links
// and share them, and the study measures a mislaid torus, not the algorithm.
//
//   smpirun -np N -platform T.xml -hostfile T.hosts ccl-torus-hops SHAPE
//
// How: for every rank and dimension, one at a time, the rank and its +1 neighbour play
// ping-pong with 1 byte (3 round trips, the fastest kept: the first may wait for the partner to
// leave the barrier). All these round trips must agree within 1%. As a control that the round
// trip does see distance, a partner 2 places along a dimension of size ≥ 4 must take at least
// 1.5 times as long. Exit 0 when both hold, 1 when not, 2 on bad arguments, on every rank.
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "ccl/grids/cartesian.hpp"
#include "ccl/grids/torus.hpp"

namespace {

// The fastest of 3 round trips of 1 byte between `me` and `partner`, timed at `initiator`
// (0 elsewhere). Every rank calls it: a barrier first, so that one pair runs at a time.
double round_trip(int me, int initiator, int partner) {
  MPI_Barrier(MPI_COMM_WORLD);
  char byte = 0;
  double best = 0;
  for (int rep = 0; rep < 3; ++rep) {
    if (me == initiator) {
      const double t0 = MPI_Wtime();
      MPI_Send(&byte, 1, MPI_CHAR, partner, 0, MPI_COMM_WORLD);
      MPI_Recv(&byte, 1, MPI_CHAR, partner, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      const double t = MPI_Wtime() - t0;
      best = rep == 0 ? t : std::min(best, t);
    } else if (me == partner) {
      MPI_Recv(&byte, 1, MPI_CHAR, initiator, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(&byte, 1, MPI_CHAR, initiator, 0, MPI_COMM_WORLD);
    }
  }
  return best;
}

// Rank 0's verdict, given every rank's round trip to its +1 neighbour per dimension (0 where
// the dimension has size 1) and the control's round trip (0 when no dimension has size ≥ 4).
bool judge(const ccl::grids::Cartesian& shape, const std::vector<double>& one_hop,
           double two_places) {
  double lo = 0, hi = 0;
  int pairs = 0;
  for (const double t : one_hop) {
    if (t <= 0) continue;
    lo = pairs == 0 ? t : std::min(lo, t);
    hi = pairs == 0 ? t : std::max(hi, t);
    ++pairs;
  }
  const auto ns = [](double t) { return t * 1e9; };
  bool ok = pairs == 0 || hi <= 1.01 * lo;
  std::printf("ccl-torus-hops: %s: %d neighbour pairs, round trip %.0f..%.0f ns%s\n",
              shape.str().c_str(), pairs, ns(lo), ns(hi),
              ok ? "" : ": NOT all one hop (the platform numbers its nodes otherwise)");
  int slow = 0;  // the first few pairs that took longer than one hop, then how many in all
  for (int r = 0; r < shape.size(); ++r) {
    for (int d = 0; d < shape.ndims(); ++d) {
      const double t = one_hop[static_cast<std::size_t>(r * shape.ndims() + d)];
      if (t > 1.01 * lo && ++slow <= 8) {
        std::printf("  rank %d -> %d (dimension %d): %.0f ns\n", r, shape.neighbour(r, d, 1), d,
                    ns(t));
      }
    }
  }
  if (slow > 8) std::printf("  ... %d pairs longer than one hop in all\n", slow);
  if (two_places > 0) {
    const bool seen = two_places >= 1.5 * lo;
    std::printf("ccl-torus-hops: control, 2 places along a dimension: %.0f ns%s\n", ns(two_places),
                seen ? "" : ": NOT longer than one hop (the check cannot see distance)");
    ok = ok && seen;
  }
  std::printf("ccl-torus-hops: %s\n", ok ? "OK" : "FAILED");
  return ok;
}

int run(int me, int size, const std::string& shape_text) {
  const ccl::grids::Cartesian shape = ccl::grids::torus_shape(shape_text, size);
  const int nd = shape.ndims();
  std::vector<double> mine(static_cast<std::size_t>(nd), 0.0);
  for (int r = 0; r < size; ++r) {
    for (int d = 0; d < nd; ++d) {
      if (shape.dim(d) == 1) continue;
      const double t = round_trip(me, r, shape.neighbour(r, d, 1));
      if (me == r) mine[static_cast<std::size_t>(d)] = t;
    }
  }
  double two_places = 0;
  for (int d = 0; d < nd; ++d) {
    if (shape.dim(d) < 4) continue;
    two_places = round_trip(me, 0, shape.neighbour(0, d, 2));
    break;
  }
  std::vector<double> all(me == 0 ? static_cast<std::size_t>(size * nd) : 0);
  MPI_Gather(mine.data(), nd, MPI_DOUBLE, all.data(), nd, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  int ok = me == 0 ? judge(shape, all, two_places) : 0;
  MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
  return ok ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int me = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int status = 2;
  if (argc != 2) {
    if (me == 0) std::fprintf(stderr, "usage: ccl-torus-hops SHAPE (e.g. 4x3x2, under smpirun)\n");
  } else {
    try {
      status = run(me, size, argv[1]);
    } catch (const std::exception& e) {  // a bad shape: every rank finds it before communicating
      if (me == 0) std::fprintf(stderr, "ccl-torus-hops: %s\n", e.what());
    }
  }
  MPI_Finalize();
  return status;
}
