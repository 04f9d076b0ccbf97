// The torus-aware algorithms grids/ adds to ccl's catalog (register_torus_algorithms, torus.hpp).
#pragma once

#include "ccl/algorithm.hpp"

namespace ccl::grids {

extern const Algorithm concat_torus_qcdoc;
extern const Algorithm concat_torus_multilink;

// Concat on a group declared as a torus (Shape::torus): the torus algorithms apply there only.
std::vector<Params> torus_candidates(const Shape& s);

}  // namespace ccl::grids
