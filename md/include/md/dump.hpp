// Snapshots in LAMMPS's `atom` (id type xs ys zs, scaled) and `xyz` formats, written by member 0
// from atoms gathered to it. Files stay open across runs, as in LAMMPS.
#pragma once

#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "ccl/group.hpp"
#include "md/system.hpp"

namespace md {

class Dumps {
 public:
  ~Dumps();
  // Opens the files of new dumps on member 0; a file that cannot be opened is a DeckError naming
  // the dump command, on every member.
  void open(const System& s, const ccl::Group& g);
  // Whether some dump writes at this step.
  bool due(const System& s, long step) const;
  // Writes the dumps due at this step (member 0; atoms in id order).
  void write(const System& s, long step, const std::vector<Atom>& atoms);

 private:
  std::map<std::string, std::FILE*> files_;
};

}  // namespace md
