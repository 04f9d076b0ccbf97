// The torus-aware algorithms grids/ adds to ccl's catalog, and the call that adds them (made by
// every Torus, so that every member of a torus group has them before its first concat).
#pragma once

#include "ccl/algorithm.hpp"

namespace ccl::grids {

extern const Algorithm concat_torus_qcdoc;

void register_torus_algorithms();

}  // namespace ccl::grids
