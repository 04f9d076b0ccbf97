// The ccl reduction kernel for an MPI operator on a predefined (basic) datatype: MPI's built-in
// operators on the types MPI defines them for, and operators made with MPI_Op_create (recorded
// by the MPI_Op_create wrapper), which keep rank order unless created commutative.
#pragma once

#include <mpi.h>

#include <optional>
#include <string>

#include "ccl/reduce_op.hpp"

namespace ccl::drop_in {

struct ReductionPlan {
  ReduceKernel kernel;
  std::size_t elem = 0;  // bytes of one element the kernel works on
  bool user_op = false;  // elements are whole datatype elements, given to the user function
};

// Why an operator cannot run on ccl, or the plan to run it: built-in operators act on the
// datatype's basic elements; user operators on whole datatype elements.
struct KernelChoice {
  std::optional<ReductionPlan> plan;
  std::string why_not;
};
// Made once per operator and datatype, then kept until either is freed.
const KernelChoice& kernel_for(MPI_Op op, MPI_Datatype type);

// Called by the MPI_Op_create / MPI_Op_free wrappers.
void remember_user_op(MPI_Op op, MPI_User_function* fn, bool commutative);
void forget_user_op(MPI_Op op);
// Drops the choices made for an operator or a datatype (MPI_OP_NULL / MPI_DATATYPE_NULL: none)
// about to be freed, whose handle MPI may give to a new one.
void forget_kernels(MPI_Op op, MPI_Datatype type);

}  // namespace ccl::drop_in
