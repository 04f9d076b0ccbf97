#include "md/thermo.hpp"

#include <cctype>
#include <cstring>

namespace md {

namespace {

struct Keyword {
  const char* key;
  const char* column;  // as LAMMPS heads it
  bool integer;
  double (*value)(const ThermoState&);
};

const Keyword kKeywords[] = {
    {"step", "Step", true, [](const ThermoState& t) { return double(t.step); }},
    {"time", "Time", false, [](const ThermoState& t) { return t.time; }},
    {"atoms", "Atoms", true, [](const ThermoState& t) { return double(t.natoms); }},
    {"temp", "Temp", false, [](const ThermoState& t) { return t.temp; }},
    {"pe", "PotEng", false, [](const ThermoState& t) { return t.ecoul + t.elong + t.evdwl; }},
    {"ke", "KinEng", false, [](const ThermoState& t) { return t.ke; }},
    {"etotal", "TotEng", false,
     [](const ThermoState& t) { return t.ecoul + t.elong + t.evdwl + t.ke; }},
    {"press", "Press", false, [](const ThermoState& t) { return t.press; }},
    {"epair", "E_pair", false, [](const ThermoState& t) { return t.ecoul + t.elong + t.evdwl; }},
    {"emol", "E_mol", false, [](const ThermoState&) { return 0.0; }},
    {"ecoul", "E_coul", false, [](const ThermoState& t) { return t.ecoul; }},
    {"elong", "E_long", false, [](const ThermoState& t) { return t.elong; }},
    {"evdwl", "E_vdwl", false, [](const ThermoState& t) { return t.evdwl; }},
    {"vol", "Volume", false, [](const ThermoState& t) { return t.volume; }},
};

const Keyword* find(const std::string& key) {
  for (const Keyword& k : kKeywords) {
    if (key == k.key) return &k;
  }
  return nullptr;
}

}  // namespace

bool thermo_keyword_known(const std::string& key) {
  return find(key) != nullptr;
}

std::string thermo_keywords_supported() {
  std::string out;
  for (const Keyword& k : kKeywords) {
    if (!out.empty()) out += ' ';
    out += k.key;
  }
  return out;
}

void thermo_header(std::FILE* out, const std::vector<std::string>& keys) {
  for (const std::string& key : keys) {
    const Keyword* k = find(key);
    std::fprintf(out, k->integer ? "%10s " : "%15s ", k->column);
  }
  std::fprintf(out, "\n");
}

bool thermo_float_format_ok(const std::string& format) {
  // Exactly one conversion: %, flags, width, precision, one of e f g E G; %% elsewhere.
  int conversions = 0;
  for (std::size_t i = 0; i < format.size(); ++i) {
    if (format[i] != '%') continue;
    if (i + 1 < format.size() && format[i + 1] == '%') {
      ++i;
      continue;
    }
    std::size_t j = i + 1;
    while (j < format.size() && std::strchr("-+ #0", format[j]) != nullptr) ++j;
    while (j < format.size() &&
           (std::isdigit(static_cast<unsigned char>(format[j])) || format[j] == '.'))
      ++j;
    if (j >= format.size() || std::strchr("efgEG", format[j]) == nullptr) return false;
    ++conversions;
    i = j;
  }
  return conversions == 1;
}

void thermo_row(std::FILE* out, const std::vector<std::string>& keys,
                const std::string& float_format, const ThermoState& t) {
  for (const std::string& key : keys) {
    const Keyword* k = find(key);
    if (k->integer) {
      std::fprintf(out, "%10ld ", static_cast<long>(k->value(t)));
    } else {
      std::fprintf(out, float_format.c_str(), k->value(t));
      std::fputc(' ', out);
    }
  }
  std::fprintf(out, "\n");
}

}  // namespace md
