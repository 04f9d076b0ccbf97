// Holds on derived datatypes, counted; a free asked for while held waits for the last release.
#include "type_hold.hpp"

#include <map>

#include "datatype_layout.hpp"

namespace ccl::drop_in {

namespace {

struct Hold {
  int count = 0;
  bool freed = false;  // the program freed it: free it when the count falls to zero
};

// Never destroyed: kernels in static caches let go of their types during static destruction.
std::map<MPI_Datatype, Hold>& holds() {
  static auto* h = new std::map<MPI_Datatype, Hold>;
  return *h;
}

}  // namespace

void hold_type(MPI_Datatype type) {
  if (type == MPI_DATATYPE_NULL || is_predefined(type)) return;
  ++holds()[type].count;
}

void release_type(MPI_Datatype type) {
  auto it = holds().find(type);
  if (it == holds().end() || --it->second.count > 0) return;
  const bool freed = it->second.freed;
  holds().erase(it);
  int finalized = 0;
  PMPI_Finalized(&finalized);
  if (freed && !finalized) PMPI_Type_free(&type);
}

bool defer_type_free(MPI_Datatype type) {
  auto it = holds().find(type);
  if (it == holds().end()) return false;
  it->second.freed = true;
  return true;
}

}  // namespace ccl::drop_in
