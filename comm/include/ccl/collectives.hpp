// The ten CCL collectives and the vector forms, typed over any trivially copyable element, with
// blocking and nonblocking (i...) forms. Buffers are contiguous ranges (std::span, std::vector,
// arrays); blocks of the block-wise collectives are laid out in group-rank order.
//
// Buffer rules (checked on every call; a violation throws ccl::Error, on every member in develop
// mode):
//   bcast(buf, root)              buf has the same length everywhere.
//   reduce(send, recv, op, root)  recv has send's length at the root; ignored elsewhere.
//   combine / prefix(send, recv, op)   recv has send's length.
//   scatter(send, recv, root)     root's send holds size()*recv.size() elements.
//   gather(send, recv, root)      root's recv holds size()*send.size() elements.
//   concat(send, recv)            recv holds size()*send.size() elements.
//   index(send, recv)             both hold size()*n elements; block j of send goes to member j.
//   shift(send, recv, d)          member r's send arrives in the recv of member (r + d) mod size().
//   v-forms take counts[i] = elements of member i's block, the same on every member; blocks are
//   packed in rank order. indexv takes the counts sent to and received from each member.
// In place: send and recv may be the same memory for reduce (root), combine, prefix, shift and
// index (and indexv with equal counts); for concat, gather (root) and scatter (root) the small
// buffer may be the member's own block inside the large one. Any other overlap is an error.
// Reductions keep rank order for non-commutative operators; every member of a combine gets the
// same bits.
#pragma once

#include <cstddef>
#include <ranges>
#include <span>
#include <type_traits>
#include <vector>

#include "ccl/call.hpp"
#include "ccl/error.hpp"
#include "ccl/group.hpp"
#include "ccl/reduce_op.hpp"
#include "ccl/request.hpp"

namespace ccl {

template <class R>
concept ReadBuffer = std::ranges::contiguous_range<R> && std::ranges::sized_range<R> &&
    std::is_trivially_copyable_v<std::ranges::range_value_t<R>>;
template <class R>
concept WriteBuffer =
    ReadBuffer<R> && !std::is_const_v<std::remove_reference_t<std::ranges::range_reference_t<R>>>;
template <class R>
concept CountList =
    std::ranges::input_range<R> && std::is_integral_v<std::ranges::range_value_t<R>>;

namespace detail {

template <class R>
using elem_t = std::remove_cv_t<std::ranges::range_value_t<R>>;

template <class S, class R>
void require_same_element() {
  static_assert(std::is_same_v<elem_t<S>, elem_t<R>>, "send and recv element types differ");
}

template <class R>
void set_send(Call& c, const R& r) {
  c.send = reinterpret_cast<const std::byte*>(std::ranges::data(r));
  c.send_elems = std::ranges::size(r);
}
template <class R>
void set_recv(Call& c, R&& r) {
  c.recv = reinterpret_cast<std::byte*>(std::ranges::data(r));
  c.recv_elems = std::ranges::size(r);
}
template <class C>
std::vector<std::size_t> to_counts(const C& counts) {
  std::vector<std::size_t> out;
  for (auto v : counts) {
    if (v < 0) throw Error("ccl: negative count in counts list");
    out.push_back(static_cast<std::size_t>(v));
  }
  return out;
}
template <class T>
Call make_call(CollKind kind) {
  Call c;
  c.kind = kind;
  c.elem = sizeof(T);
  return c;
}
template <class S, class R>
Call send_recv_call(CollKind kind, const S& send, R&& recv) {
  require_same_element<S, R>();
  Call c = make_call<elem_t<S>>(kind);
  set_send(c, send);
  set_recv(c, recv);
  return c;
}
template <class S, class R, class Op>
Call reduction_call(CollKind kind, const S& send, R&& recv, Op op) {
  Call c = send_recv_call(kind, send, recv);
  c.kernel = make_kernel<elem_t<S>>(std::move(op));
  return c;
}

}  // namespace detail

// ---- the calls, as the library sees them ----

namespace detail {

template <WriteBuffer B>
Call bcast_call(B&& buf, int root) {
  auto c = make_call<elem_t<B>>(CollKind::bcast);
  set_recv(c, buf);
  c.send = c.recv;
  c.send_elems = c.recv_elems;
  c.root = root;
  return c;
}

template <ReadBuffer S, WriteBuffer R, class Op>
Call reduce_call(const S& send, R&& recv, Op op, int root) {
  auto c = reduction_call(CollKind::reduce, send, recv, std::move(op));
  c.root = root;
  return c;
}

template <ReadBuffer S, WriteBuffer R, class Op>
Call combine_call(const S& send, R&& recv, Op op) {
  auto c = reduction_call(CollKind::combine, send, recv, std::move(op));
  return c;
}

template <ReadBuffer S, WriteBuffer R, class Op>
Call prefix_call(const S& send, R&& recv, Op op) {
  auto c = reduction_call(CollKind::prefix, send, recv, std::move(op));
  return c;
}

template <ReadBuffer S, WriteBuffer R>
Call scatter_call(const S& send, R&& recv, int root) {
  auto c = send_recv_call(CollKind::scatter, send, recv);
  c.root = root;
  return c;
}

template <ReadBuffer S, WriteBuffer R>
Call gather_call(const S& send, R&& recv, int root) {
  auto c = send_recv_call(CollKind::gather, send, recv);
  c.root = root;
  return c;
}

template <ReadBuffer S, WriteBuffer R>
Call concat_call(const S& send, R&& recv) {
  auto c = send_recv_call(CollKind::concat, send, recv);
  return c;
}

template <ReadBuffer S, WriteBuffer R>
Call index_call(const S& send, R&& recv) {
  auto c = send_recv_call(CollKind::index, send, recv);
  return c;
}

template <ReadBuffer S, WriteBuffer R>
Call shift_call(const S& send, R&& recv, int distance) {
  auto c = send_recv_call(CollKind::shift, send, recv);
  c.distance = distance;
  return c;
}

template <ReadBuffer S, WriteBuffer R, CountList C>
Call concatv_call(const S& send, R&& recv, const C& counts) {
  auto c = send_recv_call(CollKind::concatv, send, recv);
  c.counts = to_counts(counts);
  return c;
}

template <ReadBuffer S, WriteBuffer R, CountList C>
Call gatherv_call(const S& send, R&& recv, const C& counts, int root) {
  auto c = send_recv_call(CollKind::gatherv, send, recv);
  c.counts = to_counts(counts);
  c.root = root;
  return c;
}

template <ReadBuffer S, WriteBuffer R, CountList C>
Call scatterv_call(const S& send, R&& recv, const C& counts, int root) {
  auto c = send_recv_call(CollKind::scatterv, send, recv);
  c.counts = to_counts(counts);
  c.root = root;
  return c;
}

template <ReadBuffer S, CountList SC, WriteBuffer R, CountList RC>
Call indexv_call(const S& send, const SC& send_counts, R&& recv, const RC& recv_counts) {
  auto c = send_recv_call(CollKind::indexv, send, recv);
  c.counts = to_counts(send_counts);
  c.recv_counts = to_counts(recv_counts);
  return c;
}

inline Call sync_call() {
  return make_call<char>(CollKind::sync);
}

}  // namespace detail

// ---- nonblocking forms: start and return a request ----

template <WriteBuffer B>
Request ibcast(const Group& g, B&& buf, int root) {
  return detail::start(g, detail::bcast_call(buf, root));
}

template <ReadBuffer S, WriteBuffer R, class Op>
Request ireduce(const Group& g, const S& send, R&& recv, Op op, int root) {
  return detail::start(g, detail::reduce_call(send, recv, std::move(op), root));
}

template <ReadBuffer S, WriteBuffer R, class Op>
Request icombine(const Group& g, const S& send, R&& recv, Op op) {
  return detail::start(g, detail::combine_call(send, recv, std::move(op)));
}

template <ReadBuffer S, WriteBuffer R, class Op>
Request iprefix(const Group& g, const S& send, R&& recv, Op op) {
  return detail::start(g, detail::prefix_call(send, recv, std::move(op)));
}

template <ReadBuffer S, WriteBuffer R>
Request iscatter(const Group& g, const S& send, R&& recv, int root) {
  return detail::start(g, detail::scatter_call(send, recv, root));
}

template <ReadBuffer S, WriteBuffer R>
Request igather(const Group& g, const S& send, R&& recv, int root) {
  return detail::start(g, detail::gather_call(send, recv, root));
}

template <ReadBuffer S, WriteBuffer R>
Request iconcat(const Group& g, const S& send, R&& recv) {
  return detail::start(g, detail::concat_call(send, recv));
}

template <ReadBuffer S, WriteBuffer R>
Request iindex(const Group& g, const S& send, R&& recv) {
  return detail::start(g, detail::index_call(send, recv));
}

template <ReadBuffer S, WriteBuffer R>
Request ishift(const Group& g, const S& send, R&& recv, int distance) {
  return detail::start(g, detail::shift_call(send, recv, distance));
}

template <ReadBuffer S, WriteBuffer R, CountList C>
Request iconcatv(const Group& g, const S& send, R&& recv, const C& counts) {
  return detail::start(g, detail::concatv_call(send, recv, counts));
}

template <ReadBuffer S, WriteBuffer R, CountList C>
Request igatherv(const Group& g, const S& send, R&& recv, const C& counts, int root) {
  return detail::start(g, detail::gatherv_call(send, recv, counts, root));
}

template <ReadBuffer S, WriteBuffer R, CountList C>
Request iscatterv(const Group& g, const S& send, R&& recv, const C& counts, int root) {
  return detail::start(g, detail::scatterv_call(send, recv, counts, root));
}

template <ReadBuffer S, CountList SC, WriteBuffer R, CountList RC>
Request iindexv(const Group& g, const S& send, const SC& send_counts, R&& recv,
                const RC& recv_counts) {
  return detail::start(g, detail::indexv_call(send, send_counts, recv, recv_counts));
}

inline Request isync(const Group& g) {
  return detail::start(g, detail::sync_call());
}

// ---- blocking forms: run to completion ----

template <WriteBuffer B>
void bcast(const Group& g, B&& buf, int root) {
  detail::run(g, detail::bcast_call(buf, root));
}

template <ReadBuffer S, WriteBuffer R, class Op>
void reduce(const Group& g, const S& send, R&& recv, Op op, int root) {
  detail::run(g, detail::reduce_call(send, recv, std::move(op), root));
}

template <ReadBuffer S, WriteBuffer R, class Op>
void combine(const Group& g, const S& send, R&& recv, Op op) {
  detail::run(g, detail::combine_call(send, recv, std::move(op)));
}

template <ReadBuffer S, WriteBuffer R, class Op>
void prefix(const Group& g, const S& send, R&& recv, Op op) {
  detail::run(g, detail::prefix_call(send, recv, std::move(op)));
}

template <ReadBuffer S, WriteBuffer R>
void scatter(const Group& g, const S& send, R&& recv, int root) {
  detail::run(g, detail::scatter_call(send, recv, root));
}

template <ReadBuffer S, WriteBuffer R>
void gather(const Group& g, const S& send, R&& recv, int root) {
  detail::run(g, detail::gather_call(send, recv, root));
}

template <ReadBuffer S, WriteBuffer R>
void concat(const Group& g, const S& send, R&& recv) {
  detail::run(g, detail::concat_call(send, recv));
}

template <ReadBuffer S, WriteBuffer R>
void index(const Group& g, const S& send, R&& recv) {
  detail::run(g, detail::index_call(send, recv));
}

template <ReadBuffer S, WriteBuffer R>
void shift(const Group& g, const S& send, R&& recv, int distance) {
  detail::run(g, detail::shift_call(send, recv, distance));
}

template <ReadBuffer S, WriteBuffer R, CountList C>
void concatv(const Group& g, const S& send, R&& recv, const C& counts) {
  detail::run(g, detail::concatv_call(send, recv, counts));
}

template <ReadBuffer S, WriteBuffer R, CountList C>
void gatherv(const Group& g, const S& send, R&& recv, const C& counts, int root) {
  detail::run(g, detail::gatherv_call(send, recv, counts, root));
}

template <ReadBuffer S, WriteBuffer R, CountList C>
void scatterv(const Group& g, const S& send, R&& recv, const C& counts, int root) {
  detail::run(g, detail::scatterv_call(send, recv, counts, root));
}

template <ReadBuffer S, CountList SC, WriteBuffer R, CountList RC>
void indexv(const Group& g, const S& send, const SC& send_counts, R&& recv, const RC& recv_counts) {
  detail::run(g, detail::indexv_call(send, send_counts, recv, recv_counts));
}

inline void sync(const Group& g) {
  detail::run(g, detail::sync_call());
}

// Reduce one value over the group and return the result on every member.
template <class T, class Op>
requires std::is_trivially_copyable_v<T> &&(!ReadBuffer<T>)T
    combine_value(const Group& g, const T& value, Op op) {
  T out{};
  combine(g, std::span<const T>(&value, 1), std::span<T>(&out, 1), std::move(op));
  return out;
}

}  // namespace ccl
