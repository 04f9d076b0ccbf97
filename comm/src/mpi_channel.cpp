#include "mpi_channel.hpp"

#include <climits>
#include <vector>

#include "ccl/error.hpp"
#include "schedule_run.hpp"

namespace ccl::detail {

void check_mpi(int rc, const char* what) {
  if (rc == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  MPI_Error_string(rc, text, &len);
  throw Error(std::string("ccl: ") + what + " failed: " + std::string(text, static_cast<std::size_t>(len)));
}

namespace {

// MPI counts are int: a transfer above INT_MAX bytes goes as whole 1 GiB units plus a remainder,
// split the same way on both sides.
constexpr std::size_t kUnit = std::size_t{1} << 30;

MPI_Datatype unit_type() {
  static MPI_Datatype t = [] {
    MPI_Datatype d;
    MPI_Type_contiguous(static_cast<int>(kUnit), MPI_BYTE, &d);
    MPI_Type_commit(&d);
    return d;
  }();
  return t;
}

struct MpiEndpoint {
  using Handle = MPI_Request;
  MPI_Comm comm;
  int tag;

  template <class Post>
  void split(std::size_t bytes, Post post) {
    if (bytes <= static_cast<std::size_t>(INT_MAX)) {
      post(0, static_cast<int>(bytes), MPI_BYTE);
      return;
    }
    post(0, static_cast<int>(bytes / kUnit), unit_type());
    if (bytes % kUnit != 0) post(bytes / kUnit * kUnit, static_cast<int>(bytes % kUnit), MPI_BYTE);
  }
  void send(int peer, const std::byte* data, std::size_t bytes, std::vector<Handle>& hs) {
    split(bytes, [&](std::size_t off, int count, MPI_Datatype type) {
      check_mpi(MPI_Isend(data + off, count, type, peer, tag, comm, &hs.emplace_back()), "MPI_Isend");
    });
  }
  void recv(int peer, std::byte* data, std::size_t bytes, std::vector<Handle>& hs) {
    split(bytes, [&](std::size_t off, int count, MPI_Datatype type) {
      check_mpi(MPI_Irecv(data + off, count, type, peer, tag, comm, &hs.emplace_back()), "MPI_Irecv");
    });
  }
  bool test_all(std::vector<Handle>& hs) {
    if (hs.empty()) return true;
    int done = 0;
    check_mpi(MPI_Testall(static_cast<int>(hs.size()), hs.data(), &done, MPI_STATUSES_IGNORE),
              "MPI_Testall");
    return done != 0;
  }
  void wait_all(std::vector<Handle>& hs) {
    if (hs.empty()) return;
    check_mpi(MPI_Waitall(static_cast<int>(hs.size()), hs.data(), MPI_STATUSES_IGNORE),
              "MPI_Waitall");
  }
};

}  // namespace

MpiChannel::MpiChannel(MPI_Comm comm) : comm_(comm) {
  MPI_Comm_set_errhandler(comm_, MPI_ERRORS_RETURN);
  int* tag_ub = nullptr;
  int flag = 0;
  MPI_Comm_get_attr(comm_, MPI_TAG_UB, &tag_ub, &flag);
  const std::uint64_t ub = flag ? static_cast<std::uint64_t>(*tag_ub) : 32767;
  tag_cycle_ = (ub + 1) / kPhases;
}

MpiChannel::~MpiChannel() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized && comm_ != MPI_COMM_NULL) MPI_Comm_free(&comm_);
}

std::unique_ptr<Stage> MpiChannel::run(std::shared_ptr<const Schedule> schedule,
                                       const RunContext& ctx) {
  // Instances far apart may share a tag; by then the older one has long completed on this group,
  // as members start collectives on a group in the same order.
  const int tag = static_cast<int>((ctx.instance % tag_cycle_) * kPhases +
                                   static_cast<std::uint64_t>(ctx.phase));
  return std::make_unique<ScheduleRun<MpiEndpoint>>(MpiEndpoint{comm_, tag}, std::move(schedule),
                                                    ctx);
}

}  // namespace ccl::detail
