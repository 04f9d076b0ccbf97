// Datatypes a user operator's kernel still needs. MPI lets a program free a datatype while a
// nonblocking or persistent reduction on it is under way (it "completes normally"), and the
// user function gets that very handle, which it may query (MPI_Type_size). A kernel holds its
// datatype; MPI_Type_free of a held one is carried out when the last kernel lets go of it.
#pragma once

#include <mpi.h>

namespace ccl::drop_in {

// Take and let go of a hold on a datatype (predefined ones are never freed: not held).
void hold_type(MPI_Datatype type);
void release_type(MPI_Datatype type);
// MPI_Type_free's part: true when the type is held, its free then left to the last release.
bool defer_type_free(MPI_Datatype type);

}  // namespace ccl::drop_in
