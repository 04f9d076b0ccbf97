// The MPI transport: a group's own communicator (derived from a private duplicate of
// MPI_COMM_WORLD) and nonblocking point-to-point on it, with tag = instance × phases + phase.
#pragma once

#include <mpi.h>

#include <string>

#include "channel.hpp"

namespace ccl::detail {

// Throws ccl::Error with MPI's message when rc is not MPI_SUCCESS.
void check_mpi(int rc, const char* what);

class MpiChannel final : public Channel {
 public:
  explicit MpiChannel(MPI_Comm comm);  // takes ownership; sets MPI_ERRORS_RETURN on it
  ~MpiChannel() override;
  MpiChannel(const MpiChannel&) = delete;
  MpiChannel& operator=(const MpiChannel&) = delete;

  std::unique_ptr<Stage> run(std::shared_ptr<const Schedule> schedule,
                             const RunContext& ctx) override;
  MPI_Comm comm() const { return comm_; }

 private:
  MPI_Comm comm_;
  std::uint64_t tag_cycle_;  // instances before tags repeat
};

}  // namespace ccl::detail
