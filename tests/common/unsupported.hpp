// A case this machine cannot run — the kernel refuses cross-memory attach, there is no
// shared-memory fabric, ranks do not share cores — is skipped with its reason, as GTEST_SKIP
// does, and counted: when nothing failed, the MPI test main then prints a "ccl-test: UNSUPPORTED"
// line, which the suite's SKIP_REGULAR_EXPRESSION turns into a test reported as Skipped rather
// than Passed. Skips a test size decides (one rank has no peer) stay plain GTEST_SKIPs.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>

namespace ccl_test {

inline int& unsupported_cases() {
  static int count = 0;
  return count;
}

// CCL_SHM=0: the fabric is switched off by the test's settings, not missing.
inline bool shm_switched_off() {
  const char* v = std::getenv("CCL_SHM");
  return v != nullptr && std::strcmp(v, "0") == 0;
}

}  // namespace ccl_test

#define SKIP_UNSUPPORTED(why)                    \
  do {                                           \
    ++::ccl_test::unsupported_cases();           \
    GTEST_SKIP() << "unsupported here: " << why; \
  } while (false)
