// Persistent collectives (MPI-4's MPI_Bcast_init and kin; Open MPI 4.1 names them MPIX_..._init
// in mpi-ext.h): the drop-in binds the call's arguments once, and each MPI_Start runs one round
// as the call's nonblocking form would, on ccl or, where the drop-in hands the call over, on
// MPI's own nonblocking collective.
//
// The user's handle is a real persistent MPI request: a zero-byte receive from this rank on a
// private duplicate of MPI_COMM_SELF, under a tag of its own. MPI_Start activates it with the
// round; when the round's collective completes, the drop-in sends the zero-byte message that
// completes it. So the handle can sit in any Wait/Test call beside point-to-point requests, MPI
// reports its completion and status, and MPI_Start restarts it. The status it leaves is that of
// the receive (source 0, the private tag, no elements), where MPI would leave an empty one.
//
// MPI matches persistent collectives by the order of their _init calls, and lets members start
// them in any order: each binding on a communicator the drop-in runs takes the next number of
// the communicator's entry, and its rounds run on ccl as rounds of that binding
// (ccl::detail::start_bound), not as the group's next collective.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "usage_report.hpp"

namespace ccl::drop_in {

// One round of a bound call: its nonblocking form with the bound arguments.
using StartRound = std::function<int(MPI_Request*)>;

// Builds one binding on a communicator: keep() the datatypes the rounds use, then bind().
class Binder {
 public:
  explicit Binder(MPI_Comm comm) : comm_(comm) {}
  // The type as the rounds may use it after the program freed its own handle (MPI lets it):
  // a duplicate, or the predefined type itself.
  MPI_Datatype keep(MPI_Datatype type);
  // Make the user's persistent request (inactive) for rounds of `start`.
  int bind(MpiCall which, StartRound start, MPI_Request* request);

 private:
  MPI_Comm comm_;
  std::vector<MPI_Datatype> kept_;
};

// Whether the handle is a persistent collective of the drop-in's.
bool is_bound(MPI_Request handle);
// MPI_Start of a bound handle: activate it and start its round.
int start_round(MPI_Request* handle);
// MPI_Request_free of a bound handle: finish a round under way, then free it all.
int free_bound(MPI_Request* handle);

// A round's collective completed: complete the user's handle (the zero-byte send).
void complete_handle(int tag);

}  // namespace ccl::drop_in
