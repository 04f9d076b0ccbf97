// What other files of the MPI side need from the runtime that ccl::Environment creates.
#pragma once

#include <mpi.h>

#include <string>

#include "ccl/group.hpp"
#include "groups/partition.hpp"

namespace ccl::detail {

struct Process;
class Engine;

Process& mpi_process();
Engine& mpi_engine();
// A group whose collectives run on `comm`, which it takes over (and frees with the group).
Group adopt_communicator(MPI_Comm comm, NewGroup g, std::string label);

}  // namespace ccl::detail
