// MPI_Init, MPI_Init_thread and MPI_Finalize set ccl up and tear it down around MPI; the
// operator and datatype constructors keep the drop-in's records of them current.
//
// Settings, agreed over MPI_COMM_WORLD at MPI_Init so every rank takes the same path:
//   CCL_MPI=0           run every collective on MPI (the drop-in only counts them)
//   CCL_MPI_REPORT=1    print the usage table from rank 0 at MPI_Finalize
// plus every ccl setting (CCL_MODEL, CCL_ALGO_<COLL>, CCL_MODE=develop, CCL_TIMEOUT...).
#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <memory>

#include "ccl/environment.hpp"
#include "comm_entry.hpp"
#include "datatype_layout.hpp"
#include "drop_in_state.hpp"
#include "pass_through.hpp"
#include "reduction_kernel.hpp"
#include "type_hold.hpp"
#include "usage_report.hpp"

namespace ccl::drop_in {

constinit DropInState drop_in_state_value;

namespace {

std::unique_ptr<Environment>& environment() {
  static std::unique_ptr<Environment> e;
  return e;
}

bool env_is(const char* name, const char* value) {
  const char* v = std::getenv(name);
  return v != nullptr && std::strcmp(v, value) == 0;
}

// After PMPI_Init: decide, on every rank alike, whether collectives go to ccl, and set it up.
void set_up(int provided) {
  const InsideWrapper inside;
  DropInState& s = drop_in_state();
  int wanted[2] = {env_is("CCL_MPI", "0") ? 0 : 1, env_is("CCL_MPI_REPORT", "1") ? 1 : 0};
  int agreed[2] = {0, 0};
  PMPI_Allreduce(wanted, agreed, 2, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  s.report = agreed[1] == 1;
  if (agreed[0] == 0) {
    s.inactive_reason = "CCL_MPI=0";
    return;
  }
  if (provided == MPI_THREAD_MULTIPLE) {  // ccl serves one thread per process
    s.inactive_reason = "MPI_THREAD_MULTIPLE";
    return;
  }
  try {
    int argc = 0;
    char** argv = nullptr;
    environment() = std::make_unique<Environment>(argc, argv);
  } catch (const std::exception& e) {
    int rank = 0;
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    std::fprintf(stderr, "ccl_mpi: rank %d: MPI_Init: %s\n", rank, e.what());
    PMPI_Abort(MPI_COMM_WORLD, 1);
  }
  s.active = true;
  // The predefined communicators' groups, formed now for the reason wrap_communicators.cpp gives.
  for (MPI_Comm comm : {MPI_COMM_WORLD, MPI_COMM_SELF}) {
    const char* why_not = nullptr;
    if (const EntryRef entry = entry_of(comm, &why_not)) (*entry)->group();
  }
}

}  // namespace

}  // namespace ccl::drop_in

using namespace ccl::drop_in;

extern "C" {

int MPI_Init(int* argc, char*** argv) {
  const int rc = PMPI_Init(argc, argv);
  if (rc == MPI_SUCCESS) {
    int provided = MPI_THREAD_SINGLE;
    PMPI_Query_thread(&provided);
    set_up(provided);
  }
  return rc;
}

int MPI_Init_thread(int* argc, char*** argv, int required, int* provided) {
  const int rc = PMPI_Init_thread(argc, argv, required, provided);
  if (rc == MPI_SUCCESS) set_up(*provided);
  return rc;
}

int MPI_Finalize() {
  {
    const InsideWrapper inside;
    DropInState& s = drop_in_state();
    if (s.report) print_report();
    if (s.active) {
      release_entries();
      environment().reset();
      s.active = false;
      s.inactive_reason = "MPI is finalised";
    }
  }
  return PMPI_Finalize();
}

int MPI_Op_create(MPI_User_function* fn, int commute, MPI_Op* op) {
  const int rc = PMPI_Op_create(fn, commute, op);
  if (rc == MPI_SUCCESS) remember_user_op(*op, fn, commute != 0);
  return rc;
}

int MPI_Op_free(MPI_Op* op) {
  forget_user_op(*op);
  return PMPI_Op_free(op);
}

int MPI_Type_free(MPI_Datatype* type) {
  if (type == nullptr) return PMPI_Type_free(type);
  forget_layout(*type);
  forget_kernels(MPI_OP_NULL, *type);
  // A reduction under way still uses it: freed when it lets go (MPI frees it "when done").
  if (defer_type_free(*type)) {
    *type = MPI_DATATYPE_NULL;
    return MPI_SUCCESS;
  }
  return PMPI_Type_free(type);
}

}  // extern "C"
