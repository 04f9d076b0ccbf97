// Where the ranks of one node run while ccl-calibrate measures profiles.
//
// With more ranks than cores, which ranks share a core is the scheduler's choice, made anew in
// every job, and it changes what an algorithm costs: at 3 ranks on 2 cores the one-halving CCL
// hybrid combine of 64 B ran 2.7 us in some jobs and 4.9 us in others, all its calls alike,
// while recursive doubling ran 2.6-2.8 us in every job. Calibration and the job it serves are
// different jobs, so a profile measured under one placement misleads under another. So with
// more ranks than cores, calibration pins the ranks in turn in patterns that put different
// ranks together — blocked (0 1 | 2 3), cyclic (0 2 | 1 3) and blocked rotated by one
// (1 2 | 3 0) — and then on the cores the job gave them, where the scheduler moves them at will
// (Open MPI binds no rank when ranks outnumber cores, so that is what a user's job gets: there a
// relayed 4 MiB bcast on 7 ranks ran 1.8x the time of every leaf pulling from the root, against
// 1.2-1.7x pinned). It prices each algorithm by its worst pattern.
#pragma once

#include <mpi.h>

#include <string>
#include <vector>

class RankPlacement {
 public:
  // Collective over MPI_COMM_WORLD: finds this rank's place among the ranks of its node and the
  // cores it may run on.
  RankPlacement();
  ~RankPlacement();  // back to the cores the rank had
  RankPlacement(const RankPlacement&) = delete;
  RankPlacement& operator=(const RankPlacement&) = delete;

  // How many patterns to measure under: 4 when this node has more ranks than cores, else 1
  // (every rank its own core: nothing to vary, and the ranks stay where the job put them).
  int patterns() const { return oversubscribed_ ? 4 : 1; }
  // Pin this rank as pattern p places it (nothing when not oversubscribed); "blocked" etc.
  void apply(int p);
  static std::string name(int p);

 private:
  void restore();  // back to the cores the rank had at the start

  int local_rank_ = 0, local_size_ = 1;
  std::vector<int> cores_;  // the cores this rank was allowed at the start
  bool oversubscribed_ = false;
};
