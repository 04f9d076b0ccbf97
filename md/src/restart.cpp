#include "md/restart.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>

#include "ccl/collectives.hpp"
#include "md/agree.hpp"

namespace md {

namespace {

constexpr char kMagic[8] = {'E', 'W', 'M', 'D', 'R', 'S', 'T', '1'};
constexpr std::uint32_t kVersion = 1, kByteOrder = 0x01020304;

struct Header {
  char magic[8];
  std::uint32_t version, byte_order;
  std::int64_t atoms, step;
  std::uint64_t payload_bytes, checksum;
};

std::uint64_t fnv1a(const std::vector<unsigned char>& bytes) {
  std::uint64_t h = 1469598103934665603ull;
  for (unsigned char b : bytes) h = (h ^ b) * 1099511628211ull;
  return h;
}

template <class T>
void put(std::vector<unsigned char>& out, const T& value) {
  const auto* p = reinterpret_cast<const unsigned char*>(&value);
  out.insert(out.end(), p, p + sizeof(T));
}

// Reads values in order from a payload, failing on a short one.
class Reader {
 public:
  Reader(const std::vector<unsigned char>& bytes, const std::string& path)
      : bytes_(bytes), path_(path) {}
  template <class T>
  T get() {
    if (at_ + sizeof(T) > bytes_.size()) throw DeckError(path_ + ": restart file is truncated");
    T value;
    std::memcpy(&value, bytes_.data() + at_, sizeof(T));
    at_ += sizeof(T);
    return value;
  }

 private:
  const std::vector<unsigned char>& bytes_;
  std::string path_;
  std::size_t at_ = 0;
};

std::string write_file(const System& s, const std::vector<Atom>& atoms, const std::string& path) {
  std::vector<unsigned char> payload;
  char units[16] = {};
  std::strncpy(units, s.units->name.c_str(), sizeof units - 1);
  payload.insert(payload.end(), units, units + sizeof units);
  for (double v : s.lo) put(payload, v);
  for (double v : s.hi) put(payload, v);
  put(payload, static_cast<std::int64_t>(s.ntypes));
  for (double m : s.mass) put(payload, m);
  for (const Atom& a : atoms) {
    put(payload, static_cast<std::int64_t>(a.id));
    put(payload, static_cast<std::int32_t>(a.type));
    put(payload, std::int32_t{0});
    put(payload, a.q);
    for (double v : a.x) put(payload, v);
    for (double v : a.v) put(payload, v);
  }
  Header h{};
  std::memcpy(h.magic, kMagic, sizeof kMagic);
  h.version = kVersion;
  h.byte_order = kByteOrder;
  h.atoms = static_cast<std::int64_t>(atoms.size());
  h.step = s.step;
  h.payload_bytes = payload.size();
  h.checksum = fnv1a(payload);
  const std::string temporary = path + ".tmp";
  std::FILE* f = std::fopen(temporary.c_str(), "wb");
  if (f == nullptr) return path + ": cannot write restart file (" + std::strerror(errno) + ")";
  const bool written = std::fwrite(&h, sizeof h, 1, f) == 1 &&
                       std::fwrite(payload.data(), 1, payload.size(), f) == payload.size() &&
                       std::fflush(f) == 0 && ::fsync(fileno(f)) == 0;
  const int saved = errno;
  if (std::fclose(f) != 0 || !written)
    return path + ": cannot write restart file (" + std::strerror(saved) + ")";
  if (std::rename(temporary.c_str(), path.c_str()) != 0)
    return path + ": cannot rename (" + std::strerror(errno) + ")";
  return "";
}

}  // namespace

std::string restart_file_name(const std::string& pattern, long step) {
  const std::size_t star = pattern.find('*');
  if (star == std::string::npos) return pattern;
  return pattern.substr(0, star) + std::to_string(step) + pattern.substr(star + 1);
}

void write_restart(const System& s, const std::vector<Atom>& atoms, const std::string& path,
                   const ccl::Group& g) {
  fail_together(g, g.rank() == 0 ? write_file(s, atoms, path) : std::string());
}

void read_restart(System& s, const std::string& path, const ccl::Group& g) {
  // Member 0 reads and checks; the box, units, masses, counts and step are broadcast.
  std::string error;
  std::vector<unsigned char> payload;
  Header h{};
  if (g.rank() == 0) {
    std::FILE* f = std::fopen(path.c_str(), "rb");
    if (f == nullptr) {
      error = path + ": cannot read restart file (" + std::strerror(errno) + ")";
    } else {
      if (std::fread(&h, sizeof h, 1, f) != 1 || std::memcmp(h.magic, kMagic, sizeof kMagic) != 0) {
        error = path + ": not an ewald-md restart file";
      } else if (h.byte_order != kByteOrder) {
        error = path + ": restart file written with the other byte order";
      } else if (h.version != kVersion) {
        error = path + ": restart file format version " + std::to_string(h.version) +
                " (this program reads 1)";
      } else if (h.atoms < 0 || h.payload_bytes > (std::uint64_t(1) << 40)) {
        error = path + ": restart file header is corrupted";
      } else {
        payload.resize(h.payload_bytes);
        if (std::fread(payload.data(), 1, payload.size(), f) != payload.size()) {
          error = path + ": restart file is truncated";
        } else if (fnv1a(payload) != h.checksum) {
          error = path + ": restart file is corrupted (checksum mismatch)";
        }
      }
      std::fclose(f);
    }
  }
  fail_together(g, error);
  // What every member needs: units, box, types, masses, atom count, step.
  std::vector<double> box_and_masses;
  char units[16] = {};
  std::int64_t ntypes = 0;
  if (g.rank() == 0) {
    try {
      Reader r(payload, path);
      for (char& c : units) c = r.get<char>();
      for (int k = 0; k < 6; ++k) box_and_masses.push_back(r.get<double>());
      ntypes = r.get<std::int64_t>();
      if (ntypes < 1 || ntypes > 1000)
        throw DeckError(path + ": restart file has " + std::to_string(ntypes) + " atom types");
      for (std::int64_t t = 0; t <= ntypes; ++t) box_and_masses.push_back(r.get<double>());
      s.atoms.clear();
      for (std::int64_t i = 0; i < h.atoms; ++i) {
        Atom a{};
        a.id = r.get<std::int64_t>();
        a.type = r.get<std::int32_t>();
        r.get<std::int32_t>();
        a.q = r.get<double>();
        for (double& v : a.x) v = r.get<double>();
        for (double& v : a.v) v = r.get<double>();
        if (a.type < 1 || a.type > ntypes || a.id != i + 1)
          throw DeckError(path + ": restart file has a bad atom record");
        s.atoms.push_back(a);
      }
    } catch (const DeckError& e) {
      error = e.what();
    }
  }
  fail_together(g, error);
  std::int64_t counts[3] = {ntypes, h.atoms, h.step};
  ccl::bcast(g, std::span<std::int64_t>(counts, 3), 0);
  ccl::bcast(g, std::span<char>(units, sizeof units), 0);
  box_and_masses.resize(std::size_t(6 + counts[0] + 1));
  ccl::bcast(g, box_and_masses, 0);
  s.units = units_named(std::string(units, strnlen(units, sizeof units)));
  if (s.units == nullptr) throw DeckError(path + ": restart file names unknown units");
  for (std::size_t d = 0; d < 3; ++d) {
    s.lo[d] = box_and_masses[d];
    s.hi[d] = box_and_masses[3 + d];
  }
  s.ntypes = static_cast<int>(counts[0]);
  s.mass.assign(box_and_masses.begin() + 6, box_and_masses.end());
  s.natoms = counts[1];
  s.step = counts[2];
  s.box_created = true;
  if (!s.keeps_atoms) s.atoms.clear();
}

}  // namespace md
