// While ccl itself calls MPI (forming groups, its transfers, its requests), the drop-in's
// wrappers hand those calls straight to the PMPI entry points: a wrapper is active on this
// thread, so any MPI call made under it is ccl's own.
#pragma once

namespace ccl::drop_in {

// Initial-exec: a library loaded at start-up (LD_PRELOAD, or linked) has its thread-local data in
// the static block, so reaching it needs no __tls_get_addr call; each wrapper made two.
inline thread_local int wrapper_depth [[gnu::tls_model("initial-exec")]] = 0;

// True when the MPI call being made comes from ccl, inside a wrapper.
inline bool passing_through() {
  return wrapper_depth > 0;
}

struct InsideWrapper {
  InsideWrapper() { ++wrapper_depth; }
  ~InsideWrapper() { --wrapper_depth; }
  InsideWrapper(const InsideWrapper&) = delete;
  InsideWrapper& operator=(const InsideWrapper&) = delete;
};

}  // namespace ccl::drop_in
