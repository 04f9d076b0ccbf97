// Sync (barrier) by dissemination (Hensgen, Finkel and Manber).
//
// Cost for n members: C1 = ceil(log2 n) steps of zero-byte messages, C2 = C3 = 0 bytes.
//
// In step j member i signals i + 2^j and waits for i − 2^j; after ceil(log2 n) steps every
// member has heard, directly or not, from every other:
//
//   n = 5:  j=0: i→i+1   j=1: i→i+2   j=2: i→i+4     (mod 5)
//
// Every member leaves in the last step: where cores are shared two or more ranks to each, it is
// not considered (Algorithm::releases_together).
#include "common.hpp"

namespace ccl::algorithms {

namespace {

Schedule build(const Shape& s, const Params&) {
  ScheduleBuilder b("dissemination");
  for (int dist = 1; dist < s.size; dist <<= 1) {
    b.send_token(mod(s.rank + dist, s.size));
    b.recv_token(mod(s.rank - dist, s.size));
    b.end_round();
  }
  return b.finish();
}

Cost cost(const Shape& s, const Params&) {
  return {u64(ceil_log2(s.size)), 0, 0};
}

}  // namespace

const Algorithm sync_dissemination{"dissemination", CollKind::sync, build,   cost,
                                   no_params,       nullptr,        nullptr, true};

}  // namespace ccl::algorithms
