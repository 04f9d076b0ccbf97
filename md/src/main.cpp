// ewald-md: runs a LAMMPS-syntax deck.   mpirun -np N ewald-md deck.in
//
// Rank 0 reads the deck and broadcasts its text; every rank parses and sets up the same system,
// so a bad deck fails identically everywhere: rank 0 prints "ERROR: file:line: message" and every
// rank exits with status 1.
#include <Kokkos_Core.hpp>

#include <cstdio>
#include <string>

#include "ccl/ccl.hpp"
#include "md/deck.hpp"
#include "md/interactions.hpp"
#include "md/system.hpp"

namespace {

const char* kSupported =
    "units, atom_style, boundary, lattice, region, create_box, create_atoms, mass, set, "
    "pair_style, pair_coeff, kspace_style, run";

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

void thermo_run0(const md::System& s, const md::Terms& t) {
  double ke = 0;
  for (std::size_t i = 0; i < s.natoms(); ++i) {
    const auto& v = s.v[i];
    ke += 0.5 * s.mass[static_cast<std::size_t>(s.type[i])] * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
  }
  ke *= s.units->mvv2e;
  const double dof = 3.0 * static_cast<double>(s.natoms()) - 3;
  const double temp = dof > 0 ? 2 * ke / (dof * s.units->boltz) : 0;
  const double pe = t.ecoul + t.elong + t.evdwl;
  const double press = (2 * ke + t.virial) / (3 * s.volume()) * s.units->nktv2p;
  std::printf("   Step          Temp          E_pair         E_mol          TotEng         Press     \n");
  std::printf("%7d %14.8g %14.8g %14.8g %14.8g %14.8g\n", 0, temp, pe, 0.0, pe + ke, press);
  std::printf("  E_coul = %.12g  E_long = %.12g  E_vdwl = %.12g\n", t.ecoul, t.elong, t.evdwl);
}

int run(int argc, char** argv, const ccl::Group& w) {
  if (argc != 2 || argv[1][0] == '-') {
    throw md::DeckError(std::string("usage: mpirun -np N ") + argv[0] + " deck.in");
  }
  const std::string path = argv[1];
  md::System s;
  for (const md::Command& c : md::parse_deck(shared_text(w, path), path)) {
    if (md::apply_setup(s, c)) continue;
    if (c.name() == "run") {
      c.expect_args(1, 1, "run N");
      const long steps = c.integer(1, "number of steps");
      if (steps != 0) c.fail("run: only 'run 0' (energies and forces of the initial state) is implemented so far");
      if (!s.box_created || s.natoms() == 0) c.fail("run: no atoms");
      for (int t = 1; t <= s.ntypes; ++t) {
        if (s.mass[static_cast<std::size_t>(t)] == 0) c.fail("run: no mass set for atom type " + std::to_string(t));
      }
      const md::Interactions forces(s, w, w.rank() == 0 ? stdout : nullptr);
      std::vector<double> f;
      const md::Terms t = forces.compute(s, f);
      if (w.rank() == 0) thermo_run0(s, t);
      continue;
    }
    c.fail("unknown command '" + c.name() + "' (supported: " + kSupported + ")");
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  ccl::Environment env(argc, argv);
  Kokkos::ScopeGuard kokkos(argc, argv);
  const ccl::Group w = ccl::world();
  try {
    return run(argc, argv, w);
  } catch (const md::DeckError& e) {
    if (w.rank() == 0) std::fprintf(stderr, "ERROR: %s\n", e.what());
    return 1;
  }
}
