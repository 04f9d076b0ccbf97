// Persistent collectives, as MPI-4's MPI_Bcast_init and its kin: a call bound once to its group,
// buffers and arguments, then started any number of times. Members bind the persistent calls of
// a group in the same order (as MPI-4 asks of its _init calls) and may start them in any order,
// among themselves and among the group's other collectives: rounds are matched by binding.
//
// Binding is local. It checks the call and fixes its shape and schedule once (throwing
// ccl::Error as the call would), so a start only launches the schedule. Develop mode still checks
// every start across the members, as it checks any call. Between start() and the completion of
// test() or wait() the round owns the buffers, as a nonblocking call does; they must outlive the
// Persistent. Destroying an active one waits for its round.
//
//   std::vector<double> field(n);
//   ccl::Persistent halo = ccl::bcast_init(g, field, 0);
//   for (int step = 0; step < steps; ++step) {
//     halo.start();
//     ...
//     halo.wait();
//   }
#pragma once

#include <memory>
#include <span>

#include "ccl/collectives.hpp"

namespace ccl {

namespace detail {
struct Bound;
}

class Persistent {
 public:
  Persistent();
  explicit Persistent(std::unique_ptr<detail::Bound> bound);
  Persistent(Persistent&&) noexcept;
  Persistent& operator=(Persistent&&) noexcept;
  ~Persistent();

  bool valid() const { return bound_ != nullptr; }
  // A round was started and has not been completed by test() or wait().
  bool active() const;
  // Start a round; throws ccl::Error while the previous one is active.
  void start();
  // True once the round is complete (at once when none is active); throws ccl::Error if the
  // round failed.
  bool test();
  void wait();

 private:
  std::unique_ptr<detail::Bound> bound_;
};

// Start every one, in order (MPI_Startall).
void start_all(std::span<Persistent> calls);

namespace detail {
Persistent bind(const Group& g, Call call);
}

template <WriteBuffer B>
Persistent bcast_init(const Group& g, B&& buf, int root) {
  return detail::bind(g, detail::bcast_call(buf, root));
}

template <ReadBuffer S, WriteBuffer R, class Op>
Persistent reduce_init(const Group& g, const S& send, R&& recv, Op op, int root) {
  return detail::bind(g, detail::reduce_call(send, recv, std::move(op), root));
}

template <ReadBuffer S, WriteBuffer R, class Op>
Persistent combine_init(const Group& g, const S& send, R&& recv, Op op) {
  return detail::bind(g, detail::combine_call(send, recv, std::move(op)));
}

template <ReadBuffer S, WriteBuffer R, class Op>
Persistent prefix_init(const Group& g, const S& send, R&& recv, Op op) {
  return detail::bind(g, detail::prefix_call(send, recv, std::move(op)));
}

template <ReadBuffer S, WriteBuffer R>
Persistent scatter_init(const Group& g, const S& send, R&& recv, int root) {
  return detail::bind(g, detail::scatter_call(send, recv, root));
}

template <ReadBuffer S, WriteBuffer R>
Persistent gather_init(const Group& g, const S& send, R&& recv, int root) {
  return detail::bind(g, detail::gather_call(send, recv, root));
}

template <ReadBuffer S, WriteBuffer R>
Persistent concat_init(const Group& g, const S& send, R&& recv) {
  return detail::bind(g, detail::concat_call(send, recv));
}

template <ReadBuffer S, WriteBuffer R>
Persistent index_init(const Group& g, const S& send, R&& recv) {
  return detail::bind(g, detail::index_call(send, recv));
}

template <ReadBuffer S, WriteBuffer R>
Persistent shift_init(const Group& g, const S& send, R&& recv, int distance) {
  return detail::bind(g, detail::shift_call(send, recv, distance));
}

template <ReadBuffer S, WriteBuffer R, CountList C>
Persistent concatv_init(const Group& g, const S& send, R&& recv, const C& counts) {
  return detail::bind(g, detail::concatv_call(send, recv, counts));
}

template <ReadBuffer S, WriteBuffer R, CountList C>
Persistent gatherv_init(const Group& g, const S& send, R&& recv, const C& counts, int root) {
  return detail::bind(g, detail::gatherv_call(send, recv, counts, root));
}

template <ReadBuffer S, WriteBuffer R, CountList C>
Persistent scatterv_init(const Group& g, const S& send, R&& recv, const C& counts, int root) {
  return detail::bind(g, detail::scatterv_call(send, recv, counts, root));
}

template <ReadBuffer S, CountList SC, WriteBuffer R, CountList RC>
Persistent indexv_init(const Group& g, const S& send, const SC& send_counts, R&& recv,
                       const RC& recv_counts) {
  return detail::bind(g, detail::indexv_call(send, send_counts, recv, recv_counts));
}

inline Persistent sync_init(const Group& g) {
  return detail::bind(g, detail::sync_call());
}

}  // namespace ccl
