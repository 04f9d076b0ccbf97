#include "pending.hpp"

#include "drop_in_state.hpp"

#include <cstdio>
#include <string>
#include <unordered_map>
#include <utility>

#include "ccl/environment.hpp"
#include "ccl/shape.hpp"
#include "pass_through.hpp"
#include "persistent.hpp"

namespace ccl::drop_in {

namespace {

std::unordered_map<MPI_Request, std::unique_ptr<Pending>>& table() {
  static std::unordered_map<MPI_Request, std::unique_ptr<Pending>> t;
  return t;
}
// Collectives of the table not complete yet (a persistent handle's last round stays in the
// table, complete, until the next round or the handle's release).
std::size_t unfinished = 0;
RoundScope* round_being_started = nullptr;

// Put a new collective in the table under its handle (a persistent handle's previous round,
// complete, gives way to it).
Pending& enter(std::unique_ptr<Pending> p) {
  ++unfinished;
  std::unique_ptr<Pending>& slot = table()[p->handle];
  slot = std::move(p);
  return *slot;
}

// Generalized-request callbacks. MPI calls free_fn when the user's wait or test completes the
// request (after the wrapper marked it complete), and query_fn to fill the status.
int query_status(void*, MPI_Status* status) {
  PMPI_Status_set_elements(status, MPI_BYTE, 0);
  PMPI_Status_set_cancelled(status, 0);
  status->MPI_SOURCE = MPI_ANY_SOURCE;
  status->MPI_TAG = MPI_ANY_TAG;
  return MPI_SUCCESS;
}
int free_pending(void* extra) {
  auto* p = static_cast<Pending*>(extra);
  table().erase(p->handle);  // destroys p
  return MPI_SUCCESS;
}
int cancel_pending(void*, int) {
  return MPI_SUCCESS;
}  // collectives cannot be cancelled

}  // namespace

void note_algorithm(MpiCall which, CollKind kind) {
  if (!drop_in_state().report) return;  // the report is its only reader
  const std::pair<CollKind, std::string_view> key{kind, statistics().of(kind).algorithm};
  Usage& u = usage(which);
  // Algorithm names are static storage: the same name is the same pointer.
  if (u.last_count == nullptr || key.first != u.last_algorithm.first ||
      key.second.data() != u.last_algorithm.second.data()) {
    u.last_algorithm = key;
    u.last_count = &u.algorithms[key];
  }
  *u.last_count += 1;
}

int report_failure(MpiCall which, MPI_Comm comm, const std::exception& e) {
  int rank = 0;
  PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
  std::fprintf(stderr, "ccl_mpi: rank %d: %s: %s\n", rank, mpi_call_name(which), e.what());
  std::fflush(stderr);
  PMPI_Comm_call_errhandler(comm, MPI_ERR_OTHER);  // aborts, unless the program set another
  return MPI_ERR_OTHER;
}

void Pending::start() {
  started = true;
  detail::Call call = plan->calls.front().take();
  kind = call.kind;
  running = binding ? detail::start_bound(entry->formed_group(), std::move(call), *binding)
                    : detail::start(entry->formed_group(), std::move(call));
}

bool Pending::advance() {
  if (complete) return true;
  if (on_mpi != MPI_REQUEST_NULL) {
    int flag = 0;
    PMPI_Test(&on_mpi, &flag, MPI_STATUS_IGNORE);
    if (flag) mark_complete();
    return flag != 0;
  }
  try {
    if (!started) {
      if (!entry->advance()) return false;  // starts this one when its turn comes
      if (!started) return false;
    }
    if (!running.test()) return false;
    note_algorithm(which, kind);
    for (auto& step : plan->after) step();
  } catch (const std::exception& e) {
    fail(e);
    return true;
  }
  mark_complete();
  return true;
}

void Pending::fail(const std::exception& e) {
  // The error handler decides (by default it aborts the job); the request completes either way.
  report_failure(which, entry->comm(), e);
  mark_complete();
}

void Pending::mark_complete() {
  complete = true;
  --unfinished;
  if (round_tag >= 0) {
    complete_handle(round_tag);
  } else {
    PMPI_Grequest_complete(handle);
  }
}

RoundScope::RoundScope(MPI_Request handle, int tag, std::optional<std::uint64_t> binding)
    : handle_(handle), tag_(tag), binding_(binding) {
  round_being_started = this;
}
RoundScope::~RoundScope() {
  round_being_started = nullptr;
}

void begin_round_on_mpi(MpiCall which, MPI_Request handle, int tag, MPI_Request inner) {
  auto p = std::make_unique<Pending>();
  p->which = which;
  p->handle = handle;
  p->round_tag = tag;
  p->on_mpi = inner;
  p->started = true;
  enter(std::move(p)).advance();
}

void forget_round(MPI_Request handle) {
  table().erase(handle);
}

MPI_Request begin_nonblocking(MpiCall which, std::shared_ptr<CommEntry> entry,
                              std::unique_ptr<Plan> plan) {
  auto p = std::make_unique<Pending>();
  p->which = which;
  p->entry = std::move(entry);
  p->plan = std::move(plan);
  RoundScope* round = std::exchange(round_being_started, nullptr);
  if (round != nullptr) {
    round->taken_ = true;
    p->handle = round->handle_;
    p->round_tag = round->tag_;
    p->binding = round->binding_;
  } else {
    PMPI_Grequest_start(&query_status, &free_pending, &cancel_pending, p.get(), &p->handle);
  }
  Pending& ref = enter(std::move(p));
  if (ref.entry->ready()) {
    ref.start();
    ref.advance();
  } else {
    ref.entry->enqueue(&ref);
    ref.entry->advance();
  }
  return round != nullptr ? MPI_REQUEST_NULL : ref.handle;
}

Pending* pending_of(MPI_Request handle) {
  if (table().empty() || handle == MPI_REQUEST_NULL) return nullptr;
  auto it = table().find(handle);
  return it == table().end() ? nullptr : it->second.get();
}

bool any_pending() {
  return unfinished > 0;
}

bool advance_everything() {
  bool waiting = advance_entries();
  for (auto& [handle, p] : table()) waiting = !p->advance() || waiting;
  progress();
  return waiting;
}

void complete(Pending& p) {
  while (!p.advance()) {
    if (p.on_mpi != MPI_REQUEST_NULL && unfinished == 1) {
      PMPI_Wait(&p.on_mpi, MPI_STATUS_IGNORE);
      p.mark_complete();
      return;
    }
    // Alone in flight, ccl may block in MPI (kinder to oversubscribed cores than polling).
    if (p.started && unfinished == 1 && !advance_entries()) {
      try {
        p.running.wait();
      } catch (const std::exception& e) {
        p.fail(e);
        return;
      }
      continue;
    }
    advance_everything();
  }
}

}  // namespace ccl::drop_in
