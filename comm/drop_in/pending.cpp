#include "pending.hpp"

#include <cstdio>
#include <string>
#include <unordered_map>

#include "ccl/environment.hpp"
#include "ccl/shape.hpp"
#include "pass_through.hpp"

namespace ccl::drop_in {

namespace {

std::unordered_map<MPI_Request, std::unique_ptr<Pending>>& table() {
  static std::unordered_map<MPI_Request, std::unique_ptr<Pending>> t;
  return t;
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
  const std::string_view algorithm = statistics().of(kind).algorithm;
  usage(which).algorithms[{kind, algorithm}] += 1;
}

int report_failure(MpiCall which, MPI_Comm comm, const std::exception& e) {
  int rank = 0;
  PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
  std::fprintf(stderr, "ccl_mpi: rank %d: %s: %s\n", rank, mpi_call_name(which), e.what());
  std::fflush(stderr);
  return PMPI_Comm_call_errhandler(comm, MPI_ERR_OTHER) == MPI_SUCCESS ? MPI_ERR_OTHER
                                                                       : MPI_ERR_OTHER;
}

void Pending::start() {
  started = true;
  detail::Call call = plan->calls.front().take();
  kind = call.kind;
  running = detail::start(entry->formed_group(), std::move(call));
}

bool Pending::advance() {
  if (complete) return true;
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
  PMPI_Grequest_complete(handle);
}

MPI_Request begin_nonblocking(MpiCall which, std::shared_ptr<CommEntry> entry,
                              std::unique_ptr<Plan> plan) {
  auto p = std::make_unique<Pending>();
  p->which = which;
  p->entry = std::move(entry);
  p->plan = std::move(plan);
  PMPI_Grequest_start(&query_status, &free_pending, &cancel_pending, p.get(), &p->handle);
  Pending& ref = *p;
  table().emplace(p->handle, std::move(p));
  if (ref.entry->ready()) {
    ref.start();
    ref.advance();
  } else {
    ref.entry->enqueue(&ref);
    ref.entry->advance();
  }
  return ref.handle;
}

Pending* pending_of(MPI_Request handle) {
  if (table().empty() || handle == MPI_REQUEST_NULL) return nullptr;
  auto it = table().find(handle);
  return it == table().end() ? nullptr : it->second.get();
}

bool any_pending() {
  return !table().empty();
}

bool advance_everything() {
  bool waiting = advance_entries();
  for (auto& [handle, p] : table()) waiting = !p->advance() || waiting;
  progress();
  return waiting;
}

void complete(Pending& p) {
  while (!p.advance()) {
    // Alone in flight, ccl may block in MPI (kinder to oversubscribed cores than polling).
    if (p.started && table().size() == 1 && !advance_entries()) {
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
