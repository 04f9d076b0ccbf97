#include "groups/partition.hpp"

#include <algorithm>
#include <numeric>
#include <set>
#include <string>

#include "ccl/error.hpp"
#include "ccl/reduce_op.hpp"

namespace ccl::detail {

NewGroup derive_partition(std::span<const PartitionEntry> all, int my_parent_rank,
                          std::span<const int> parent_world_ranks) {
  const std::int64_t color = all[static_cast<std::size_t>(my_parent_rank)].color;
  std::vector<int> parent_ranks;
  for (int i = 0; i < static_cast<int>(all.size()); ++i) {
    if (all[static_cast<std::size_t>(i)].color == color) parent_ranks.push_back(i);
  }
  std::stable_sort(parent_ranks.begin(), parent_ranks.end(), [&](int a, int b) {
    return all[static_cast<std::size_t>(a)].key < all[static_cast<std::size_t>(b)].key;
  });
  NewGroup g;
  for (std::size_t i = 0; i < parent_ranks.size(); ++i) {
    g.members.push_back(parent_world_ranks[static_cast<std::size_t>(parent_ranks[i])]);
    if (parent_ranks[i] == my_parent_rank) g.rank = static_cast<int>(i);
  }
  const int leader = parent_ranks.front();
  g.pgid = Pgid{g.members.front(), all[static_cast<std::size_t>(leader)].counter, 0};
  return g;
}

NewGroup form_explicit(Process& p, std::span<const int> list, int world_size) {
  NewGroup g;
  std::set<int> seen;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const int w = list[i];
    if (w < 0 || w >= world_size) {
      throw Error("ccl::group: member " + std::to_string(i) + " is world rank " +
                  std::to_string(w) + ", outside [0, " + std::to_string(world_size) + ")");
    }
    if (!seen.insert(w).second) {
      throw Error("ccl::group: world rank " + std::to_string(w) + " is listed twice");
    }
    if (w == p.world_rank) g.rank = static_cast<int>(i);
  }
  if (!seen.contains(p.world_rank)) {
    throw Error("ccl::group: called by world rank " + std::to_string(p.world_rank) +
                ", which is not in the member list");
  }
  g.members.assign(list.begin(), list.end());
  const std::uint64_t serial = ++p.explicit_forms[g.members];
  std::string text;
  for (int w : g.members) text += std::to_string(w) + ",";
  // The top bit marks explicit groups apart from partitions (whose list_hash is 0).
  const std::uint64_t hash = fingerprint(text) | (std::uint64_t{1} << 63);
  g.pgid = Pgid{g.members.front(), serial, hash};
  p.group_counter += 1;
  return g;
}

}  // namespace ccl::detail
