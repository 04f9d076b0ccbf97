// ccl::sim::World: P simulated members in one process sharing one network and one engine.
#include <memory>
#include <numeric>
#include <string>
#include <unordered_map>
#include <vector>

#include "ccl/collectives.hpp"
#include "ccl/error.hpp"
#include "ccl/sim.hpp"
#include "execution/engine.hpp"
#include "groups/group_state.hpp"
#include "groups/partition.hpp"
#include "transport/sim_network.hpp"

namespace ccl::sim {

struct World::Impl {
  int size = 0;
  Network net;
  detail::Engine engine{true};
  std::vector<std::unique_ptr<detail::Process>> members;
  std::unordered_map<Pgid, std::uint64_t> channels;  // one channel per group, found by PGID
  std::vector<Group> world;

  Group make_group(detail::NewGroup g, const std::string& label) {
    auto [it, fresh] = channels.try_emplace(g.pgid, channels.size() + 1);
    auto st = std::make_shared<detail::GroupState>();
    st->process =
        members[static_cast<std::size_t>(g.members[static_cast<std::size_t>(g.rank)])].get();
    st->rank = g.rank;
    st->members = std::move(g.members);
    st->set_label(label);
    st->pgid = g.pgid;
    st->channel = std::make_unique<SimChannel>(net, it->second, st->rank);
    return Group(std::move(st));
  }
};

World::World(int size) : impl_(std::make_unique<Impl>()) {
  if (size < 1) throw Error("ccl::sim::World: size must be at least 1");
  impl_->size = size;
  for (int r = 0; r < size; ++r) {
    auto p = std::make_unique<detail::Process>();
    p->world_rank = r;
    p->engine = &impl_->engine;
    impl_->members.push_back(std::move(p));
  }
  std::vector<int> all(static_cast<std::size_t>(size));
  std::iota(all.begin(), all.end(), 0);
  for (int r = 0; r < size; ++r) {
    impl_->world.push_back(impl_->make_group(detail::NewGroup{all, r, Pgid{0, 0, 0}}, "world"));
  }
}

World::~World() = default;

int World::size() const {
  return impl_->size;
}

std::vector<Group> World::world_groups() {
  return impl_->world;
}

std::vector<Group> World::partition(std::span<const Group> parents, std::span<const int> colors,
                                    std::span<const int> keys) {
  const std::size_t n = parents.size();
  if (colors.size() != n || keys.size() != n) {
    throw Error("ccl::sim::World::partition: need one color and one key per parent member");
  }
  for (std::size_t i = 0; i < n; ++i) {
    if (parents[i].size() != static_cast<int>(n) || parents[i].rank() != static_cast<int>(i)) {
      throw Error("ccl::sim::World::partition: parents[i] must be the view of parent rank i");
    }
  }
  std::vector<detail::PartitionEntry> mine(n);
  std::vector<std::vector<detail::PartitionEntry>> all(n, std::vector<detail::PartitionEntry>(n));
  std::vector<Request> req;
  for (std::size_t i = 0; i < n; ++i) {
    mine[i] = {colors[i], keys[i], parents[i].state().process->group_counter};
    req.push_back(iconcat(parents[i], std::span(&mine[i], 1), all[i]));
  }
  wait_all(req);
  std::vector<Group> out;
  for (std::size_t i = 0; i < n; ++i) {
    detail::NewGroup g =
        detail::derive_partition(all[i], static_cast<int>(i), parents[i].members());
    parents[i].state().process->group_counter += 1;
    out.push_back(impl_->make_group(std::move(g), std::to_string(colors[i])));
    const detail::GroupState& ps = parents[i].state();
    out.back().state().torus =
        detail::inherited_torus(ps.torus, ps.members, out.back().state().members);
  }
  return out;
}

std::vector<Group> World::group(std::span<const int> members, const std::string& label) {
  std::vector<Group> out;
  for (int w : members) {
    if (w < 0 || w >= impl_->size) {
      throw Error("ccl::sim::World::group: world rank " + std::to_string(w) + " out of range");
    }
    detail::Process& p = *impl_->members[static_cast<std::size_t>(w)];
    out.push_back(impl_->make_group(detail::form_explicit(p, members, impl_->size), label));
    const detail::GroupState& ws = impl_->world[static_cast<std::size_t>(w)].state();
    out.back().state().torus =
        detail::inherited_torus(ws.torus, ws.members, out.back().state().members);
  }
  return out;
}

const Statistics& World::statistics(int member) const {
  return impl_->members.at(static_cast<std::size_t>(member))->stats;
}

void World::reset_statistics() {
  for (auto& p : impl_->members) p->stats = Statistics{};
}

}  // namespace ccl::sim
