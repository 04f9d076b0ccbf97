// What member 0 alone knows (a file's text, whether it could be opened) made known to every
// member, so that every member goes on, or fails, the same way.
#pragma once

#include <string>

#include "ccl/group.hpp"

namespace md {

// Member 0's string on every member (bcast of its length, then its bytes).
std::string broadcast_string(const ccl::Group& g, std::string s);

// Member 0's error message, if not empty, thrown as a DeckError on every member.
void fail_together(const ccl::Group& g, const std::string& member0_error);

}  // namespace md
