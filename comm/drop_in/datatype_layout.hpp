// How a buffer of MPI datatype elements maps to what ccl moves.
//
// Data-movement collectives move the packed bytes of the type map (MPI_Pack's order), so ranks
// whose datatypes differ but whose type signatures match (a root receiving 3 x MPI_DOUBLE per
// member that each sent as one contiguous(3, MPI_DOUBLE)) agree on every byte count. A buffer
// whose memory already is those bytes, in order, is used in place; any other is packed into a
// temporary before sending and unpacked after receiving.
//
// Reductions work element-wise on the one predefined type every leaf of the datatype is made of
// (its `basic` type: MPI_DOUBLE, or a pair type such as MPI_DOUBLE_INT for MINLOC). MPI has
// every rank pass the same datatype, so a reduction the drop-in cannot run in place (gaps in the
// buffer, mixed leaves) falls back to MPI on every rank alike.
#pragma once

#include <mpi.h>

#include <cstddef>

namespace ccl::drop_in {

struct Layout {
  std::size_t size = 0;  // bytes of data in one element (MPI_Type_size)
  MPI_Aint extent = 0;   // distance between consecutive elements
  bool packed = false;   // memory of n elements is exactly their packed bytes: used in place
  MPI_Datatype basic = MPI_DATATYPE_NULL;  // the single predefined leaf type, if any
  std::size_t basic_count = 0;             // basic elements per element
  bool basic_strided = false;  // n elements are n * basic_count basic elements one extent apart
};

// The layout of a committed datatype (cached: computing it walks the type's constructors).
const Layout& lookup_layout(MPI_Datatype type);
// The type looked up last (a program's calls mostly name one or two): no map search then, and
// no call (inline, on globals: every collective asks, the scatter wrapper three times).
[[gnu::visibility("hidden")]] extern MPI_Datatype last_layout_type;
[[gnu::visibility("hidden")]] extern const Layout* last_layout;
inline const Layout& layout_of(MPI_Datatype type) {
  if (last_layout != nullptr && type == last_layout_type) return *last_layout;
  return lookup_layout(type);
}
// Forget a datatype's cached layout (its handle may be reused after MPI_Type_free).
void forget_layout(MPI_Datatype type);
// Whether MPI defines the type itself (nothing to duplicate, hold or free); also true for a
// handle MPI cannot describe, which is no program's derived type either.
bool is_predefined(MPI_Datatype type);

}  // namespace ccl::drop_in
