// Overrides of the model's choice, strongest first: the API (set_override), CCL_ALGO_<COLLECTIVE>,
// then CCL_ALGO_FILE's lines.
#pragma once

#include <map>
#include <string>

#include "ccl/selection.hpp"

namespace ccl::detail {

struct Override {
  Choice choice;
  std::string origin;  // "CCL_ALGO_CONCAT", "file.txt:3", "API"
};

// The strongest override for the kind (its own, else its fixed-size kind's), or null.
const Override* override_for(CollKind kind);

}  // namespace ccl::detail
