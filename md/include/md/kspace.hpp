// The reciprocal-space part of the Coulomb sum, shared among the members of a group: each member
// computes a share (of k-vectors for classic Ewald) over all positions, and the shares add up.
#pragma once

#include <cstdio>
#include <memory>
#include <span>

#include "ccl/group.hpp"
#include "ewald/coulomb.hpp"
#include "md/system.hpp"

namespace md {

class Kspace {
 public:
  virtual ~Kspace() = default;
  // The Ewald splitting parameter the real-space term must use.
  virtual double g() const = 0;
  // This member's share of the energy and virial, and of the forces (added into f).
  virtual ewald::Energy compute(const ewald::Positions& x, const ewald::Charges& q,
                                const ewald::Forces& f) = 0;
  // Owner-computes (md/owner.hpp): member w owns atoms [starts[w], starts[w + 1]); the forces on
  // this member's atoms only, added into f, which holds just them (row 0: atom starts[w]), from
  // every atom's position; the energy and virial of
  // the whole k-space, the same on every member. The members' `extra` values (their pair terms)
  // are summed along the way, in place.
  virtual ewald::Energy compute_owned(const ewald::Positions& x, const ewald::Charges& q,
                                      std::span<const std::size_t> starts, const ewald::Forces& f,
                                      std::span<double> extra) = 0;
};

// The kspace_style of the deck with parameters chosen from its accuracy, written to `log` when it
// is not null (LAMMPS's wording). sum_q2 = Σ q².
std::unique_ptr<Kspace> make_kspace(const System& s, double sum_q2, const ccl::Group& group,
                                    std::FILE* log);

}  // namespace md
