#include "md/interactions.hpp"

#include <cmath>

namespace md {

namespace {

void check_cutoff(const System& s, double cutoff, const char* what) {
  const Vec3 len = s.length();
  for (double l : len) {
    if (cutoff > l / 2) {
      char text[200];
      std::snprintf(text, sizeof text,
                    ": pair_style: the %scut-off %g is larger than half the box (%g)", what, cutoff,
                    l / 2);
      throw DeckError(s.pair.where + text);
    }
  }
}

}  // namespace

Interactions::Interactions(const System& s, const ccl::Group& group, double sum_q, double sum_q2,
                           std::FILE* log)
    : first_member_(group.rank() == 0),
      lo_(s.lo),
      len_(s.length()),
      volume_(s.volume()),
      qqr2e_(s.units->qqr2e),
      sum_q_(sum_q),
      sum_q2_(sum_q2),
      skin_(s.run.neighbor.skin) {
  if (s.pair.style.empty()) throw DeckError("run: no pair_style given");
  if (s.kspace.style.empty())
    throw DeckError(s.pair.where + ": pair_style " + s.pair.style + " needs a kspace_style");
  check_cutoff(s, s.pair.cutoff_coul, "");
  if (log != nullptr && std::abs(sum_q) > 1e-8 * std::max(1.0, std::sqrt(sum_q2))) {
    std::fprintf(log,
                 "WARNING: %s: the system's net charge is %g; a neutralising background is used\n",
                 s.kspace.where.c_str(), sum_q);
  }
  kspace_ = make_kspace(s, sum_q2, group, log);
  pair_ = std::make_unique<PairStyle>(s, kspace_->g());
  check_cutoff(s, pair_->max_cutoff(), "short-range ");
  list_ = new_list();
}

void Interactions::build_neighbors(const Positions& x, std::size_t row_begin, std::size_t row_end) {
  list_.build(x, lo_, len_, row_begin, row_end);
}

void Interactions::build_neighbors(const Positions& x, std::size_t row_begin, std::size_t row_end,
                                   std::size_t candidate_begin, std::size_t candidate_end,
                                   const std::vector<std::size_t>& global) {
  list_.build(x, lo_, len_, row_begin, row_end, candidate_begin, candidate_end, global);
}

Terms Interactions::pair_share(const Positions& x, const Charges& q, const Types& type,
                               const Forces& f, Timers& timers) const {
  return pair_share(x, q, type, list_, f, timers);
}

Terms Interactions::pair_share(const Positions& x, const Charges& q, const Types& type,
                               const NeighborList& list, const Forces& f, Timers& timers) const {
  const PairEnergy pair = pair_->compute(x, q, type, list, f);
  timers.stamp(Section::pair);
  Terms t;
  t.ecoul = pair.ecoul;
  t.evdwl = pair.evdwl;
  t.virial = pair.virial;
  return t;
}

Terms Interactions::kspace_share(const Positions& x, const Charges& q, const Forces& f,
                                 Timers& timers) {
  const ewald::Energy kspace = kspace_->compute(x, q, f);
  Terms t;
  t.elong = kspace.energy;
  t.virial = kspace.virial;
  if (first_member_) {
    const ewald::Energy self =
        ewald::self_and_background(sum_q_, sum_q2_, volume_, kspace_->g(), qqr2e_);
    t.elong += self.energy;
    t.virial += self.virial;
  }
  timers.stamp(Section::kspace);
  return t;
}

Terms Interactions::pair_owned(const Positions& x, const Charges& q, const Types& type,
                               const NeighborList& full_list, const Forces& f,
                               Timers& timers) const {
  const PairEnergy pair = pair_->compute(x, q, type, full_list, f, true);
  timers.stamp(Section::pair);
  return Terms{pair.ecoul, 0, pair.evdwl, pair.virial};
}

Terms Interactions::kspace_owned(const Positions& x, const Charges& q,
                                 std::span<const std::size_t> starts, const Forces& f,
                                 const Terms& pair, Timers& timers) {
  double summed[3] = {pair.ecoul, pair.evdwl, pair.virial};
  const ewald::Energy kspace = kspace_->compute_owned(x, q, starts, f, summed);
  // The whole system's terms on every member: self and background too.
  const ewald::Energy self =
      ewald::self_and_background(sum_q_, sum_q2_, volume_, kspace_->g(), qqr2e_);
  timers.stamp(Section::kspace);
  return Terms{summed[0], kspace.energy + self.energy, summed[1],
               summed[2] + kspace.virial + self.virial};
}

}  // namespace md
