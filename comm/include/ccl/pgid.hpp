// Process group identifiers. A PGID pairs the world rank of the group's member 0 (the leader) with
// the leader's group counter at the moment the group was formed, as in the CCL paper: every
// process counts the groups it helps form, so two live groups with the same leader always differ
// in the counter. Partition exchanges every member's counter in the control data it gathers
// anyway, so members agree without extra messages. Explicit groups (group(list)) have no setup
// exchange; they are numbered by how many times this exact member list was formed, and carry a
// fingerprint of the list (the `list_hash`, nonzero only for them).
#pragma once

#include <cstdint>
#include <functional>
#include <string>

namespace ccl {

struct Pgid {
  std::int32_t leader = -1;
  std::uint64_t serial = 0;
  std::uint64_t list_hash = 0;

  friend bool operator==(const Pgid&, const Pgid&) = default;
  friend auto operator<=>(const Pgid&, const Pgid&) = default;
  std::string str() const;
};

}  // namespace ccl

template <>
struct std::hash<ccl::Pgid> {
  std::size_t operator()(const ccl::Pgid& p) const noexcept {
    std::size_t h = std::hash<std::uint64_t>{}(p.serial);
    h ^= std::hash<std::int64_t>{}(p.leader) + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
    h ^= std::hash<std::uint64_t>{}(p.list_hash) + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
    return h;
  }
};
