#include "md/owner.hpp"

#include "ccl/collectives.hpp"

namespace md {

Owner::Owner(const System& s, const ccl::Group& group, std::FILE* log)
    : Replicated(s, group, log, false, false), full_(in_->new_full_list()), starts_{0} {
  for (std::size_t c : owned_counts_) starts_.push_back(starts_.back() + c);
  rebuild_neighbors();
}

void Owner::rebuild_neighbors() {
  wrap_owned(x_owned());
  remember_build();
  exchange_positions();
  in_->build(full_, x_, first_, first_ + owned());
}

Terms Owner::compute_forces(Timers& timers) {
  clear_forces(f_);
  const Terms pair = in_->pair_owned(x_, q_all_, type_all_, full_, f_, timers);
  return in_->kspace_owned(x_, q_all_, starts_, f_, pair, timers);
}

}  // namespace md
