#include "md/dump.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "md/agree.hpp"

namespace md {

namespace {

void write_header(std::FILE* f, const System& s, long step, std::size_t natoms) {
  std::fprintf(f, "ITEM: TIMESTEP\n%ld\nITEM: NUMBER OF ATOMS\n%zu\nITEM: BOX BOUNDS pp pp pp\n",
               step, natoms);
  for (std::size_t k = 0; k < 3; ++k) std::fprintf(f, "%.16g %.16g\n", s.lo[k], s.hi[k]);
}

void write_column(std::FILE* f, const Atom& a, const std::string& col) {
  if (col == "id") {
    std::fprintf(f, "%ld ", a.id);
  } else if (col == "type") {
    std::fprintf(f, "%d ", a.type);
  } else {
    static const char* kVectors = "xyz";
    double value = a.q;
    if (col.size() == 1) value = a.x[std::size_t(std::strchr(kVectors, col[0]) - kVectors)];
    if (col.size() == 2)
      value = (col[0] == 'v' ? a.v : a.f)[std::size_t(std::strchr(kVectors, col[1]) - kVectors)];
    std::fprintf(f, "%.15g ", value);
  }
}

}  // namespace

Dumps::~Dumps() {
  for (auto& [id, file] : files_) std::fclose(file);
}

void Dumps::open(const System& s, const ccl::Group& g) {
  std::string error;
  if (g.rank() == 0) {
    // Files of dumps that were undumped are closed.
    for (auto it = files_.begin(); it != files_.end();) {
      const bool kept = std::any_of(s.run.dumps.begin(), s.run.dumps.end(),
                                    [&](const DumpSettings& d) { return d.id == it->first; });
      if (kept) {
        ++it;
      } else {
        std::fclose(it->second);
        it = files_.erase(it);
      }
    }
    for (const DumpSettings& d : s.run.dumps) {
      if (files_.count(d.id) != 0) continue;
      std::FILE* f = std::fopen(d.file.c_str(), "w");
      if (f == nullptr) {
        error = d.where + ": dump: cannot open '" + d.file + "' (" + std::strerror(errno) + ")";
        break;
      }
      files_[d.id] = f;
    }
  }
  fail_together(g, error);
}

bool Dumps::due(const System& s, long step) const {
  for (const DumpSettings& d : s.run.dumps) {
    if (step % d.every == 0) return true;
  }
  return false;
}

void Dumps::write(const System& s, long step, const std::vector<Atom>& atoms) {
  const Vec3 len = s.length();
  for (const DumpSettings& d : s.run.dumps) {
    if (step % d.every != 0 || files_.count(d.id) == 0) continue;
    std::FILE* f = files_[d.id];
    if (d.style == "custom") {
      write_header(f, s, step, atoms.size());
      std::fprintf(f, "ITEM: ATOMS");
      for (const std::string& col : d.columns) std::fprintf(f, " %s", col.c_str());
      std::fprintf(f, "\n");
      for (const Atom& a : atoms) {
        for (const std::string& col : d.columns) write_column(f, a, col);
        std::fprintf(f, "\n");
      }
    } else if (d.style == "xyz") {
      std::fprintf(f, "%zu\n Atoms. Timestep: %ld\n", atoms.size(), step);
      for (const Atom& a : atoms)
        std::fprintf(f, "%d %.8g %.8g %.8g\n", a.type, a.x[0], a.x[1], a.x[2]);
    } else {
      write_header(f, s, step, atoms.size());
      std::fprintf(f, "ITEM: ATOMS id type xs ys zs\n");
      for (const Atom& a : atoms) {
        std::fprintf(f, "%ld %d %.8g %.8g %.8g\n", a.id, a.type, (a.x[0] - s.lo[0]) / len[0],
                     (a.x[1] - s.lo[1]) / len[1], (a.x[2] - s.lo[2]) / len[2]);
      }
    }
    std::fflush(f);
  }
}

}  // namespace md
