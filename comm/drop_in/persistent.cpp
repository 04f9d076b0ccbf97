#include "persistent.hpp"

#include <cstdio>
#include <unordered_map>
#include <utility>

#include "comm_entry.hpp"
#include "datatype_layout.hpp"
#include "drop_in_state.hpp"
#include "pass_through.hpp"
#include "pending.hpp"
#include "wrap_common.hpp"

namespace ccl::drop_in {

namespace {

struct Binding {
  MpiCall which{};
  int tag = 0;
  StartRound start;
  std::vector<MPI_Datatype> kept;
  std::optional<std::uint64_t> number;  // on the communicator's entry, when the drop-in runs it
};

// The next binding number of the communicator, when the drop-in can run collectives on it. Every
// member binds in the same order (MPI asks it), so members agree on the numbers.
std::optional<std::uint64_t> number_binding(MPI_Comm comm) {
  if (!drop_in_state().active || communicator_problem(comm) != nullptr) return std::nullopt;
  const char* why_not = nullptr;
  const EntryRef entry = entry_of(comm, &why_not);
  if (entry == nullptr) return std::nullopt;
  return (*entry)->take_binding();
}

std::unordered_map<MPI_Request, Binding>& bindings() {
  static std::unordered_map<MPI_Request, Binding> b;
  return b;
}

// The private communicator the handles' messages travel on, made at the first binding.
MPI_Comm self_comm() {
  static MPI_Comm comm = [] {
    MPI_Comm c = MPI_COMM_NULL;
    PMPI_Comm_dup(MPI_COMM_SELF, &c);
    return c;
  }();
  return comm;
}

std::vector<int>& free_tags() {
  static std::vector<int> t;
  return t;
}

// Tags of live handles are distinct, so a completion message matches its own handle's receive.
int take_tag() {
  static int next = 0;
  std::vector<int>& free = free_tags();
  if (!free.empty()) {
    const int t = free.back();
    free.pop_back();
    return t;
  }
  return next++;  // MPI guarantees tags up to 32767; beyond, the receive reports the error
}

}  // namespace

MPI_Datatype Binder::keep(MPI_Datatype type) {
  if (type == MPI_DATATYPE_NULL || is_predefined(type)) {
    return type;  // predefined (or for MPI to reject at the start)
  }
  MPI_Datatype copy = MPI_DATATYPE_NULL;
  PMPI_Type_dup(type, &copy);
  kept_.push_back(copy);
  return copy;
}

int Binder::bind(MpiCall which, StartRound start, MPI_Request* request) {
  const InsideWrapper inside;
  const int tag = take_tag();
  const int rc = PMPI_Recv_init(nullptr, 0, MPI_BYTE, 0, tag, self_comm(), request);
  if (rc != MPI_SUCCESS) {
    free_tags().push_back(tag);
    return rc;
  }
  bindings()[*request] =
      Binding{which, tag, std::move(start), std::move(kept_), number_binding(comm_)};
  return MPI_SUCCESS;
}

bool is_bound(MPI_Request handle) {
  return !bindings().empty() && bindings().contains(handle);
}

int start_round(MPI_Request* handle) {
  const Binding& b = bindings().at(*handle);
  if (const Pending* last = pending_of(*handle); last != nullptr && !last->complete) {
    int rank = 0;
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    std::fprintf(stderr, "ccl_mpi: rank %d: MPI_Start of a persistent %s whose round is active\n",
                 rank, mpi_call_name(b.which));
    return MPI_ERR_REQUEST;
  }
  {
    const InsideWrapper inside;
    PMPI_Start(handle);  // the receive its round's end completes
  }
  MPI_Request inner = MPI_REQUEST_NULL;
  const RoundScope round(*handle, b.tag, b.number);
  const int rc = b.start(&inner);  // a wrapper: not inside one here
  if (round.taken()) return rc;
  if (rc != MPI_SUCCESS || inner == MPI_REQUEST_NULL) {
    complete_handle(b.tag);  // nothing runs: the round is over
    return rc;
  }
  begin_round_on_mpi(b.which, *handle, b.tag, inner);
  return MPI_SUCCESS;
}

int free_bound(MPI_Request* handle) {
  const InsideWrapper inside;
  if (Pending* p = pending_of(*handle)) {
    complete(*p);
    forget_round(*handle);
  }
  auto it = bindings().find(*handle);
  for (MPI_Datatype& t : it->second.kept) PMPI_Type_free(&t);
  free_tags().push_back(it->second.tag);
  bindings().erase(it);
  return PMPI_Request_free(handle);
}

void complete_handle(int tag) {
  const InsideWrapper inside;
  PMPI_Send(nullptr, 0, MPI_BYTE, 0, tag, self_comm());
}

}  // namespace ccl::drop_in
