// The time loop. Each step (velocity Verlet, as LAMMPS's fix nve):
//   v += (dt/2) F/m, x += dt v      owned atoms              [Modify]
//   positions exchanged             concatv                  [Comm]
//   neighbour list rebuilt when due and some atom moved half the skin  [Neigh]
//   forces: pair, k-space, combine                           [Pair, Kspace, Comm]
//   v += (dt/2) F/m                 owned atoms              [Modify]
//   thermo and dumps when due                                [Output]
#include "md/run.hpp"

#include <cmath>

#include "ccl/collectives.hpp"
#include "ccl/environment.hpp"
#include "ccl/grids/torus.hpp"
#include "ccl/report.hpp"
#include "ewald/work_meter.hpp"
#include "md/call_spans.hpp"
#include "md/decomposition.hpp"
#include "md/restart.hpp"
#include "md/thermo.hpp"

namespace md {

namespace {

// Half a velocity-Verlet kick of the owned atoms, and (when dt_drift > 0) the drift after it.
void kick_drift(Decomposition& d, const std::vector<double>& mass, double dt_kick,
                double dt_drift) {
  double* x = d.x_owned();
  double* v = d.v_owned();
  const double* f = d.f_owned();
  const std::vector<int>& type = d.type_owned();
  const ewald::WorkRegion region(ewald::Kernel::integrate, double(d.owned()));
  Kokkos::parallel_for(
      "md::verlet", Kokkos::RangePolicy<Kokkos::DefaultHostExecutionSpace>(0, d.owned()),
      KOKKOS_LAMBDA(std::size_t i) {
        const double dtfm = dt_kick / mass[std::size_t(type[i])];
        for (std::size_t k = 3 * i; k < 3 * i + 3; ++k) {
          v[k] += dtfm * f[k];
          x[k] += dt_drift * v[k];
        }
      });
}

ThermoState thermo_state(const System& s, const Decomposition& d, const Terms& t) {
  ThermoState th;
  th.step = s.step;
  th.time = static_cast<double>(s.step) * s.timestep();
  th.natoms = s.natoms;
  th.volume = s.volume();
  th.ke = d.kinetic_energy(s);
  const double dof = 3.0 * static_cast<double>(s.natoms) - 3;
  th.temp = dof > 0 ? 2 * th.ke / (dof * s.units->boltz) : 0;
  th.ecoul = t.ecoul;
  th.elong = t.elong;
  th.evdwl = t.evdwl;
  th.press = (2 * th.ke + t.virial) / (3 * th.volume) * s.units->nktv2p;
  return th;
}

void check_ready(const System& s) {
  if (!s.box_created || s.natoms == 0)
    throw DeckError("run: no atoms (use create_box and create_atoms first)");
  for (int t = 1; t <= s.ntypes; ++t) {
    if (s.mass[static_cast<std::size_t>(t)] <= 0)
      throw DeckError("run: no mass set for atom type " + std::to_string(t));
  }
}

// Physics gone wrong stops the run, as in LAMMPS, naming the step and the atom: a non-finite
// position or force; an atom that moved more than half the skin since the lists were built when
// they are not rebuilt now (pairs may be missed); an atom that moved more than the whole skin by
// the time a rebuild is due (more than half of it since the previous check: a timestep far too
// large, where LAMMPS loses atoms). `move` is largest_move() of this step's positions.
void check_move(const System& s, const ccl::ValueIndex<double>& move, bool rebuild) {
  const std::string step = "run: step " + std::to_string(s.step) + ": ";
  if (std::isinf(move.value)) {
    throw DeckError(step + "atom " + std::to_string(move.index) +
                    " has a non-finite position or force");
  }
  const double skin = s.run.neighbor.skin;
  char text[240];
  if (rebuild && move.value > skin) {
    std::snprintf(
        text, sizeof text,
        "atom %d moved %.3g since the neighbour lists were built, more than the skin (%g): "
        "the timestep is too large (or the skin too small)",
        move.index, move.value, skin);
    throw DeckError(step + text);
  }
  if (!rebuild && move.value > 0.5 * skin) {
    std::snprintf(text, sizeof text,
                  "atom %d moved %.3g since the neighbour lists were built, more than half the "
                  "skin (%g): pairs may "
                  "be missed (use neigh_modify every 1 delay 0 check yes, or a larger skin)",
                  move.index, move.value, 0.5 * skin);
    throw DeckError(step + text);
  }
}

void check_energy(const System& s, const Terms& t) {
  if (!std::isfinite(t.ecoul + t.elong + t.evdwl + t.virial)) {
    throw DeckError(
        "run: step " + std::to_string(s.step) +
        ": the energy is not finite (atoms on top of each other, or a timestep far too large?)");
  }
}

// The collectives sent to the MPI library itself, as one more row of ccl's table (slowest
// member's time, every member's bytes), so that the run's communication adds up the same way.
void mpi_calls_row(const ccl::Group& g, const Decomposition::MpiCalls& mine, std::FILE* log) {
  const double slowest = ccl::combine_value(g, mine.seconds, ccl::max);
  const auto bytes = ccl::combine_value(g, mine.bytes, ccl::sum);
  if (log == nullptr || mine.calls == 0) return;
  std::fprintf(log, "%-9s %-15s %-20s %8ld %14llu %12.3f %11.2f\n", "-", mine.name, "MPI library",
               mine.calls, static_cast<unsigned long long>(bytes), slowest * 1e3,
               slowest * 1e6 / static_cast<double>(mine.calls));
}

void summary(const System& s, long steps, const ccl::Group& g, const Timers& timers,
             const Decomposition& d, const ccl::Statistics& stats, const CallSpans& exchanges,
             std::FILE* log) {
  const double loop = timers.total();
  if (log != nullptr) {
    std::fprintf(log, "Loop time of %g on %d procs for %ld steps with %ld atoms\n\n", loop,
                 g.size(), steps, s.natoms);
    if (steps > 0 && loop > 0) {
      const double ns = static_cast<double>(steps) * s.timestep() * s.units->ns;
      std::fprintf(log,
                   "Performance: %.3f ns/day, %.3f hours/ns, %.3f timesteps/s, %.4g atom-step/s\n",
                   ns / loop * 86400, loop / ns / 3600, static_cast<double>(steps) / loop,
                   static_cast<double>(steps) * static_cast<double>(s.natoms) / loop);
    }
  }
  timers.report(g, log != nullptr ? log : stdout);
  const long pairs = d.neighbor_pairs();
  long total_pairs = 0;
  ccl::reduce(g, std::span<const long>(&pairs, 1), std::span<long>(&total_pairs, 1), ccl::sum, 0);
  if (log != nullptr) {
    std::fprintf(log, "\nTotal # of neighbors = %ld\n", total_pairs);
    std::fprintf(log, "Ave neighs/atom = %.4g\n",
                 static_cast<double>(total_pairs) / static_cast<double>(s.natoms));
    std::fprintf(log, "Neighbor list builds = %ld\n\nCollectives (ccl, this run's loop):\n",
                 d.neighbor_builds() - 1);
  }
  ccl::print_statistics(g, stats, log != nullptr ? log : stdout);
  mpi_calls_row(g, d.mpi_calls(), log);
  const double span = exchanges.mean_span(g);
  if (log != nullptr && span >= 0) {
    std::fprintf(log,
                 "Position exchange from the last member's entry to the last exit: %.2f us/call\n",
                 span * 1e6);
  }
}

}  // namespace

void run(System& s, long steps, const RunOptions& options, const ccl::Group& g, Dumps& dumps) {
  check_ready(s);
  std::FILE* log = g.rank() == 0 ? stdout : nullptr;
  std::unique_ptr<ccl::grids::Torus> torus;  // declares the layout for the run's collectives
  if (!options.torus.empty()) {
    torus =
        std::make_unique<ccl::grids::Torus>(g, ccl::grids::torus_shape(options.torus, g.size()));
  }
  const std::unique_ptr<Decomposition> d = make_decomposition(
      options.decomp, s, g, options.grid_rows, options.grid_cols, options.mpi_allgather, log);
  dumps.open(s, g);
  const double dt = s.timestep(), dt_kick = 0.5 * dt * s.units->ftm2v;

  Timers timers;
  Terms terms = d->compute_forces(timers);
  check_energy(s, terms);
  check_move(s, d->largest_move(), true);
  const std::vector<std::string>& keys = s.run.thermo_keywords;
  auto thermo = [&] {
    const ThermoState th = thermo_state(s, *d, terms);
    if (log != nullptr) thermo_row(log, keys, s.run.thermo_float, th);
  };
  auto dump = [&] {
    if (!dumps.due(s, s.step)) return;
    const std::vector<Atom> atoms = d->gather_atoms();
    if (log != nullptr) dumps.write(s, s.step, atoms);
  };
  if (log != nullptr) {
    if (steps > 0 && !s.run.nve) std::fprintf(log, "WARNING: no fixes defined, atoms won't move\n");
    std::fprintf(log,
                 "Setting up Verlet run ...\n  Unit style    : %s\n  Current step  : %ld\n  Time "
                 "step     : %g\n",
                 s.units->name.c_str(), s.step, dt);
    thermo_header(log, keys);
  }
  thermo();
  dump();

  // The timed loop starts and ends together on every member (sync), so that the loop time and
  // the sections' spread measure the loop, not arrival skew.
  ccl::sync(g);
  ccl::reset_statistics();
  d->reset_mpi_calls();
  ccl::set_timing(true);
  timers = Timers();
  CallSpans exchanges;
  long since_build = 0;
  const NeighborSettings& nb = s.run.neighbor;
  for (long k = 1; k <= steps; ++k) {
    ++s.step;
    if (s.run.nve) kick_drift(*d, s.mass, dt_kick, dt);
    timers.stamp(Section::modify);
    exchanges.enter();
    d->exchange_positions();
    exchanges.leave();
    timers.stamp(Section::comm);
    ++since_build;
    // One reduction per step: how far atoms moved decides the rebuild and the checks.
    const ccl::ValueIndex<double> move = d->largest_move();
    // A step that writes a restart file rebuilds its lists (wrapping the atoms), as a run read
    // from that file will at its start: so the resumed run repeats this one bit for bit.
    const bool restart_due = s.run.restart_every > 0 && s.step % s.run.restart_every == 0;
    const bool rebuild = restart_due || (since_build >= nb.delay && since_build % nb.every == 0 &&
                                         (!nb.check || move.value > 0.5 * nb.skin));
    check_move(s, move, rebuild);
    if (rebuild) {
      d->rebuild_neighbors();
      since_build = 0;
    }
    timers.stamp(Section::neigh);
    terms = d->compute_forces(timers);
    check_energy(s, terms);
    if (s.run.nve) kick_drift(*d, s.mass, dt_kick, 0);
    timers.stamp(Section::modify);
    if ((s.run.thermo_every > 0 && s.step % s.run.thermo_every == 0) || k == steps) thermo();
    dump();
    if (restart_due) {
      try {
        write_restart(s, d->gather_atoms(), restart_file_name(s.run.restart_file, s.step), g);
      } catch (const DeckError& e) {
        throw DeckError("run: step " + std::to_string(s.step) + ": restart: " + e.what());
      }
    }
    timers.stamp(Section::output);
  }
  ccl::sync(g);
  timers.stamp(Section::comm);
  const ccl::Statistics stats = ccl::statistics();
  ccl::set_timing(false);
  summary(s, steps, g, timers, *d, stats, exchanges, log);
  s.atoms = d->gather_atoms();
}

}  // namespace md
