// Words of the text settings (model files, CCL_ALGO_FILE, CCL_ALGO_<COLLECTIVE>): trimmed
// lines, upper-case names and collectives by name.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "ccl/shape.hpp"

namespace ccl::detail {

std::string upper(std::string_view s);
// The collective whose name() is `text`, in any case.
std::optional<CollKind> kind_named(std::string_view text);
// `s` without leading and trailing blanks.
std::string trim(const std::string& s);

}  // namespace ccl::detail
