#include "md/driver.hpp"

#include "md/agree.hpp"
#include "md/deck.hpp"
#include "md/dump.hpp"
#include "md/restart.hpp"
#include "md/system.hpp"

namespace md {

namespace {

const char* kSupported =
    "units, atom_style, boundary, lattice, region, create_box, create_atoms, mass, set, velocity, "
    "pair_style, pair_coeff, pair_modify, kspace_style, kspace_modify, neighbor, neigh_modify, "
    "timestep, "
    "fix, thermo, thermo_style, thermo_modify, dump, undump, restart, write_restart, read_restart, "
    "run";

}  // namespace

std::string shared_deck_text(const ccl::Group& w, const std::string& path) {
  std::string text, error;
  if (w.rank() == 0) {
    try {
      text = read_text(path);
    } catch (const DeckError& e) {
      error = e.what();
    }
  }
  fail_together(w, error);
  return broadcast_string(w, text);
}

void run_deck(const std::string& text, const std::string& file, const RunOptions& options,
              const ccl::Group& w) {
  System s;
  s.keeps_atoms = w.rank() == 0;
  Dumps dumps;
  for (const Command& c : parse_deck(text, file)) {
    try {
      if (apply_setup(s, c)) continue;
      if (c.name() == "write_restart") {
        c.expect_args(1, 1, "write_restart FILE");
        need_box(s, c);
        try {
          write_restart(s, s.atoms, c.words[1], w);
        } catch (const DeckError& e) {
          c.fail(std::string("write_restart: ") + e.what());
        }
        continue;
      }
      if (c.name() == "read_restart") {
        c.expect_args(1, 1, "read_restart FILE");
        if (s.box_created) c.fail("read_restart: the box already exists");
        try {
          read_restart(s, c.words[1], w);
        } catch (const DeckError& e) {
          c.fail(std::string("read_restart: ") + e.what());
        }
        continue;
      }
      if (c.name() == "run") {
        c.expect_args(1, 1, "run N");
        const long steps = c.integer(1, "number of steps");
        if (steps < 0) c.fail("run: the number of steps must not be negative");
        run(s, steps, options, w, dumps);
        continue;
      }
    } catch (const DeckError& e) {
      // Errors found while running name the run command unless they already name a line.
      const std::string what = e.what();
      if (what.rfind("run:", 0) == 0 || what.rfind("--", 0) == 0) c.fail(what);
      throw;
    }
    c.fail("unknown command '" + c.name() + "' (supported: " + kSupported + ")");
  }
}

}  // namespace md
