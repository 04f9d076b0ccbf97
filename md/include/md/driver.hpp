// The deck interpreter: applies a deck's commands in order on every member of a group, running
// `run` commands. A bad command is a DeckError naming its file:line, the same on every member.
#pragma once

#include <string>

#include "ccl/group.hpp"
#include "md/run.hpp"

namespace md {

// The deck's text on every member: read by member 0 and broadcast; a file that cannot be read is
// a DeckError on every member.
std::string shared_deck_text(const ccl::Group& g, const std::string& path);

// Runs the deck `text` (named `file` in messages). Collective over g.
void run_deck(const std::string& text, const std::string& file, const RunOptions& options,
              const ccl::Group& g);

}  // namespace md
