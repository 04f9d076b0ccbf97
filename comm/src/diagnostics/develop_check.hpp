// Develop mode: before a collective runs, its members exchange a small descriptor of their call
// (concat) and each checks every member's against member 0's. Everyone sees the same table, so
// every member throws the same ccl::Error naming the group, the operation, the rank and the value
// that disagrees; nobody enters the real exchange with mismatched arguments. indexv adds an
// exchange of the send counts, checked against each receiver's recv counts.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "calls/call_check.hpp"
#include "execution/operation.hpp"
#include "groups/group_state.hpp"

namespace ccl::detail {

struct Descriptor {
  std::uint64_t pgid_serial;
  std::uint64_t pgid_hash;
  std::int32_t pgid_leader;
  std::uint32_t kind;
  std::int32_t root;
  std::int32_t distance;
  std::uint64_t elem;
  std::uint64_t count;
  std::uint64_t counts_hash;
  std::uint64_t op_id;
  char op_name[24];
  std::uint64_t choice_hash;  // the algorithm selected, which must agree too
  char choice[40];
  Problem problem;
};

Descriptor describe_call(const GroupState& g, const Call& c, const std::optional<Problem>& local);

// The first disagreement among the members' descriptors (indexed by rank), as a full message.
std::optional<std::string> find_disagreement(std::span<const Descriptor> all, const GroupState& g);

// Append the checking stages for the operation's call.
void add_develop_checks(Operation& op, const std::optional<Problem>& local, std::uint64_t instance);

}  // namespace ccl::detail
