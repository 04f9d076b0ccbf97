// Thermodynamic output: the keywords of `thermo_style custom` and the lines LAMMPS prints.
#pragma once

#include <cstdio>
#include <string>
#include <vector>

namespace md {

// What the keywords are computed from, in the deck's units.
struct ThermoState {
  long step = 0;
  double time = 0;  // step × timestep
  long natoms = 0;
  double volume = 0;
  double temp = 0, ke = 0;  // from the kinetic energy with 3N − 3 degrees of freedom
  double ecoul = 0, elong = 0, evdwl = 0;
  double press = 0;
};

bool thermo_keyword_known(const std::string& key);
std::string thermo_keywords_supported();

// The header line (LAMMPS's column names) and one row of values.
void thermo_header(std::FILE* out, const std::vector<std::string>& keys);
// float_format: one printf conversion of a double (checked by thermo_float_format_ok).
void thermo_row(std::FILE* out, const std::vector<std::string>& keys,
                const std::string& float_format, const ThermoState& t);
bool thermo_float_format_ok(const std::string& format);

}  // namespace md
