// ewald-md: runs a LAMMPS-syntax deck.
//
//   mpirun -np N ewald-md [--decomp replicated|force2d|ring] [--grid RxC] [--torus AxBxC]
//                         [--ccl-mode develop|run] deck.in
//
// Rank 0 reads the deck and broadcasts its text; every rank parses and applies it, so a bad deck
// fails identically everywhere: rank 0 prints "ERROR: file:line: message" and every rank exits
// with status 1.
#include <Kokkos_Core.hpp>

#include <cstdio>
#include <string>

#include "ccl/ccl.hpp"
#include "ccl/grids/torus.hpp"
#include "md/deck.hpp"
#include "md/dump.hpp"
#include "md/restart.hpp"
#include "md/run.hpp"
#include "md/system.hpp"

namespace {

const char* kSupported =
    "units, atom_style, boundary, lattice, region, create_box, create_atoms, mass, set, velocity, "
    "pair_style, pair_coeff, pair_modify, kspace_style, kspace_modify, neighbor, neigh_modify, timestep, "
    "fix, thermo, thermo_style, thermo_modify, dump, undump, restart, write_restart, read_restart, run";

// The deck's text on every rank: read by rank 0, broadcast. A read error becomes a DeckError on
// every rank.
std::string shared_text(const ccl::Group& w, const std::string& path) {
  std::string text, error;
  if (w.rank() == 0) {
    try {
      text = md::read_text(path);
    } catch (const md::DeckError& e) {
      error = e.what();
    }
  }
  auto share = [&](std::string& s) {
    long size = static_cast<long>(s.size());
    ccl::bcast(w, std::span<long>(&size, 1), 0);
    s.resize(static_cast<std::size_t>(size));
    ccl::bcast(w, std::span<char>(s.data(), s.size()), 0);
  };
  share(error);
  if (!error.empty()) throw md::DeckError(error);
  share(text);
  return text;
}

struct Arguments {
  md::RunOptions options;
  std::string deck;
};

Arguments parse_arguments(int argc, char** argv, int ranks) {
  const std::string usage = std::string("usage: mpirun -np N ") + argv[0] +
                            " [--decomp replicated|force2d|ring] [--grid RxC] [--torus AxBxC] [--ccl-mode develop|run] deck.in";
  Arguments a;
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    if (flag.rfind("--", 0) != 0) {
      if (!a.deck.empty()) throw md::DeckError(usage + " (more than one deck given)");
      a.deck = flag;
      continue;
    }
    if (i + 1 >= argc) throw md::DeckError(usage + " (" + flag + " needs a value)");
    const std::string value = argv[++i];
    if (flag == "--decomp") {
      if (value != "replicated" && value != "force2d" && value != "ring") throw md::DeckError(usage + " (unknown decomposition '" + value + "')");
      a.options.decomp = value;
    } else if (flag == "--ccl-mode") {
      if (value != "develop" && value != "run") throw md::DeckError(usage + " (unknown ccl mode '" + value + "')");
      ccl::set_mode(value == "develop" ? ccl::Mode::develop : ccl::Mode::run);
    } else if (flag == "--grid") {
      int rows = 0, cols = 0;
      char extra = 0;
      if (std::sscanf(value.c_str(), "%dx%d%c", &rows, &cols, &extra) != 2 || rows < 1 || cols < 1) {
        throw md::DeckError(usage + " (--grid takes RxC, such as 2x3; got '" + value + "')");
      }
      a.options.grid_rows = rows;
      a.options.grid_cols = cols;
    } else if (flag == "--torus") {
      try {
        ccl::grids::torus_shape(value, ranks);
      } catch (const ccl::Error& e) {
        throw md::DeckError(std::string("--torus: ") + e.what());
      }
      a.options.torus = value;
    } else {
      throw md::DeckError(usage + " (unknown flag " + flag + ")");
    }
  }
  if (a.deck.empty()) throw md::DeckError(usage + " (no deck given)");
  if (a.options.grid_rows > 0 && a.options.decomp != "force2d") throw md::DeckError("--grid goes with --decomp force2d");
  return a;
}

int run(int argc, char** argv, const ccl::Group& w) {
  const Arguments args = parse_arguments(argc, argv, w.size());
  md::System s;
  s.keeps_atoms = w.rank() == 0;
  md::Dumps dumps;
  for (const md::Command& c : md::parse_deck(shared_text(w, args.deck), args.deck)) {
    try {
      if (md::apply_setup(s, c)) continue;
      if (c.name() == "write_restart") {
        c.expect_args(1, 1, "write_restart FILE");
        md::need_box(s, c);
        md::write_restart(s, s.atoms, c.words[1], w);
        continue;
      }
      if (c.name() == "read_restart") {
        c.expect_args(1, 1, "read_restart FILE");
        if (s.box_created) c.fail("read_restart: the box already exists");
        md::read_restart(s, c.words[1], w);
        continue;
      }
      if (c.name() == "run") {
        c.expect_args(1, 1, "run N");
        const long steps = c.integer(1, "number of steps");
        if (steps < 0) c.fail("run: the number of steps must not be negative");
        md::run(s, steps, args.options, w, dumps);
        continue;
      }
    } catch (const md::DeckError& e) {
      // Errors found while running name the run command unless they already name a line.
      const std::string what = e.what();
      if (what.rfind("run:", 0) == 0 || what.rfind("--", 0) == 0) c.fail(what);
      throw;
    }
    c.fail("unknown command '" + c.name() + "' (supported: " + kSupported + ")");
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  ccl::Environment env(argc, argv);
  Kokkos::ScopeGuard kokkos(argc, argv);
  // Known before any collective, so that CCL_ALGO_CONCAT=torus_... overrides can name them.
  ccl::grids::register_torus_algorithms();
  const ccl::Group w = ccl::world();
  try {
    return run(argc, argv, w);
  } catch (const md::DeckError& e) {
    if (w.rank() == 0) std::fprintf(stderr, "ERROR: %s\n", e.what());
    return 1;
  } catch (const ccl::Error& e) {
    // Raised identically on every rank (a bad CCL_* setting, a develop-mode mismatch).
    if (w.rank() == 0) std::fprintf(stderr, "ERROR: %s\n", e.what());
    return 1;
  }
}
