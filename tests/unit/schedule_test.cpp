// Schedule building rules and block layouts.
#include <gtest/gtest.h>

#include <stdexcept>

#include "ccl/algorithm.hpp"
#include "ccl/schedule.hpp"
#include "ccl/selection.hpp"
#include "ccl/shape.hpp"

namespace {

using ccl::Buffer;
using ccl::Slice;
using ccl::StepKind;

TEST(ScheduleBuilder, LocalStepAfterTransferOpensRound) {
  ccl::ScheduleBuilder b("t");
  const Slice in = b.scratch(8), acc{Buffer::recv, 0, 8};
  b.copy(Slice{Buffer::send, 0, 8}, acc);
  b.send(1, acc);
  b.recv(1, in);
  b.reduce(in, acc, true);
  b.send(2, acc);
  const ccl::Schedule s = b.finish();
  ASSERT_EQ(s.rounds(), 2u);
  EXPECT_EQ(s.round(0).size(), 3u);
  EXPECT_EQ(s.round(1).size(), 2u);
  EXPECT_EQ(s.round(1)[0].kind, StepKind::reduce);
  EXPECT_TRUE(s.round(1)[0].incoming_left);
  EXPECT_EQ(s.scratch_bytes % 64, 0u);
}

TEST(ScheduleBuilder, SendOfBytesReceivedThisRoundWaitsForTheRound) {
  ccl::ScheduleBuilder b("t");
  const Slice data{Buffer::recv, 0, 16};
  b.recv(0, data);
  b.send(3, data.sub(8, 8));             // overlaps the receive: next round
  b.send(4, Slice{Buffer::send, 0, 8});  // unrelated: same round as the previous send
  const ccl::Schedule s = b.finish();
  ASSERT_EQ(s.rounds(), 2u);
  EXPECT_EQ(s.round(0).size(), 1u);
  EXPECT_EQ(s.round(1).size(), 2u);
}

TEST(ScheduleBuilder, GatheredTransfersMergeAdjacentPiecesAndStageInScratch) {
  // Pieces [0,8) [8,16) [32,40) of recv: two extents, 24 bytes, staged in 24 bytes of scratch; a
  // single piece (after merging) is an ordinary send of it; a receive scattered into bytes the
  // round's gathered send reads waits for the next round, and so does a send of bytes a
  // scattered receive of the round writes.
  using ccl::Extent;
  ccl::ScheduleBuilder b("t");
  const Extent three[] = {{0, 8}, {8, 8}, {32, 8}};
  b.send_gathered(1, Buffer::recv, three);
  const Extent two_adjacent[] = {{64, 8}, {72, 8}};
  b.send_gathered(2, Buffer::recv, two_adjacent);
  const Extent into_sent[] = {{100, 4}, {36, 2}};
  b.recv_scattered(3, Buffer::recv, into_sent);
  b.send(4, Slice{Buffer::recv, 101, 1});
  const ccl::Schedule s = b.finish();
  ASSERT_EQ(s.rounds(), 3u);
  ASSERT_EQ(s.round(0).size(), 2u);
  const ccl::Step& gathered = s.round(0)[0];
  EXPECT_EQ(gathered.kind, StepKind::send);
  EXPECT_EQ(gathered.extents, 2u);
  EXPECT_EQ(gathered.src.buffer, Buffer::scratch);
  EXPECT_EQ(gathered.src.bytes, 24u);
  EXPECT_GE(s.scratch_bytes, 24u);
  const auto pieces = s.extents_of(gathered);
  ASSERT_EQ(pieces.size(), 2u);
  EXPECT_EQ(pieces[0], (Extent{0, 16}));
  EXPECT_EQ(pieces[1], (Extent{32, 8}));
  const ccl::Step& plain = s.round(0)[1];
  EXPECT_EQ(plain.extents, 0u);
  EXPECT_EQ(plain.src, (Slice{Buffer::recv, 64, 16}));
  EXPECT_EQ(s.round(1)[0].extents, 2u);
  EXPECT_EQ(s.round(1)[0].kind, StepKind::recv);
  EXPECT_EQ(s.round(2)[0].peer, 4);
  EXPECT_EQ(s.plans[0].gathered, 1u);
  EXPECT_FALSE(s.plans[1].pair);  // a gathered transfer is never a blocking pair
}

TEST(ScheduleBuilder, RoundConflictsSeeEveryTransferOfTheRound) {
  // Receives in pieces that merge ([0,8) [16,24) [8,16)): a send of any byte of them waits, one
  // just past them does not; a receive into a byte another receive or a send of the round
  // holds waits too. Other buffers never conflict.
  ccl::ScheduleBuilder b("t");
  b.recv(1, Slice{Buffer::recv, 0, 8});
  b.recv(2, Slice{Buffer::recv, 16, 8});
  b.recv(3, Slice{Buffer::recv, 8, 8});
  b.send(4, Slice{Buffer::recv, 24, 8});  // past them: this round
  b.send(5, Slice{Buffer::send, 0, 64});  // another buffer: this round
  b.recv(6, Slice{Buffer::scratch, 0, 8});
  b.send(7, Slice{Buffer::recv, 23, 1});  // the last received byte: next round
  b.recv(8, Slice{Buffer::recv, 23, 1});  // writes what the round's send reads: next round
  b.recv(9, Slice{Buffer::recv, 40, 8});
  b.recv(10, Slice{Buffer::recv, 44, 1});  // inside the previous receive: next round
  const ccl::Schedule s = b.finish();
  ASSERT_EQ(s.rounds(), 4u);
  EXPECT_EQ(s.round(0).size(), 6u);
  EXPECT_EQ(s.round(1).size(), 1u);
  EXPECT_EQ(s.round(2).size(), 2u);
  EXPECT_EQ(s.round(3).size(), 1u);
}

TEST(ScheduleBuilder, LinearConcatOnThousandsOfMembersIsOneRound) {
  ccl::Shape s;
  s.kind = ccl::CollKind::concat;
  s.size = 4096;
  s.rank = 17;
  s.count = 3;
  const ccl::Schedule sched =
      ccl::find_algorithm(ccl::CollKind::concat, "linear")->build(s, ccl::Params{});
  std::size_t transfers = 0;
  for (const auto& st : sched.round(0)) transfers += st.kind != StepKind::copy;
  EXPECT_EQ(sched.rounds(), 1u);
  EXPECT_EQ(transfers, 2u * 4095);
}

TEST(ScheduleBuilder, CopyDuringRunsInTheRoundOfItsTransfers) {
  ccl::ScheduleBuilder b("t");
  const Slice own{Buffer::send, 0, 8}, place{Buffer::recv, 8, 8};
  b.send(1, Slice{Buffer::send, 8, 8});
  b.recv(2, Slice{Buffer::recv, 0, 8});
  b.copy_during(own, place);  // touches neither transfer: overlaps them
  b.send(3, own);             // any later step opens a new round
  const ccl::Schedule s = b.finish();
  ASSERT_EQ(s.rounds(), 2u);
  ASSERT_EQ(s.round(0).size(), 3u);
  EXPECT_EQ(s.round(0)[2].kind, StepKind::copy);
  EXPECT_EQ(s.plans[0].locals, 0u);
  EXPECT_EQ(s.plans[0].during, 1u);
  EXPECT_EQ(s.plans[0].during_bytes, 8u);
  EXPECT_EQ(s.plans[1].during, 0u);
}

TEST(ScheduleBuilder, CopyDuringThatTouchesATransferWaitsForTheRound) {
  // Writing what the round sends, writing or reading what it receives: an ordinary copy after
  // the round. Reading what it sends is fine.
  const Slice sent{Buffer::recv, 0, 8}, received{Buffer::recv, 8, 8},
      elsewhere{Buffer::recv, 16, 8};
  const std::pair<Slice, Slice> cases[] = {
      {elsewhere, sent}, {elsewhere, received}, {received, elsewhere}};
  for (const auto& [from, to] : cases) {
    ccl::ScheduleBuilder b("t");
    b.send(1, sent);
    b.recv(1, received);
    b.copy_during(from, to);
    const ccl::Schedule s = b.finish();
    ASSERT_EQ(s.rounds(), 2u);
    EXPECT_EQ(s.plans[0].during, 0u);
    EXPECT_EQ(s.plans[1].locals, 1u);
  }
  ccl::ScheduleBuilder b("t");
  b.send(1, sent);
  b.copy_during(sent, elsewhere);
  EXPECT_EQ(b.finish().plans[0].during, 1u);
  ccl::ScheduleBuilder alone("t");  // nothing in flight to overlap: an ordinary local step
  alone.copy_during(sent, elsewhere);
  const ccl::Schedule a = alone.finish();
  EXPECT_EQ(a.plans[0].locals, 1u);
  EXPECT_EQ(a.plans[0].during, 0u);
}

TEST(ScheduleBuilder, ZeroByteTransfersAndSelfCopiesAreDropped) {
  ccl::ScheduleBuilder b("t");
  b.send(1, Slice{Buffer::send, 0, 0});
  b.recv(1, Slice{Buffer::recv, 0, 0});
  b.copy(Slice{Buffer::recv, 4, 4}, Slice{Buffer::recv, 4, 4});
  EXPECT_EQ(b.finish().rounds(), 0u);
  ccl::ScheduleBuilder t("t");
  t.send_token(1);
  t.recv_token(2);
  EXPECT_EQ(t.finish().rounds(), 1u);
}

// A receive may fold into the reduce that opens the next round (Step::folds) only where doing
// that reduce early, piece by piece, changes nothing any other step sees. first_recv: the first
// receive of `s` once its folds are marked.
ccl::Step first_recv(ccl::Schedule s, bool in_place = false) {
  ccl::mark_folds(s, in_place);
  for (const ccl::Step& st : s.steps) {
    if (st.kind == StepKind::recv) return st;
  }
  throw std::logic_error("no receive");
}

TEST(ScheduleBuilder, AReceiveFoldsIntoTheReduceOfWhatItReceived) {
  const Slice mine{Buffer::send, 0, 64}, acc{Buffer::recv, 0, 64};
  ccl::ScheduleBuilder into_acc("t");  // a binomial root's first child: into acc, then fold
  into_acc.recv(1, acc);
  into_acc.reduce(acc, acc, false, mine);
  EXPECT_TRUE(first_recv(into_acc.finish()).folds);

  ccl::ScheduleBuilder into_scratch("t");  // a later child: into scratch, never read again
  const Slice in = into_scratch.scratch(64);
  into_scratch.recv(2, in);
  into_scratch.reduce(in, acc, true);
  into_scratch.send(0, acc);
  EXPECT_TRUE(first_recv(into_scratch.finish()).folds);
}

TEST(ScheduleBuilder, AReceiveDoesNotFoldWhereOtherStepsWouldSeeTheDifference) {
  const Slice mine{Buffer::send, 0, 64}, acc{Buffer::recv, 0, 64};
  {  // the round also sends the accumulator, which folding would change under the send
    ccl::ScheduleBuilder b("t");
    const Slice in = b.scratch(64);
    b.send(1, acc);
    b.recv(1, in);
    b.reduce(in, acc, false);
    EXPECT_FALSE(first_recv(b.finish()).folds);
  }
  {  // a later step reads what was received, which folding never stores
    ccl::ScheduleBuilder b("t");
    const Slice in = b.scratch(64);
    b.recv(1, in);
    b.reduce(in, acc, false);
    b.send(2, in);
    EXPECT_FALSE(first_recv(b.finish()).folds);
  }
  {  // a later reduce accumulates into what was received, reading it first
    ccl::ScheduleBuilder b("t");
    const Slice in = b.scratch(64);
    b.recv(1, in);
    b.reduce(in, acc, false);
    b.recv(2, Slice{Buffer::recv, 64, 64});
    b.reduce(Slice{Buffer::recv, 64, 64}, in, false);
    EXPECT_FALSE(first_recv(b.finish()).folds);
  }
  {  // ... unless that slice is received into again first
    ccl::ScheduleBuilder b("t");
    const Slice in = b.scratch(64);
    b.recv(1, in);
    b.reduce(in, acc, false);
    b.recv(2, in);
    b.reduce(in, acc, false);
    ccl::Schedule s = b.finish();
    ccl::mark_folds(s, false);
    EXPECT_TRUE(s.steps[0].folds);
    EXPECT_TRUE(s.steps[2].folds);
  }
  {  // the reduce reads another slice than the one received
    ccl::ScheduleBuilder b("t");
    const Slice in = b.scratch(128);
    b.recv(1, in);
    b.reduce(in.sub(0, 64), acc, false);
    EXPECT_FALSE(first_recv(b.finish()).folds);
  }
  {  // the next round opens with a copy, not a reduce
    ccl::ScheduleBuilder b("t");
    b.recv(1, acc);
    b.copy(acc, Slice{Buffer::recv, 64, 64});
    EXPECT_FALSE(first_recv(b.finish()).folds);
  }
  {  // the round sends the member's own vector, which in place is the accumulator
    auto exchange = [&] {
      ccl::ScheduleBuilder b("t");
      const Slice in = b.scratch(64);
      b.send(1, mine);
      b.recv(1, in);
      b.reduce(in, acc, false, mine);
      return b.finish();
    };
    EXPECT_TRUE(first_recv(exchange(), false).folds);
    EXPECT_FALSE(first_recv(exchange(), true).folds);
  }
}

TEST(BlockLayout, CyclicRanges) {
  ccl::Shape s;
  s.kind = ccl::CollKind::concatv;
  s.size = 4;
  s.elem = 2;
  s.counts = {1, 0, 3, 2};
  const ccl::BlockLayout l(s);
  EXPECT_EQ(l.total(), 12u);
  EXPECT_EQ(l.offset(2), 2u);
  EXPECT_EQ(l.bytes(2), 6u);
  EXPECT_EQ(l.cyclic_bytes(2, 2), 10u);
  EXPECT_EQ(l.cyclic_bytes(3, 2), 6u);  // blocks 3 and 0
  EXPECT_EQ(l.cyclic_bytes(3, 4), 12u);
  EXPECT_EQ(l.cyclic_bytes(1, 0), 0u);
}

TEST(Catalog, EveryKindHasAnAlgorithm) {
  for (int k = 0; k < ccl::kCollKinds; ++k) {
    ccl::Shape s;
    s.kind = static_cast<ccl::CollKind>(k);
    s.size = 5;
    s.count = 2;
    if (ccl::is_vector_form(s.kind)) s.counts = {1, 2, 0, 3, 1};
    if (s.kind == ccl::CollKind::indexv) s.recv_counts = {2, 2, 2, 2, 2};
    const ccl::Choice c = ccl::select(s);
    EXPECT_EQ(c.algorithm->kind, ccl::base_kind(s.kind));
    EXPECT_FALSE(ccl::build_schedule(s).algorithm.empty());
  }
}

TEST(Catalog, BruckConcatHasCeilLog2Rounds) {
  for (int n = 1; n <= 40; ++n) {
    ccl::Shape s;
    s.kind = ccl::CollKind::concat;
    s.size = n;
    s.rank = n / 2;
    s.count = 1;
    int k = 0;
    while ((1 << k) < n) ++k;
    const auto sched = ccl::build_schedule(s);
    std::size_t transfer_rounds = 0;
    for (std::size_t r = 0; r < sched.rounds(); ++r) {
      for (const auto& st : sched.round(r)) {
        if (st.kind == StepKind::send) {
          ++transfer_rounds;
          break;
        }
      }
    }
    EXPECT_EQ(transfer_rounds, static_cast<std::size_t>(k)) << "n = " << n;
  }
}

TEST(Catalog, MeshPlansOnHundredsOfMembersArePricedByTheLineThroughMemberZero) {
  // 128 members, mesh 4x32, ring reduce-scatters then ring collects: pieces of m/4 along the
  // first dimension and m/128 along the second. With equal pieces every line is alike and the
  // price is exact; with uneven ones it lies between the prices of the even sizes around them.
  const ccl::Algorithm* intercom = ccl::find_algorithm(ccl::CollKind::combine, "intercom");
  const ccl::Params plan{0, 0, {4, 32}, "RRCC"};
  auto price = [&](std::size_t doubles) {
    ccl::Shape s;
    s.kind = ccl::CollKind::combine;
    s.size = 128;
    s.count = doubles;
    s.elem = 8;
    return intercom->cost(s, plan);
  };
  const ccl::Cost even = price(128 * 4);
  const std::uint64_t m = 128 * 4 * 8, steps = 3 + 31, bytes = 3 * m / 4 + 31 * m / 128;
  EXPECT_EQ(even.c1, 2 * steps);
  EXPECT_EQ(even.c2, 2 * bytes);
  EXPECT_EQ(even.c3, bytes);
  const ccl::Cost uneven = price(128 * 4 + 77), above = price(128 * 5);
  EXPECT_GE(uneven.c2, price(128 * 4 + 76).c2);
  EXPECT_GT(uneven.c2, even.c2);
  EXPECT_LT(uneven.c2, above.c2);
  EXPECT_EQ(uneven.c1, even.c1);
}

TEST(Shape, EqualShapesHashEqual) {
  ccl::Shape a;
  a.kind = ccl::CollKind::concatv;
  a.size = 3;
  a.counts = {1, 2, 3};
  ccl::Shape b = a;
  EXPECT_EQ(a, b);
  EXPECT_EQ(std::hash<ccl::Shape>{}(a), std::hash<ccl::Shape>{}(b));
  b.counts[2] = 4;
  EXPECT_NE(a, b);
  EXPECT_EQ(ccl::mpi_name(ccl::CollKind::combine), "MPI_Allreduce");
  EXPECT_EQ(ccl::name(ccl::CollKind::index), "index");
}

}  // namespace
