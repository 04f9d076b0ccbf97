// An allgather on a torus as a plan relative to the receiving node (every node does the same,
// translated): per step, the shares of blocks that arrive on each of its links. The QCDOC scheme
// (qcdoc_plan.hpp) and the multi-link scheme (multilink_plan.hpp) are plans; one schedule builder
// (torus_plan_schedule.hpp) turns any plan into a ccl schedule.
#pragma once

#include <cstdint>
#include <vector>

#include "ccl/grids/cartesian.hpp"

namespace ccl::grids {

// A link of a node: dimension and direction of travel (+1: data moves to higher coordinates,
// so it arrives from the neighbour below).
struct Link {
  int dim = 0;
  int dir = +1;
  int index() const { return 2 * dim + (dir > 0 ? 0 : 1); }
  static Link of(int index) { return Link{index / 2, index % 2 == 0 ? +1 : -1}; }
  friend bool operator==(const Link&, const Link&) = default;
};

// One share of a block arriving at a node: from `origin`, the block's origin as seen from node 0
// (for receiver x, the node at coords(x) + coords(origin); TorusPlan::displacement gives
// receiver − origin), the units [first, first + units) of the block cut into `den` equal units,
// through `link`. 20 bytes and no allocation: a plan on 4,096 nodes holds some 20,000, in every
// simulated rank.
struct Piece {
  std::uint32_t origin = 0;
  Link link;
  std::uint32_t first = 0, units = 0, den = 1;
};

class TorusPlan {
 public:
  const Cartesian& torus() const { return torus_; }
  int steps() const { return static_cast<int>(arrivals_.size()); }
  int links() const { return links_; }  // 2 per dimension of size > 1

  // What a node receives at step s (0-based), in a fixed order both ends agree on.
  const std::vector<Piece>& arrivals(int step) const {
    return arrivals_[static_cast<std::size_t>(step)];
  }
  // Blocks a node receives at step s (a block in shares counts once).
  int blocks(int step) const { return blocks_[static_cast<std::size_t>(step)]; }

  // The shortest-way distance of a coordinate difference in dimension d, and whether both
  // directions reach it (t/2 on a ring of even size t).
  int distance(int d, int delta) const;
  bool antipodal(int d, int delta) const;
  // The displacement of every origin but the receiver itself, each coordinate in (−t/2, t/2]:
  // entry o − 1 is origin o's (as seen from node 0).
  std::vector<std::vector<int>> displacements() const;
  std::vector<int> displacement(const Piece& p) const;
  // The node a piece comes from when `receiver` receives it.
  int origin_of(int receiver, const Piece& p) const;

 protected:
  explicit TorusPlan(const Cartesian& torus);
  Cartesian torus_;
  int links_ = 0;
  std::vector<std::vector<Piece>> arrivals_;
  std::vector<int> blocks_;
};

}  // namespace ccl::grids
