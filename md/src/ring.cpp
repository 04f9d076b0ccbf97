#include "md/ring.hpp"

#include <algorithm>

#include "ccl/collectives.hpp"
#include "md/blocks.hpp"

namespace md {

Ring::Ring(const System& s, const ccl::Group& group, std::FILE* log)
    : Decomposition(s, group),
      natoms_(static_cast<std::size_t>(s.natoms)),
      me_(group.rank()),
      members_(group.size()) {
  std::vector<std::pair<std::size_t, std::size_t>> ranges;
  for (int r = 0; r < members_; ++r) {
    ranges.push_back(block_range(natoms_, members_, r));
    most_ = std::max(most_, ranges.back().second - ranges.back().first);
  }
  const std::vector<Atom> mine = distribute(s, ranges);
  first_ = ranges[std::size_t(me_)].first;
  const std::size_t n = owned();
  local_ = AtomArrays(n + most_, 0, "own, visitor");
  all_ = AtomArrays(natoms_, 2, "all");
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t d = 0; d < 3; ++d) local_.x(i, d) = mine[i].x[d];
    local_.q(i) = q_[i];
    local_.type(i) = type_[i];
  }
  ccl::concatv(group, q_, std::span<double>(all_.q.data(), natoms_), owned_counts_);
  ccl::concatv(group, type_, std::span<int>(all_.type.data(), natoms_), owned_counts_);
  local_global_.resize(n + most_);
  for (std::size_t i = 0; i < n; ++i) local_global_[i] = first_ + i;
  own_f_.resize(3 * n);
  travel_.resize(6 * most_);
  arriving_.resize(6 * most_);
  const auto [sum_q, sum_q2] = charge_sums();
  in_ = std::make_unique<Interactions>(s, group, sum_q, sum_q2, log);
  lists_.assign(std::size_t(members_), in_->new_list());
  if (log != nullptr)
    std::fprintf(log, "Systolic ring of %d ranks (pairs by shift, k-space by concat)\n", members_);
  rebuild_neighbors();
}

template <class Visit>
void Ring::ring_pass(Visit&& visit) {
  const std::size_t n = owned();
  // Pass 0: the visitor is this member's own block, with no forces yet.
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t d = 0; d < 3; ++d) {
      local_.x(n + i, d) = local_.x(i, d);
      local_.f(n + i, d) = 0;
    }
  }
  for (int pass = 0; pass < members_; ++pass) {
    const int b = (me_ - pass + members_) % members_;
    const auto [lo, hi] = block_range(natoms_, members_, b);
    for (std::size_t k = 0; k < hi - lo; ++k) {
      local_.q(n + k) = all_.q(lo + k);
      local_.type(n + k) = all_.type(lo + k);
      local_global_[n + k] = lo + k;
    }
    visit(pass, hi - lo);
    // The visitor (positions and the forces gathered on it) moves on to the next member.
    for (std::size_t k = 0; k < most_; ++k) {
      for (std::size_t d = 0; d < 3; ++d) {
        travel_[3 * k + d] = local_.x(n + k, d);
        travel_[3 * most_ + 3 * k + d] = local_.f(n + k, d);
      }
    }
    ccl::shift(group_, travel_, arriving_, 1);
    for (std::size_t k = 0; k < most_; ++k) {
      for (std::size_t d = 0; d < 3; ++d) {
        local_.x(n + k, d) = arriving_[3 * k + d];
        local_.f(n + k, d) = arriving_[3 * most_ + 3 * k + d];
      }
    }
  }
}

void Ring::exchange_positions() {
  std::vector<std::size_t> counts3(owned_counts_);
  for (std::size_t& c : counts3) c *= 3;
  ccl::concatv(group_, std::span<const double>(local_.x.data(), 3 * owned()),
               std::span<double>(all_.x.data(), 3 * natoms_), counts3);
}

void Ring::rebuild_neighbors() {
  wrap_owned(local_.x.data());
  remember_build();
  exchange_positions();
  const std::size_t n = owned();
  ring_pass([&](int pass, std::size_t visitors) {
    in_->build(lists_[std::size_t(pass)], local_.x, 0, n, n, n + visitors, local_global_);
  });
}

Terms Ring::compute_forces(Timers& timers) {
  const std::size_t n = owned();
  clear_forces(local_.f);
  Terms pair;
  ring_pass([&](int pass, std::size_t) {
    const Terms t = in_->pair_share(local_.x, local_.q, local_.type, lists_[std::size_t(pass)],
                                    local_.f, timers);
    pair.ecoul += t.ecoul;
    pair.evdwl += t.evdwl;
    pair.virial += t.virial;
    timers.stamp(Section::pair);
  });
  timers.stamp(Section::comm);
  // Home again: the travelling copy carries what every other member added.
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t d = 0; d < 3; ++d) own_f_[3 * i + d] = local_.f(i, d) + local_.f(n + i, d);
  }
  clear_forces(all_.f);
  const Terms total = add_kspace_and_combine(*in_, all_.x, all_.q, all_.f, pair, timers);
  for (std::size_t k = 0; k < 3 * n; ++k) own_f_[k] += all_.f.data()[3 * first_ + k];
  return total;
}

long Ring::neighbor_pairs() const {
  long sum = 0;
  for (const NeighborList& l : lists_) sum += static_cast<long>(l.pairs());
  return sum;
}

}  // namespace md
