#include "torus_links.hpp"

#include <mpi.h>

#include <algorithm>
#include <cstddef>
#include <vector>

#include "ccl/collectives.hpp"

namespace {

constexpr int kTag = 7391;

// Half a round trip of `bytes` between world ranks `a` and `b`, mean over `iters`, best of 3;
// the time on `a`, 0 elsewhere. Members other than a and b do nothing.
double half_round_trip(int me, int a, int b, std::size_t bytes, int iters) {
  if (me != a && me != b) return 0;
  std::vector<char> buffer(std::max<std::size_t>(bytes, 1));
  const int n = static_cast<int>(bytes);
  double best = 1e30;
  for (int rep = 0; rep < 3; ++rep) {
    const double t0 = MPI_Wtime();
    for (int i = 0; i < iters; ++i) {
      if (me == a) {
        MPI_Send(buffer.data(), n, MPI_CHAR, b, kTag, MPI_COMM_WORLD);
        MPI_Recv(buffer.data(), n, MPI_CHAR, b, kTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      } else {
        MPI_Recv(buffer.data(), n, MPI_CHAR, a, kTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(buffer.data(), n, MPI_CHAR, a, kTag, MPI_COMM_WORLD);
      }
    }
    best = std::min(best, (MPI_Wtime() - t0) / (2.0 * iters));
  }
  return me == a ? best : 0;
}

// Member 0 sends `bytes` to each of `peers` at once; each answers with an empty message. The
// time until the last answer, on member 0 (0 elsewhere).
double fan_out(int me, const std::vector<int>& peers, std::size_t bytes) {
  const int n = static_cast<int>(bytes);
  std::vector<char> buffer(bytes);
  if (me == 0) {
    double best = 1e30;
    for (int rep = 0; rep < 3; ++rep) {
      std::vector<MPI_Request> requests(2 * peers.size());
      const double t0 = MPI_Wtime();
      for (std::size_t i = 0; i < peers.size(); ++i) {
        MPI_Isend(buffer.data(), n, MPI_CHAR, peers[i], kTag, MPI_COMM_WORLD, &requests[2 * i]);
        MPI_Irecv(nullptr, 0, MPI_CHAR, peers[i], kTag, MPI_COMM_WORLD, &requests[2 * i + 1]);
      }
      MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE);
      best = std::min(best, MPI_Wtime() - t0);
    }
    return best;
  }
  if (std::find(peers.begin(), peers.end(), me) != peers.end()) {
    for (int rep = 0; rep < 3; ++rep) {
      MPI_Recv(buffer.data(), n, MPI_CHAR, 0, kTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(nullptr, 0, MPI_CHAR, 0, kTag, MPI_COMM_WORLD);
    }
  }
  return 0;
}

}  // namespace

ccl::TorusLinkModel measure_torus_links(const ccl::Group& world, bool quick) {
  const std::vector<int> dims(world.torus().begin(), world.torus().end());
  const int me = world.rank();
  // Row-major strides; member 0's neighbours, each once (a dimension of 2 has one).
  std::vector<int> stride(dims.size(), 1), neighbours, long_dims;
  for (std::size_t d = dims.size() - 1; d-- > 0;) stride[d] = stride[d + 1] * dims[d + 1];
  for (std::size_t d = 0; d < dims.size(); ++d) {
    if (dims[d] < 2) continue;
    long_dims.push_back(static_cast<int>(d));
    neighbours.push_back(stride[d]);
    if (dims[d] > 2) neighbours.push_back((dims[d] - 1) * stride[d]);
  }
  ccl::TorusLinkModel t;
  if (neighbours.empty()) return t;
  const int near = stride[static_cast<std::size_t>(long_dims.back())];
  // Two links away: along the fastest long dimension when it has 4 or more, else one link in
  // each of two dimensions.
  int far = -1;
  const auto last = static_cast<std::size_t>(long_dims.back());
  if (dims[last] >= 4) {
    far = 2 * stride[last];
  } else if (long_dims.size() >= 2) {
    far = near + stride[static_cast<std::size_t>(long_dims[long_dims.size() - 2])];
  }
  const int iters = quick ? 20 : 200;
  const double small = half_round_trip(me, 0, near, 8, iters);
  const double mid = half_round_trip(me, 0, near, 64 << 10, iters / 4 + 1);
  const double large = half_round_trip(me, 0, near, 1 << 20, iters / 10 + 1);
  const double two_links = far >= 0 ? half_round_trip(me, 0, far, 8, iters) : small;
  std::vector<double> fans;
  for (std::size_t m = 1; m <= neighbours.size(); ++m) {
    fans.push_back(
        fan_out(me, std::vector<int>(neighbours.begin(), neighbours.begin() + m), 1 << 20));
  }
  double values[4] = {0, 0, 0, 0};
  if (me == 0) {
    t.beta = std::max((large - mid) / double((1 << 20) - (64 << 10)), 0.0);
    t.hop = std::max(two_links - small, 0.0);
    t.alpha = std::max(small - t.hop - 8 * t.beta, 0.0);
    std::size_t ports = 1;
    while (ports < fans.size() && fans[ports] <= 1.5 * fans[0]) ++ports;
    values[0] = t.alpha, values[1] = t.hop, values[2] = t.beta, values[3] = double(ports);
  }
  ccl::bcast(world, std::span<double>(values, 4), 0);
  t.alpha = values[0], t.hop = values[1], t.beta = values[2];
  t.ports = static_cast<int>(values[3]);
  return t;
}
