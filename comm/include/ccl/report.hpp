// A table of what each collective cost this run: calls, bytes sent (summed over the group's
// members), time (the slowest member's, when timing() is on) and the algorithm used.
#pragma once

#include <cstdio>

#include "ccl/group.hpp"
#include "ccl/stats.hpp"

namespace ccl {

// Collective over g: every member passes its own statistics; member 0 prints.
void print_statistics(const Group& g, const Statistics& mine, std::FILE* out);

}  // namespace ccl
