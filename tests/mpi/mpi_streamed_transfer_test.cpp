// Streamed transfers (stream_transfer.cpp): messages above one cell of the shared-memory rings,
// carried through the large ring as pieces. Collectives of awkward sizes around the piece and
// ring sizes come out right in flight with small ones on two groups; pieces that arrive before
// their receive is posted wait aside and are reassembled; a size the receiver does not expect,
// longer or shorter, is reported there and the group still works. Also run with
// CCL_STREAM_MAX=8192 (tests/CMakeLists.txt), where the same transfers go through MPI or are
// pushed, with CCL_SHM=0, and with CCL_STREAM_NT=1 and 0, where streams
// fill it by non-temporal stores or cached ones (by default each receiver asks for the cheaper,
// and single cells of 6-8 KiB go as the prices of both sides say, each way marked in the cell).
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "../common/reference.hpp"
#include "../common/unsupported.hpp"
#include "ccl/ccl.hpp"
#include "groups/group_state.hpp"
#include "transport/mpi_channel.hpp"
#include "transport/shm/shm_fabric.hpp"

namespace {

using I64 = std::int64_t;
using ccl::detail::ShmFabric;

ccl::detail::MpiChannel& channel_of(const ccl::Group& g) {
  return dynamic_cast<ccl::detail::MpiChannel&>(*g.state().channel);
}

// Whether messages of `bytes` go through the rings here (the fabric exists and streams them).
bool streamed(std::size_t bytes) {
  const char* shm = std::getenv("CCL_SHM");
  if (shm != nullptr && std::string(shm) == "0") return false;
  const char* max = std::getenv("CCL_STREAM_MAX");
  return max == nullptr || bytes <= std::strtoull(max, nullptr, 10);
}

std::vector<std::byte> pattern(int member, std::size_t bytes, int salt) {
  std::vector<std::byte> v(bytes);
  for (std::size_t i = 0; i < bytes; ++i) {
    v[i] = static_cast<std::byte>(
        (static_cast<std::size_t>(member) * 131 + i * 7 + static_cast<std::size_t>(salt)) & 0xff);
  }
  return v;
}

// Bytes around the piece (8 KiB) and the ring (8 pieces) sizes, and beyond; and single cells
// around where they are filled by non-temporal stores (ShmFabric::kStreamedCellFrom).
constexpr std::size_t kSizes[] = {ShmFabric::kStreamedCellFrom - 1,
                                  ShmFabric::kStreamedCellFrom,
                                  ShmFabric::kMaxBytes - 3,
                                  ShmFabric::kMaxBytes,
                                  ShmFabric::kMaxBytes + 1,
                                  2 * ShmFabric::kMaxBytes,
                                  8 * ShmFabric::kMaxBytes - 1,
                                  8 * ShmFabric::kMaxBytes + 1,
                                  300001,
                                  (std::size_t{1} << 20) + 3};

TEST(StreamedTransfers, CollectivesOfAwkwardSizesInFlightWithSmallOnesOnTwoGroups) {
  const ccl::Group w = ccl::world();
  const int P = w.size(), r = w.rank();
  const ccl::Group half = ccl::partition(w, r % 2, r, "half");
  int salt = 0;
  for (const std::size_t bytes : kSizes) {
    ++salt;
    const int root = salt % P;
    std::vector<std::byte> bcast_data =
        r == root ? pattern(root, bytes, salt) : std::vector<std::byte>(bytes);
    const std::vector<std::byte> mine = pattern(r, bytes, salt);
    std::vector<std::byte> shifted(bytes);
    std::vector<std::byte> gathered(r == root ? bytes * static_cast<std::size_t>(P) : 0);
    ccl::Request b = ccl::ibcast(w, std::span<std::byte>(bcast_data), root);
    ccl::Request s =
        ccl::ishift(w, std::span<const std::byte>(mine), std::span<std::byte>(shifted), 1);
    std::vector<I64> token = half.rank() == 0 ? ref::data(salt, 3) : std::vector<I64>(3, -1);
    ccl::Request t = ccl::ibcast(half, token, 0);
    ccl::Request g =
        ccl::igather(w, std::span<const std::byte>(mine), std::span<std::byte>(gathered), root);
    std::vector<I64> sum(bytes / 8 + 1);
    ccl::combine(w, ref::data(r, bytes / 8 + 1, salt), sum, ccl::sum);
    if (r % 2 == 0) {
      g.wait();
      t.wait();
      s.wait();
      b.wait();
    } else {
      b.wait();
      s.wait();
      t.wait();
      g.wait();
    }
    const std::string where = std::to_string(bytes) + " bytes";
    EXPECT_EQ(bcast_data, pattern(root, bytes, salt)) << "bcast of " << where;
    EXPECT_EQ(shifted, pattern((r - 1 + P) % P, bytes, salt)) << "shift of " << where;
    EXPECT_EQ(token, ref::data(salt, 3)) << "bcast on half, " << where;
    std::vector<I64> want_sum(bytes / 8 + 1, 0);
    for (int q = 0; q < P; ++q) {
      const std::vector<I64> d = ref::data(q, bytes / 8 + 1, salt);
      for (std::size_t i = 0; i < d.size(); ++i) want_sum[i] += d[i];
    }
    EXPECT_EQ(sum, want_sum) << "combine of " << where;
    if (r == root) {
      for (int q = 0; q < P; ++q) {
        const std::vector<std::byte> want = pattern(q, bytes, salt);
        ASSERT_TRUE(std::equal(
            want.begin(), want.end(),
            gathered.begin() + static_cast<std::ptrdiff_t>(bytes * static_cast<std::size_t>(q))))
            << "gather of " << where << ": block of member " << q;
      }
    }
  }
}

// Member 0 sends `sent` bytes then a 4000-byte message (the same ring) to member 1, which
// receives the short one first: the long one's pieces are read and kept aside on the way, and
// reassembled when its receive, naming `expected` bytes, is posted. Returns member 1's error
// message, empty when none; member 0 completes either way. Then the group must still work.
// Each use takes tags of its own (`use`): what is left of a stream refused midway is not taken.
std::string stream_between_first_two(std::size_t sent, std::size_t expected, int use) {
  const ccl::Group w = ccl::world();
  ccl::detail::MpiChannel& ch = channel_of(w);
  // Instances no collective here reaches.
  const std::uint64_t tag = ch.tag(ch.tag_cycle() - 1 - 2 * static_cast<std::uint64_t>(use), 0);
  const std::uint64_t after = ch.tag(ch.tag_cycle() - 2 - 2 * static_cast<std::uint64_t>(use), 0);
  const std::vector<std::byte> data = pattern(0, sent, 5), note = pattern(0, 4000, 6);
  std::string error;
  if (w.rank() == 0) {
    ccl::detail::Handles hs;
    ch.send(1, tag, data.data(), sent, hs);
    ch.send(1, after, note.data(), note.size(), hs);
    ch.wait_all(hs);
    ch.end_round(hs);
  } else if (w.rank() == 1) {
    std::vector<std::byte> got(expected), got_note(note.size());
    ccl::detail::Handles first, second;
    try {
      std::this_thread::sleep_for(
          std::chrono::milliseconds(20));  // all of it sent, or the ring full
      ch.recv(0, after, got_note.data(), got_note.size(), first);
      ch.wait_all(first);
      EXPECT_EQ(got_note, note) << "the message after the stream";
      ch.recv(0, tag, got.data(), expected, second);
      ch.wait_all(second);
      EXPECT_EQ(got, data) << "the stream, reassembled";
    } catch (const ccl::Error& e) {
      error = e.what();
    }
    ch.end_round(first);
    ch.end_round(second);
  }
  EXPECT_EQ(ccl::combine_value(w, I64{1}, ccl::sum), w.size()) << "the group after the transfer";
  return error;
}

TEST(StreamedTransfers, PiecesThatArriveBeforeTheirReceiveWaitAside) {
  const ccl::Group w = ccl::world();
  if (w.size() == 1) GTEST_SKIP() << "no peer";
  int use = 0;
  for (const std::size_t bytes : {std::size_t{20000}, std::size_t{200000}}) {
    const std::string error = stream_between_first_two(bytes, bytes, use++);
    EXPECT_EQ(error, "") << bytes << " bytes";
  }
}

TEST(StreamedTransfers, ASizeTheReceiverDoesNotExpectIsReportedThere) {
  const ccl::Group w = ccl::world();
  if (w.size() == 1 || !streamed(20000)) GTEST_SKIP() << "no streams";
  const std::string longer = stream_between_first_two(20000, 16000, 2);
  const std::string shorter = stream_between_first_two(12000, 16000, 3);
  if (w.rank() == 1) {
    EXPECT_NE(longer.find("a message of 16384 or more bytes arrived for a receive of 16000 bytes"),
              std::string::npos)
        << longer;
    EXPECT_NE(shorter.find("a message of 12000 bytes arrived for a receive of 16000 bytes"),
              std::string::npos)
        << shorter;
  }
}

// Reductions fold each piece of what they receive into their accumulator as it arrives
// (ScheduleRun::fold_for). Rank order survives it: a non-commutative operator, reduced at every
// root and combined, at sizes of one piece, several, more than the ring holds, and not a
// multiple of the piece, with 32-byte elements (whole elements per piece: folded) and 24-byte
// ones (not: a streamed message lands whole, then is reduced). A root that comes late finds the
// pieces waiting in the ring.
struct Affine {  // t -> scale * t + shift, composed: associative, not commutative
  std::uint64_t scale, shift, serial;
  friend bool operator==(const Affine&, const Affine&) = default;
};
struct Compose {
  Affine operator()(const Affine& f, const Affine& g) const {
    return {f.scale * g.scale, f.scale * g.shift + f.shift, f.serial + g.serial};
  }
};

template <class T, class Op>
void reduce_in_rank_order(std::size_t bytes, T (*element)(int member, std::size_t i), Op op,
                          int salt) {
  const ccl::Group w = ccl::world();
  const int P = w.size(), r = w.rank();
  const std::size_t n = bytes / sizeof(T);
  auto vector_of = [&](int member) {
    std::vector<T> v(n);
    for (std::size_t i = 0; i < n; ++i) v[i] = element(member + salt, i);
    return v;
  };
  std::vector<T> want = vector_of(0);
  for (int q = 1; q < P; ++q) {
    const std::vector<T> v = vector_of(q);
    for (std::size_t i = 0; i < n; ++i) want[i] = op(want[i], v[i]);
  }
  const std::vector<T> mine = vector_of(r);
  const std::string where = std::to_string(n) + " elements of " + std::to_string(sizeof(T)) + " B";
  for (int root = 0; root < P; ++root) {
    std::vector<T> got(r == root ? n : 0);
    if (r == root && root % 2 == 1) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    ccl::reduce(w, std::span<const T>(mine), std::span<T>(got), op, root);
    if (r == root) {
      EXPECT_TRUE(got == want) << "reduce at " << root << ", " << where;
    }
  }
  std::vector<T> all(n);
  ccl::combine(w, std::span<const T>(mine), std::span<T>(all), op);
  EXPECT_TRUE(all == want) << "combine, " << where;
}

ref::Mat mat_element(int member, std::size_t i) {
  return ref::mat(member, i);
}
Affine affine_element(int member, std::size_t i) {
  const auto m = static_cast<std::uint64_t>(member), k = static_cast<std::uint64_t>(i);
  return {3 + 2 * m + k % 5, 7 * m + k, m + 1};
}

TEST(StreamedTransfers, ReductionsFoldEachPieceInRankOrder) {
  int salt = 0;
  for (const std::size_t bytes :
       {std::size_t{96}, ShmFabric::kMaxBytes - 32, ShmFabric::kMaxBytes, 3 * ShmFabric::kMaxBytes,
        3 * ShmFabric::kMaxBytes + 96, 9 * ShmFabric::kMaxBytes + 64, std::size_t{200000}}) {
    reduce_in_rank_order(bytes / 32 * 32, mat_element, ref::MatMul{}, ++salt);
    reduce_in_rank_order(bytes / 24 * 24, affine_element, Compose{}, ++salt);
  }
}

// A stream that arrives while another receive is posted is kept aside piece by piece; a folded
// receive posted later folds those pieces in order: acc = mine op incoming, element by element.
TEST(StreamedTransfers, AStreamKeptAsideFoldsWhenItsReceiveIsPosted) {
  const ccl::Group w = ccl::world();
  const std::size_t bytes = 3 * ShmFabric::kMaxBytes + 64, n = bytes / sizeof(ref::Mat);
  ccl::detail::MpiChannel& ch = channel_of(w);
  if (w.size() == 1 || !streamed(bytes)) GTEST_SKIP() << "no peer, or streams switched off";
  if (!ch.folds(0, bytes, sizeof(ref::Mat)))
    SKIP_UNSUPPORTED("no shared-memory fabric to fold from");
  const std::uint64_t tag = ch.tag(ch.tag_cycle() - 11, 0);
  const std::uint64_t after = ch.tag(ch.tag_cycle() - 12, 0);
  const std::vector<ref::Mat> data = ref::mats(0, n), mine = ref::mats(1, n);
  const std::vector<std::byte> note = pattern(0, 4000, 6);
  if (w.rank() == 0) {
    ccl::detail::Handles hs;
    ch.send(1, tag, reinterpret_cast<const std::byte*>(data.data()), bytes, hs);
    ch.send(1, after, note.data(), note.size(), hs);
    ch.wait_all(hs);
    ch.end_round(hs);
  } else if (w.rank() == 1) {
    std::vector<std::byte> got_note(note.size());
    std::vector<ref::Mat> acc(n);
    const ccl::ReduceKernel kernel = ccl::make_kernel<ref::Mat>(ref::MatMul{});
    ccl::detail::Fold fold;
    fold.acc = reinterpret_cast<std::byte*>(acc.data());
    fold.other = reinterpret_cast<const std::byte*>(mine.data());
    fold.kernel = &kernel;
    fold.elem = sizeof(ref::Mat);
    ccl::detail::Handles first, second;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));  // all of it sent
    ch.recv(0, after, got_note.data(), got_note.size(), first);
    ch.wait_all(first);
    ch.end_round(first);
    EXPECT_EQ(got_note, note) << "the message after the stream";
    ch.recv_folded(0, tag, bytes, fold, second);
    ch.wait_all(second);
    ch.end_round(second);
    for (std::size_t i = 0; i < n; ++i) {
      ASSERT_EQ(acc[i], ref::mat_mul(mine[i], data[i])) << "element " << i << " of " << n;
    }
  }
  EXPECT_EQ(ccl::combine_value(w, I64{1}, ccl::sum), w.size()) << "the group after the transfer";
}

}  // namespace
