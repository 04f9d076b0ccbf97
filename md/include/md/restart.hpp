// Restart files (LAMMPS's write_restart / read_restart / restart N FILE): the box, units, masses,
// step and every atom (id, type, charge, position, velocity), written by member 0 atomically
// (temporary file, fsync, rename) and readable at any number of ranks and any decomposition.
// Pair, k-space, fix and output settings are not stored: the deck gives them after read_restart.
//
// Layout (native byte order, checked on reading):
//   "EWMDRST1"  u32 version = 1  u32 byte-order mark 0x01020304  i64 atoms  i64 step
//   u64 payload bytes  u64 FNV-1a checksum of the payload
//   payload: units name (16 bytes), box lo[3] hi[3], i64 types, masses[types + 1],
//            per atom: i64 id, i32 type, i32 0, q, x[3], v[3]
#pragma once

#include <string>
#include <vector>

#include "ccl/group.hpp"
#include "md/system.hpp"

namespace md {

// Writes atoms (all of them, member 0's) and the system's state to `path`. Collective over g:
// an I/O failure on member 0 is a DeckError on every member.
void write_restart(const System& s, const std::vector<Atom>& atoms, const std::string& path,
                   const ccl::Group& g);

// Replaces the system's box, units, types, masses, step and atoms by the file's; member 0 keeps
// the atoms. A missing, truncated, corrupted or foreign file is a DeckError on every member.
void read_restart(System& s, const std::string& path, const ccl::Group& g);

// The file name of a restart written at `step`: a '*' in `pattern` becomes the step.
std::string restart_file_name(const std::string& pattern, long step);

}  // namespace md
