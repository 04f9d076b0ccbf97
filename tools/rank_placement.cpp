#include "rank_placement.hpp"

#include <sched.h>

RankPlacement::RankPlacement() {
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  MPI_Comm_rank(node, &local_rank_);
  MPI_Comm_size(node, &local_size_);
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) == 0) {
    for (int c = 0; c < CPU_SETSIZE; ++c) {
      if (CPU_ISSET(c, &set)) cores_.push_back(c);
    }
  }
  // Every rank of the node must agree, or they would measure under different patterns.
  int mine = cores_.size() >= 2 && static_cast<int>(cores_.size()) < local_size_ ? 1 : 0, all = 0;
  MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  oversubscribed_ = all == 1;
  MPI_Comm_free(&node);
}

RankPlacement::~RankPlacement() {
  if (oversubscribed_) restore();
}

void RankPlacement::restore() {
  cpu_set_t set;
  CPU_ZERO(&set);
  for (int c : cores_) CPU_SET(c, &set);
  sched_setaffinity(0, sizeof set, &set);
}

void RankPlacement::apply(int p) {
  if (!oversubscribed_) return;
  if (p % 4 == 3) {  // as the job placed them: the scheduler moves them as it likes
    restore();
    return;
  }
  const int n = local_size_, cores = static_cast<int>(cores_.size());
  // The core slot of this rank: blocked, cyclic, or blocked rotated by one.
  const int r = local_rank_;
  const int slot = p % 4 == 0   ? r * cores / n
                   : p % 4 == 1 ? r % cores
                                : (r + n - 1) % n * cores / n;
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cores_[static_cast<std::size_t>(slot)], &set);
  sched_setaffinity(0, sizeof set, &set);
}

std::string RankPlacement::name(int p) {
  static const char* const names[] = {"pinned blocked", "pinned cyclic", "pinned rotated",
                                      "where the job placed them"};
  return names[p % 4];
}
