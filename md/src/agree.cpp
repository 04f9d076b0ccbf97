#include "md/agree.hpp"

#include "ccl/collectives.hpp"
#include "md/deck.hpp"

namespace md {

std::string broadcast_string(const ccl::Group& g, std::string s) {
  long size = static_cast<long>(s.size());
  ccl::bcast(g, std::span<long>(&size, 1), 0);
  s.resize(static_cast<std::size_t>(size));
  ccl::bcast(g, std::span<char>(s.data(), s.size()), 0);
  return s;
}

void fail_together(const ccl::Group& g, const std::string& member0_error) {
  const std::string error = broadcast_string(g, member0_error);
  if (!error.empty()) throw DeckError(error);
}

}  // namespace md
