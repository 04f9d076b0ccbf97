#include "mpi_channel.hpp"

#include <climits>
#include <string>

#include "ccl/error.hpp"

namespace ccl::detail {

// Handles hold MPI_Request values directly (Open MPI's are pointers).
static_assert(sizeof(MPI_Request) == sizeof(void*), "MPI_Request must be pointer-sized");

void check_mpi(int rc, const char* what) {
  if (rc == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  MPI_Error_string(rc, text, &len);
  throw Error(std::string("ccl: ") + what + " failed: " +
              std::string(text, static_cast<std::size_t>(len)));
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

template <class Post>
void split(std::size_t bytes, Post post) {
  if (bytes <= static_cast<std::size_t>(INT_MAX)) {
    post(0, static_cast<int>(bytes), MPI_BYTE);
    return;
  }
  post(0, static_cast<int>(bytes / kUnit), unit_type());
  if (bytes % kUnit != 0) post(bytes / kUnit * kUnit, static_cast<int>(bytes % kUnit), MPI_BYTE);
}

MPI_Request* requests(Handles& hs) { return reinterpret_cast<MPI_Request*>(hs.data()); }

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

std::uint64_t MpiChannel::tag(std::uint64_t instance, int phase) const {
  // Instances far apart may share a tag; by then the older one has long completed on this group,
  // as members start collectives on a group in the same order.
  return (instance % tag_cycle_) * kPhases + static_cast<std::uint64_t>(phase);
}

void MpiChannel::send(int peer, std::uint64_t tag, const std::byte* data, std::size_t bytes,
                      const Cost&, Handles& hs) {
  split(bytes, [&](std::size_t off, int count, MPI_Datatype type) {
    MPI_Request r;
    check_mpi(MPI_Isend(data + off, count, type, peer, static_cast<int>(tag), comm_, &r),
              "MPI_Isend");
    hs.push_back(reinterpret_cast<void*>(r));
  });
}

void MpiChannel::recv(int peer, std::uint64_t tag, std::byte* data, std::size_t bytes,
                      Handles& hs) {
  split(bytes, [&](std::size_t off, int count, MPI_Datatype type) {
    MPI_Request r;
    check_mpi(MPI_Irecv(data + off, count, type, peer, static_cast<int>(tag), comm_, &r),
              "MPI_Irecv");
    hs.push_back(reinterpret_cast<void*>(r));
  });
}

bool MpiChannel::test_all(Handles& hs) {
  if (hs.empty()) return true;
  int done = 0;
  check_mpi(MPI_Testall(static_cast<int>(hs.size()), requests(hs), &done, MPI_STATUSES_IGNORE),
            "MPI_Testall");
  return done != 0;
}

bool MpiChannel::exchange(int to, const std::byte* out, std::size_t out_bytes, int from,
                          std::byte* in, std::size_t in_bytes, std::uint64_t tag) {
  // Blocking calls skip request bookkeeping. A lone send may block only while small enough to
  // go eagerly: a large one could wait on a peer that is itself sending to us.
  constexpr std::size_t kEager = 1024;
  const int t = static_cast<int>(tag);
  if (to >= 0 && from >= 0) {
    if (out_bytes > static_cast<std::size_t>(INT_MAX) || in_bytes > static_cast<std::size_t>(INT_MAX)) return false;
    check_mpi(MPI_Sendrecv(out, static_cast<int>(out_bytes), MPI_BYTE, to, t, in, static_cast<int>(in_bytes),
                           MPI_BYTE, from, t, comm_, MPI_STATUS_IGNORE),
              "MPI_Sendrecv");
    return true;
  }
  if (from >= 0 && in_bytes <= static_cast<std::size_t>(INT_MAX)) {
    check_mpi(MPI_Recv(in, static_cast<int>(in_bytes), MPI_BYTE, from, t, comm_, MPI_STATUS_IGNORE), "MPI_Recv");
    return true;
  }
  if (to >= 0 && out_bytes <= kEager) {
    check_mpi(MPI_Send(out, static_cast<int>(out_bytes), MPI_BYTE, to, t, comm_), "MPI_Send");
    return true;
  }
  return false;
}

void MpiChannel::wait_all(Handles& hs) {
  if (hs.empty()) return;
  check_mpi(MPI_Waitall(static_cast<int>(hs.size()), requests(hs), MPI_STATUSES_IGNORE),
            "MPI_Waitall");
}

}  // namespace ccl::detail
