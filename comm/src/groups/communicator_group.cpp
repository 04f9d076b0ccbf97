// Groups over existing MPI communicators (ccl/communicator.hpp). Forming one takes two
// nonblocking steps on the communicator: MPI_Comm_idup for the group's private communicator,
// then MPI_Ibcast of member 0's group counter on it, which makes the PGID
// (leader, leader's counter, fingerprint of the member list) the same on every member and
// different from every other live group: the leader counts each group it forms.
#include "ccl/communicator.hpp"

#include <numeric>
#include <string>
#include <utility>

#include "ccl/error.hpp"
#include "execution/engine.hpp"
#include "groups/mpi_runtime.hpp"
#include "groups/process.hpp"
#include "transport/mpi_channel.hpp"

namespace ccl {

namespace {

std::vector<int> world_ranks_of(MPI_Comm comm) {
  int inter = 0;
  detail::check_mpi(MPI_Comm_test_inter(comm, &inter), "MPI_Comm_test_inter");
  if (inter) throw Error("ccl: a group over an intercommunicator is not supported");
  int size = 0;
  MPI_Comm_size(comm, &size);
  MPI_Group mine, world;
  MPI_Comm_group(comm, &mine);
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  std::vector<int> ranks(static_cast<std::size_t>(size)), out(ranks.size());
  std::iota(ranks.begin(), ranks.end(), 0);
  MPI_Group_translate_ranks(mine, size, ranks.data(), world, out.data());
  MPI_Group_free(&mine);
  MPI_Group_free(&world);
  for (int w : out) {
    if (w == MPI_UNDEFINED)
      throw Error("ccl: a communicator with processes outside MPI_COMM_WORLD");
  }
  return out;
}

}  // namespace

GroupFormation::GroupFormation(MPI_Comm comm, std::string label)
    : members_(world_ranks_of(comm)), label_(std::move(label)) {
  MPI_Comm_rank(comm, &rank_);
  detail::check_mpi(MPI_Comm_idup(comm, &dup_, &pending_), "MPI_Comm_idup");
}

GroupFormation::~GroupFormation() {
  if (stage_ == Stage::formed) return;
  try {
    wait();
  } catch (...) {
    // Nothing to report to: the group was never asked for.
  }
}

bool GroupFormation::test() {
  while (stage_ != Stage::formed) {
    int done = 0;
    detail::check_mpi(MPI_Test(&pending_, &done, MPI_STATUS_IGNORE), "MPI_Test");
    if (!done) return false;
    if (stage_ == Stage::duplicating) {
      detail::Process& p = detail::mpi_process();
      if (rank_ == 0) serial_ = p.group_counter;
      p.group_counter += 1;
      detail::check_mpi(MPI_Ibcast(&serial_, 1, MPI_UINT64_T, 0, dup_, &pending_), "MPI_Ibcast");
      stage_ = Stage::numbering;
      continue;
    }
    std::string text = "communicator ";
    for (int w : members_) text += std::to_string(w) + ",";
    detail::NewGroup g;
    g.members = std::move(members_);
    g.rank = rank_;
    g.pgid = Pgid{g.members.front(), serial_, detail::fingerprint(text) | (std::uint64_t{1} << 63)};
    group_ = detail::adopt_communicator(std::exchange(dup_, MPI_COMM_NULL), std::move(g),
                                        std::move(label_));
    stage_ = Stage::formed;
  }
  return true;
}

void GroupFormation::wait() {
  // Poll rather than block: collectives already in flight may need this process to progress
  // them before the other members reach this formation.
  while (!test()) detail::mpi_engine().poll();
}

Group GroupFormation::group() {
  wait();
  return group_;
}

Group group_of(MPI_Comm comm, std::string label) {
  GroupFormation f(comm, std::move(label));
  return f.group();
}

void progress() {
  detail::mpi_engine().poll();
}

}  // namespace ccl
