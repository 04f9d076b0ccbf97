#include "ccl/local_work.hpp"

namespace ccl {

namespace {
LocalWorkHook hook = nullptr;
}  // namespace

void set_local_work_hook(LocalWorkHook h) {
  hook = h;
}

LocalWorkHook local_work_hook() {
  return hook;
}

}  // namespace ccl
