#include "groups/partition.hpp"

#include <algorithm>
#include <numeric>
#include <set>
#include <string>
#include <unordered_map>

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

std::vector<int> inherited_torus(std::span<const int> parent_dims,
                                 std::span<const int> parent_members,
                                 std::span<const int> child_members) {
  const std::size_t n = child_members.size(), dims = parent_dims.size();
  if (dims == 0 || n < 2) return {};
  std::unordered_map<int, std::size_t> parent_rank;
  for (std::size_t r = 0; r < parent_members.size(); ++r) parent_rank[parent_members[r]] = r;
  // Each child member's coordinates in the parent's layout.
  std::vector<std::vector<int>> coords;
  for (const int w : child_members) {
    const auto it = parent_rank.find(w);
    if (it == parent_rank.end()) return {};
    std::vector<int> c(dims);
    std::size_t rest = it->second;
    for (std::size_t d = dims; d-- > 0;) {
      c[d] = static_cast<int>(rest % std::size_t(parent_dims[d]));
      rest /= std::size_t(parent_dims[d]);
    }
    coords.push_back(std::move(c));
  }
  // The free dimensions: those along which the members' coordinates differ.
  std::vector<std::size_t> free;
  std::size_t volume = 1;
  for (std::size_t d = 0; d < dims; ++d) {
    for (const auto& c : coords) {
      if (c[d] != coords[0][d]) {
        free.push_back(d);
        volume *= std::size_t(parent_dims[d]);
        break;
      }
    }
  }
  if (volume != n) return {};
  // Member k must sit at the k-th point of the free dimensions in row-major order.
  for (std::size_t k = 0; k < n; ++k) {
    std::size_t rest = k;
    for (std::size_t f = free.size(); f-- > 0;) {
      const std::size_t d = free[f];
      if (coords[k][d] != static_cast<int>(rest % std::size_t(parent_dims[d]))) return {};
      rest /= std::size_t(parent_dims[d]);
    }
    for (std::size_t d = 0; d < dims; ++d) {
      if (std::find(free.begin(), free.end(), d) == free.end() && coords[k][d] != coords[0][d]) {
        return {};
      }
    }
  }
  std::vector<int> out;
  for (const std::size_t d : free) out.push_back(parent_dims[d]);
  return out;
}

std::vector<int> parse_torus_dims(std::string_view text) {
  std::vector<int> dims;
  std::size_t at = 0;
  while (at <= text.size()) {
    const std::size_t end = std::min(text.find('x', at), text.size());
    const std::string_view part = text.substr(at, end - at);
    if (part.empty() || part.size() > 6 ||
        part.find_first_not_of("0123456789") != std::string_view::npos) {
      return {};
    }
    const int d = std::stoi(std::string(part));
    if (d < 1) return {};
    dims.push_back(d);
    at = end + 1;
  }
  return dims;
}

}  // namespace ccl::detail
