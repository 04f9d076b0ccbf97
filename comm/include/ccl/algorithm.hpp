// The algorithm catalog: each entry builds the schedule of one collective for a given shape.
// One algorithm per file under comm/src/algorithms/, each with its cost in its header comment;
// adding an algorithm is adding its file and its line in catalog.cpp.
#pragma once

#include <span>
#include <string_view>

#include "ccl/schedule.hpp"
#include "ccl/shape.hpp"

namespace ccl {

struct Algorithm {
  std::string_view name;
  CollKind kind;  // the fixed-size kind; an algorithm also serves its vector form (concat/concatv)
  Schedule (*build)(const Shape&);
};

// The fixed-size kind of a vector form (concatv -> concat); other kinds map to themselves.
CollKind base_kind(CollKind k);

std::span<const Algorithm> catalog();

// The algorithm used for a shape.
const Algorithm& select_algorithm(const Shape& shape);

// Build the schedule of a shape with the selected algorithm.
Schedule build_schedule(const Shape& shape);

}  // namespace ccl
