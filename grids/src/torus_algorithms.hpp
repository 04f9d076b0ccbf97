// The torus-aware algorithms grids/ adds to ccl's catalog (register_torus_algorithms, torus.hpp).
#pragma once

#include "ccl/algorithm.hpp"

namespace ccl::grids {

extern const Algorithm concat_torus_qcdoc;

}  // namespace ccl::grids
