#include "wrap_support.hpp"

#include "ccl/mode.hpp"

#include <cstring>
#include <exception>

#include "ccl/copy_bytes.hpp"
#include "comm_entry.hpp"
#include "drop_in_state.hpp"
#include "pending.hpp"
#include "wrap_common.hpp"

namespace ccl::drop_in {

void count_fallback(MpiCall which, const char* why) {
  Usage& u = usage(which);
  u.on_mpi += 1;
  u.reasons[why] += 1;
}

EntryRef route(MpiCall which, MPI_Comm comm) {
  const DropInState& s = drop_in_state();
  if (!s.active) {
    count_fallback(which, s.inactive_reason);
    return nullptr;
  }
  const char* why_not = nullptr;
  auto entry = entry_of(comm, &why_not);
  if (entry == nullptr) count_fallback(which, why_not);
  return entry;
}

std::optional<CheckedComm> check_communicator(MpiCall which, MPI_Comm comm) {
  if (const EntryRef known = drop_in_state().active ? last_entry(comm) : nullptr) {
    return CheckedComm{known, (*known)->size()};
  }
  if (const char* why = communicator_problem(comm)) {
    count_fallback(which, why);
    return std::nullopt;
  }
  return CheckedComm{nullptr, size_of(comm)};
}

EntryRef admit_slow(MpiCall which, MPI_Comm comm, std::initializer_list<int> counts,
                    std::initializer_list<MPI_Datatype> types, std::optional<int> root) {
  const std::optional<CheckedComm> checked = check_communicator(which, comm);
  if (!checked) return nullptr;
  if (!arguments_in_range(counts, types, root, checked->size)) {
    count_fallback(which, kInvalid);
    return nullptr;
  }
  return checked->known != nullptr ? checked->known : route(which, comm);
}

Plan::~Plan() {
  if (kept_types.empty()) return;  // most plans: no MPI call on the way out
  int finalized = 0;
  PMPI_Finalized(&finalized);
  if (finalized) return;
  for (MPI_Datatype& t : kept_types) PMPI_Type_free(&t);
}

MPI_Datatype Plan::kept(MPI_Datatype type) {
  MPI_Datatype copy = MPI_DATATYPE_NULL;
  PMPI_Type_dup(type, &copy);
  kept_types.push_back(copy);
  return copy;
}

int run_plan(MpiCall which, MPI_Comm comm, const std::shared_ptr<CommEntry>& entry, Plan&& plan,
             MPI_Request* request) {
  usage(which).on_ccl += 1;
  try {
    if (request != nullptr) {
      *request = begin_nonblocking(which, entry, std::make_unique<Plan>(std::move(plan)));
      return MPI_SUCCESS;
    }
    const Group& g = entry->group();
    for (std::size_t i = 0; i < plan.calls.size(); ++i) {
      detail::Call call = plan.calls[i].take();
      const CollKind kind = call.kind;
      detail::run(g, std::move(call));
      note_algorithm(which, kind);
    }
    for (auto& step : plan.after) step();
  } catch (const std::exception& e) {
    return report_failure(which, comm, e);
  }
  return MPI_SUCCESS;
}

int run_call(MpiCall which, MPI_Comm comm, CommEntry& entry, detail::Call&& call) {
  usage(which).on_ccl += 1;
  try {
    const CollKind kind = call.kind;
    detail::run(entry.group(), std::move(call));
    note_algorithm(which, kind);
  } catch (const std::exception& e) {
    return report_failure(which, comm, e);
  }
  return MPI_SUCCESS;
}

bool returns_at_once(MpiCall which, MPI_Request* request, std::size_t bytes) {
  if (request != nullptr || bytes != 0 || mode() != Mode::run || barrier_mode()) return false;
  usage(which).on_ccl += 1;
  return true;
}

int run_single(MpiCall which, MPI_Comm comm, const std::shared_ptr<CommEntry>& entry, Plan&& plan,
               detail::Call&& call, MPI_Request* request) {
  if (request == nullptr && plan.temporaries.empty() && plan.after.empty() &&
      plan.kept_types.empty() && plan.calls.size() == 0) {
    return run_call(which, comm, *entry, std::move(call));
  }
  plan.add(std::move(call));
  return run_plan(which, comm, entry, std::move(plan), request);
}

std::byte* send_bytes(Plan& plan, const void* buf, int count, MPI_Datatype type, MPI_Comm comm) {
  const Layout& l = layout_of(type);
  if (l.packed) return static_cast<std::byte*>(const_cast<void*>(buf));
  const std::size_t bytes = static_cast<std::size_t>(count) * l.size;
  std::byte* tmp = plan.temporary(bytes);
  int position = 0;
  PMPI_Pack(buf, count, type, tmp, static_cast<int>(bytes), &position, comm);
  return tmp;
}

std::byte* recv_bytes(Plan& plan, void* buf, int count, MPI_Datatype user_type) {
  const Layout& l = layout_of(user_type);
  if (l.packed) return static_cast<std::byte*>(buf);
  const std::size_t bytes = static_cast<std::size_t>(count) * l.size;
  std::byte* tmp = plan.temporary(bytes);
  plan.after.push_back([=, type = plan.kept(user_type)] {
    int position = 0;
    PMPI_Unpack(tmp, static_cast<int>(bytes), &position, buf, count, type, MPI_COMM_SELF);
  });
  return tmp;
}

std::vector<std::size_t> block_bytes(const Blocks& b, MPI_Datatype type) {
  const std::size_t size = layout_of(type).size;
  std::vector<std::size_t> out(static_cast<std::size_t>(b.n));
  for (int i = 0; i < b.n; ++i)
    out[static_cast<std::size_t>(i)] = static_cast<std::size_t>(b.counts[i]) * size;
  return out;
}

namespace {

// Are the blocks where packing them in rank order would put them anyway?
bool in_rank_order(const Blocks& b) {
  long long next = 0;
  for (int i = 0; i < b.n; ++i) {
    if (b.counts[i] != 0 && b.displacements[i] != next) return false;
    next += b.counts[i];
  }
  return true;
}

std::size_t total(const std::vector<std::size_t>& v) {
  std::size_t t = 0;
  for (std::size_t x : v) t += x;
  return t;
}

std::size_t offset_of(const Blocks& b, int which, std::size_t size) {
  std::size_t off = 0;
  for (int i = 0; i < which; ++i) off += static_cast<std::size_t>(b.counts[i]) * size;
  return off;
}

}  // namespace

void pack_block_into(std::byte* packed, const void* buf, const Blocks& b, int which,
                     MPI_Datatype type, MPI_Comm comm) {
  const Layout& l = layout_of(type);
  const auto* from =
      static_cast<const std::byte*>(buf) + static_cast<MPI_Aint>(b.displacements[which]) * l.extent;
  const std::size_t bytes = static_cast<std::size_t>(b.counts[which]) * l.size;
  if (bytes == 0) return;  // empty vectors may hand over null buffers
  std::byte* to = packed + offset_of(b, which, l.size);
  if (l.packed) {
    if (to != from) std::memmove(to, from, bytes);
    return;
  }
  int position = 0;
  PMPI_Pack(from, b.counts[which], type, to, static_cast<int>(bytes), &position, comm);
}

std::byte* send_blocks(Plan& plan, const void* buf, const Blocks& b, MPI_Datatype type,
                       MPI_Comm comm) {
  const Layout& l = layout_of(type);
  if (l.packed && in_rank_order(b)) return static_cast<std::byte*>(const_cast<void*>(buf));
  std::byte* tmp = plan.temporary(total(block_bytes(b, type)));
  for (int i = 0; i < b.n; ++i) pack_block_into(tmp, buf, b, i, type, comm);
  return tmp;
}

std::byte* recv_blocks(Plan& plan, void* buf, const Blocks& b, MPI_Datatype user_type) {
  const Layout& l = layout_of(user_type);
  if (l.packed && in_rank_order(b)) return static_cast<std::byte*>(buf);
  std::byte* tmp = plan.temporary(total(block_bytes(b, user_type)));
  std::vector<int> counts(b.counts, b.counts + b.n),
      displacements(b.displacements, b.displacements + b.n);
  const MPI_Datatype type = l.packed ? user_type : plan.kept(user_type);
  plan.after.push_back([=, packed = l.packed, extent = l.extent, size = l.size] {
    std::size_t off = 0;
    for (std::size_t i = 0; i < counts.size(); ++i) {
      auto* to = static_cast<std::byte*>(buf) + static_cast<MPI_Aint>(displacements[i]) * extent;
      const std::size_t bytes = static_cast<std::size_t>(counts[i]) * size;
      if (bytes == 0) continue;
      if (packed) {
        detail::copy_bytes(to, tmp + off, bytes);
      } else {
        int position = 0;
        PMPI_Unpack(tmp + off, static_cast<int>(bytes), &position, to, counts[i], type,
                    MPI_COMM_SELF);
      }
      off += bytes;
    }
  });
  return tmp;
}

bool overlap(const void* a, std::size_t a_bytes, const void* b, std::size_t b_bytes) {
  if (a_bytes == 0 || b_bytes == 0) return false;
  const auto* pa = static_cast<const std::byte*>(a);
  const auto* pb = static_cast<const std::byte*>(b);
  return pa < pb + b_bytes && pb < pa + a_bytes;
}

std::size_t span_bytes(int count, MPI_Datatype type) {
  if (count <= 0) return 0;
  MPI_Aint true_lb = 0, true_extent = 0;
  PMPI_Type_get_true_extent(type, &true_lb, &true_extent);
  return static_cast<std::size_t>(true_lb + true_extent +
                                  static_cast<MPI_Aint>(count - 1) * layout_of(type).extent);
}

}  // namespace ccl::drop_in
