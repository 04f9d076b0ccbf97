// How the members of a group share a run: which atoms each owns (integrates), and how positions
// travel and forces are summed so that every owner ends a step with the total force on its
// atoms: replicated data (md/replicated.hpp), force decomposition (md/force2d.hpp), the
// systolic ring (md/ring.hpp) and owner-computes (md/owner.hpp).
//
// Common to all four: the holder (member 0) scatters the atoms to their owners (scatterv, each
// owner a contiguous range of ids), kinetic energy is reduced to member 0 (reduce), and the atoms
// are gathered back to member 0 for dumps and at the end of a run (gatherv).
#pragma once

#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "ccl/group.hpp"
#include "ccl/reduce_op.hpp"
#include "ewald/work_meter.hpp"
#include "md/interactions.hpp"
#include "md/system.hpp"
#include "md/timers.hpp"

namespace md {

// Zeroes forces (or a block of them) before a step adds its own: counted work in simulated runs.
template <class View>
void clear_forces(const View& f) {
  const ewald::WorkRegion region(ewald::Kernel::clear, double(f.size()));
  Kokkos::deep_copy(f, 0.0);
}

// Positions, forces (with `extra` more rows, which carry energies in a combine), charges and
// types of n atoms.
struct AtomArrays {
  Positions x;
  Forces f;
  Charges q;
  Types type;
  AtomArrays() = default;
  AtomArrays(std::size_t n, std::size_t extra, const std::string& what)
      : x("x (" + what + ")", n),
        f("f (" + what + ")", n + extra),
        q("q (" + what + ")", n),
        type("type (" + what + ")", n) {}
};

class Decomposition {
 public:
  virtual ~Decomposition() = default;

  std::size_t owned() const { return id_.size(); }
  // The owned atoms' positions, velocities and total forces: three doubles per atom, in id order.
  virtual double* x_owned() = 0;
  virtual const double* x_owned() const = 0;
  virtual const double* f_owned() const = 0;
  double* v_owned() { return v_.data(); }
  const std::vector<int>& type_owned() const { return type_; }

  // Positions from the owners to wherever the interactions need them.
  virtual void exchange_positions() = 0;
  // Wraps the owned atoms into the box, exchanges them and rebuilds the neighbour lists.
  virtual void rebuild_neighbors() = 0;
  // Total forces on the owned atoms, and the system's energy terms (on every member).
  virtual Terms compute_forces(Timers& timers) = 0;
  // This member's neighbour-list entries, and how many times its lists were built.
  virtual long neighbor_pairs() const = 0;
  virtual long neighbor_builds() const = 0;
  // Collectives this member sent to the MPI library itself rather than to ccl (--allgather mpi),
  // counted while ccl's timing is on, so that the run's report lists them beside ccl's.
  struct MpiCalls {
    const char* name = "";  // MPI_Allgather or MPI_Allgatherv
    long calls = 0;
    std::uint64_t bytes = 0;
    double seconds = 0;
  };
  virtual MpiCalls mpi_calls() const { return {}; }
  virtual void reset_mpi_calls() {}

  // Σ ½ m v² over all atoms, on member 0 (meaningless elsewhere).
  double kinetic_energy(const System& s) const;
  // Over all members: the atom that moved farthest since the lists were last built {distance, id},
  // with distance +inf for an atom whose position or force is not finite (the lowest such id).
  ccl::ValueIndex<double> largest_move() const;
  // Every atom, in id order, on member 0 (empty elsewhere).
  std::vector<Atom> gather_atoms() const;

 protected:
  // Scatters s.atoms (on member 0) so that member w owns ids [ranges[w].first, ranges[w].second)
  // (0-based positions in id order); returns this member's atoms and keeps their ids, types,
  // charges and velocities.
  std::vector<Atom> distribute(const System& s,
                               const std::vector<std::pair<std::size_t, std::size_t>>& ranges);
  // Σ q and Σ q² over all atoms.
  std::pair<double, double> charge_sums() const;
  // Wraps owned positions x (three per atom) into the box.
  void wrap_owned(double* x) const;
  // Keeps the owned positions as the reference of largest_move (call when the lists are built).
  void remember_build() { x_at_build_.assign(x_owned(), x_owned() + 3 * owned()); }
  // Adds the k-space share over every position x (all atoms, N rows) into f, puts this member's
  // energy terms (`pair` and the k-space's) in f's two extra rows, combines f over the group and
  // returns the system's terms. f has N + 2 rows.
  Terms add_kspace_and_combine(Interactions& in, const Positions& x, const Charges& q,
                               const Forces& f, const Terms& pair, Timers& timers) const;

  Decomposition(const System& s, const ccl::Group& group);
  ccl::Group group_;
  Vec3 lo_, len_;
  std::vector<double> mass_;  // per type
  std::vector<long> id_;
  std::vector<int> type_;
  std::vector<double> q_;
  std::vector<double> v_;                  // three per owned atom
  std::vector<std::size_t> owned_counts_;  // per member
  std::vector<double> x_at_build_;         // owned positions when the lists were last built
};

// The decomposition named by --decomp ("replicated", "force2d", "ring" or "owner"), with its
// interactions set up; grid_rows × grid_cols (0: chosen) for force2d; mpi_allgather for replicated
// (RunOptions). Writes the k-space set-up to log (member 0).
std::unique_ptr<Decomposition> make_decomposition(const std::string& kind, const System& s,
                                                  const ccl::Group& group, int grid_rows,
                                                  int grid_cols, bool mpi_allgather,
                                                  std::FILE* log);

}  // namespace md
