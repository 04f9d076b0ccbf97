#include "ccl/grids/split.hpp"

#include "ccl/sim.hpp"

namespace ccl::grids {

Split sub_split(const Cartesian& shape, int rank, const std::vector<bool>& free) {
  return Split{shape.sub_index(rank, free), shape.sub_rank(rank, free)};
}

Group form(const Group& parent, const Split& mine, std::string label) {
  return partition(parent, mine.color, mine.key, std::move(label));
}

std::vector<Group> form(sim::World& world, std::span<const Group> views,
                        const std::function<Split(int)>& split_of) {
  std::vector<int> colors(views.size()), keys(views.size());
  for (std::size_t i = 0; i < views.size(); ++i) {
    const Split s = split_of(static_cast<int>(i));
    colors[i] = s.color;
    keys[i] = s.key;
  }
  return world.partition(views, colors, keys);
}

}  // namespace ccl::grids
