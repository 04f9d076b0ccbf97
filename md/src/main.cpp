// ewald-md: runs a LAMMPS-syntax deck.
//
//   mpirun -np N ewald-md [--decomp replicated|force2d|ring|owner] [--grid RxC] [--torus AxBxC]
//   [--allgather ccl|mpi]
//                         [--ccl-mode develop|run] deck.in
//
// Rank 0 reads the deck and broadcasts its text; every rank parses and applies it, so a bad deck
// fails identically everywhere: rank 0 prints "ERROR: file:line: message" and every rank exits
// with status 1.
#include <Kokkos_Core.hpp>

#include <cstdio>
#include <stdexcept>
#include <string>

#include "ccl/environment.hpp"
#include "ccl/error.hpp"
#include "ccl/grids/torus.hpp"
#include "ccl/group.hpp"
#include "ccl/mode.hpp"
#include "ewald/work_meter.hpp"
#include "md/deck.hpp"
#include "md/driver.hpp"

namespace {

struct Arguments {
  md::RunOptions options;
  std::string deck;
};

Arguments parse_arguments(int argc, char** argv, int ranks) {
  const std::string usage =
      std::string("usage: mpirun -np N ") + argv[0] +
      " [--decomp replicated|force2d|ring|owner] [--grid RxC] [--torus AxBxC] "
      "[--allgather ccl|mpi] [--ccl-mode develop|run] deck.in";
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
      if (value != "replicated" && value != "force2d" && value != "ring" && value != "owner")
        throw md::DeckError(usage + " (unknown decomposition '" + value + "')");
      a.options.decomp = value;
    } else if (flag == "--ccl-mode") {
      if (value != "develop" && value != "run")
        throw md::DeckError(usage + " (unknown ccl mode '" + value + "')");
      ccl::set_mode(value == "develop" ? ccl::Mode::develop : ccl::Mode::run);
    } else if (flag == "--grid") {
      int rows = 0, cols = 0;
      char extra = 0;
      if (std::sscanf(value.c_str(), "%dx%d%c", &rows, &cols, &extra) != 2 || rows < 1 ||
          cols < 1) {
        throw md::DeckError(usage + " (--grid takes RxC, such as 2x3; got '" + value + "')");
      }
      a.options.grid_rows = rows;
      a.options.grid_cols = cols;
    } else if (flag == "--allgather") {
      if (value != "ccl" && value != "mpi")
        throw md::DeckError(usage + " (--allgather takes ccl or mpi; got '" + value + "')");
      a.options.mpi_allgather = value == "mpi";
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
  if (a.options.grid_rows > 0 && a.options.decomp != "force2d")
    throw md::DeckError("--grid goes with --decomp force2d");
  if (a.options.mpi_allgather && a.options.decomp != "replicated")
    throw md::DeckError("--allgather mpi goes with --decomp replicated");
  if (a.options.mpi_allgather && !a.options.torus.empty())
    throw md::DeckError(
        "--allgather mpi and --torus exclude each other (the torus allgathers are ccl's)");
  return a;
}

int run(int argc, char** argv, const ccl::Group& w) {
  const Arguments args = parse_arguments(argc, argv, w.size());
  try {
    ewald::configure_work_meter();  // the same environment, so the same outcome, on every rank
  } catch (const std::runtime_error& e) {
    throw md::DeckError(e.what());
  }
  md::run_deck(md::shared_deck_text(w, args.deck), args.deck, args.options, w);
  if (w.rank() == 0) ewald::write_work_rates();
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
  } catch (const std::runtime_error& e) {
    // A rates file without a kernel the deck runs: met by every rank at the same kernel.
    if (w.rank() == 0) std::fprintf(stderr, "ERROR: %s\n", e.what());
    return 1;
  }
}
