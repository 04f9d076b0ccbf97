// Group formation logic shared by the MPI and simulator transports: deriving a partition from
// the gathered (color, key, counter) of every parent member, and numbering explicit groups.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "ccl/pgid.hpp"
#include "groups/process.hpp"

namespace ccl::detail {

// What each parent member contributes to a partition (gathered with concat).
struct PartitionEntry {
  std::int64_t color;
  std::int64_t key;
  std::uint64_t counter;  // the member's group counter: the PGID needs the new leader's
};

struct NewGroup {
  std::vector<int> members;  // world ranks in new-group order
  int rank = 0;
  Pgid pgid;
};

// The group of parent member `my_parent_rank`: same color, ordered by key then parent rank.
NewGroup derive_partition(std::span<const PartitionEntry> all, int my_parent_rank,
                          std::span<const int> parent_world_ranks);

// Check an explicit member list (ranks in [0, world_size), no repeats, containing me) and give
// the group its PGID. Advances the process's counters.
NewGroup form_explicit(Process& p, std::span<const int> list, int world_size);

// The layout a group inherits from a parent laid out as a torus `parent_dims` (row-major over the
// parent's members): when the child's members, in child order, are a sub-torus of it (every
// coordinate of some dimensions, in row-major order, the others fixed), the extents of those
// dimensions; else empty (also for a single member). A sub-torus spans whole dimensions, so each
// of its rings keeps its wrap-around link. Members are world ranks.
std::vector<int> inherited_torus(std::span<const int> parent_dims,
                                 std::span<const int> parent_members,
                                 std::span<const int> child_members);

// The dimensions of a torus written as "8x8x4" (each at least 1); empty when the text is not one.
std::vector<int> parse_torus_dims(std::string_view text);

}  // namespace ccl::detail
