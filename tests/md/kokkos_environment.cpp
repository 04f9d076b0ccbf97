// Kokkos initialised once around all tests of a binary.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>

namespace {

class KokkosEnvironment : public ::testing::Environment {
 public:
  void SetUp() override { Kokkos::initialize(); }
  void TearDown() override { Kokkos::finalize(); }
};

const ::testing::Environment* const kKokkos =
    ::testing::AddGlobalTestEnvironment(new KokkosEnvironment);

}  // namespace
