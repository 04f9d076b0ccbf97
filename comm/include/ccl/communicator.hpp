// Groups over existing MPI communicators, for programs that mix MPI and ccl (and for the PMPI
// drop-in, libccl_mpi). The group has the communicator's processes in its rank order; its
// collectives run on a private duplicate, so they never match the communicator's own messages.
//
//   ccl::Group g = ccl::group_of(comm, "rows");          // blocking, collective over comm
//
//   ccl::GroupFormation f(comm, "rows");                  // nonblocking: MPI_Comm_idup, then
//   while (!f.test()) { ... }                             // the PGID from member 0 (MPI_Ibcast)
//   ccl::Group g = f.group();
//
// The nonblocking form lets members start forming groups over several communicators in
// different orders, as MPI allows for nonblocking collectives on different communicators.
// Needs a ccl::Environment; intracommunicators whose processes are all in MPI_COMM_WORLD only.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <string>
#include <vector>

#include "ccl/group.hpp"

namespace ccl {

class GroupFormation {
 public:
  // Starts forming; collective over comm (members start formations on comm in the same order).
  // Throws ccl::Error for an intercommunicator or a process outside MPI_COMM_WORLD.
  GroupFormation(MPI_Comm comm, std::string label);
  GroupFormation(const GroupFormation&) = delete;
  GroupFormation& operator=(const GroupFormation&) = delete;
  ~GroupFormation();  // waits for an unfinished formation: MPI requests must complete

  // True once the group is formed; never blocks.
  bool test();
  void wait();
  // The group; wait()s first.
  Group group();

 private:
  enum class Stage { duplicating, numbering, formed };
  Stage stage_ = Stage::duplicating;
  MPI_Comm dup_ = MPI_COMM_NULL;
  MPI_Request pending_ = MPI_REQUEST_NULL;
  std::uint64_t serial_ = 0;  // the leader's counter, sent by member 0
  int rank_ = 0;
  std::vector<int> members_;  // world ranks in comm's rank order
  std::string label_;
  Group group_;
};

// The same, blocking.
Group group_of(MPI_Comm comm, std::string label);

// Advance every collective this process has in flight once, without blocking (what test() on
// any request does). For code that waits on something else while collectives are in flight.
void progress();

}  // namespace ccl
