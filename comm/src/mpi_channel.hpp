// The MPI transport: a group's own communicator (derived from a private duplicate of
// MPI_COMM_WORLD) and nonblocking point-to-point on it, with tag = instance × phases + phase.
#pragma once

#include <mpi.h>

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

  std::uint64_t tag(std::uint64_t instance, int phase) const override;
  void send(int peer, std::uint64_t tag, const std::byte* data, std::size_t bytes,
            const Cost& stamp, Handles& hs) override;
  void recv(int peer, std::uint64_t tag, std::byte* data, std::size_t bytes,
            Handles& hs) override;
  bool test_all(Handles& hs) override;
  void wait_all(Handles& hs) override;
  bool exchange(int to, const std::byte* out, std::size_t out_bytes, int from, std::byte* in,
                std::size_t in_bytes, std::uint64_t tag) override;

 private:
  MPI_Comm comm_;
  std::uint64_t tag_cycle_;  // instances before tags repeat
};

}  // namespace ccl::detail
