#include "selection/setting_text.hpp"

#include <cctype>

namespace ccl::detail {

std::string upper(std::string_view s) {
  std::string u(s);
  for (char& c : u) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return u;
}

std::optional<CollKind> kind_named(std::string_view text) {
  for (int k = 0; k < kCollKinds; ++k) {
    if (upper(name(static_cast<CollKind>(k))) == upper(text)) return static_cast<CollKind>(k);
  }
  return std::nullopt;
}

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return {};
  return s.substr(b, s.find_last_not_of(" \t\r") - b + 1);
}

}  // namespace ccl::detail
