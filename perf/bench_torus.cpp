// ccl-bench-torus: allgather (concat) algorithms on simulated tori under the torus network model
// (grids/torus_network.hpp: 2k links per node at once, store-and-forward hops, shortest routes),
// against the bound t = s·x / n_channels + n_hops·L of the QCDOC paper. The schedules are the ones
// the simulator and MPI run; only their sizes move. Writes CSV and prints one line per torus and
// a summary line.
//
//   ccl-bench-torus [--csv FILE] [--block-bytes N] [--shapes 4x4x4,8x8x8,...] [--latency S]
//                   [--link-bandwidth B/S]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <vector>

#include "ccl/algorithm.hpp"
#include "ccl/error.hpp"
#include "ccl/grids/torus.hpp"
#include "ccl/grids/torus_network.hpp"

namespace {

struct Options {
  std::string csv;
  std::size_t block_bytes = 1 << 20;
  std::vector<std::string> shapes{"4x4x4", "8x8x8", "6x6x6x6", "4x4x8", "2x2x2x10x10x10"};
  ccl::grids::TorusLinks links;
};

std::vector<std::string> split(const std::string& text) {
  std::vector<std::string> out;
  std::size_t at = 0;
  for (std::size_t comma; (comma = text.find(',', at)) != std::string::npos; at = comma + 1) {
    out.push_back(text.substr(at, comma - at));
  }
  out.push_back(text.substr(at));
  return out;
}

double positive(const std::string& flag, const std::string& v) {
  char* end = nullptr;
  const double x = std::strtod(v.c_str(), &end);
  if (end == v.c_str() || *end != '\0' || !(x > 0))
    throw ccl::Error("ccl-bench-torus: " + flag + " " + v + ": not a positive number");
  return x;
}

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (i + 1 >= argc) throw ccl::Error("ccl-bench-torus: " + a + " needs a value");
    const std::string v = argv[++i];
    if (a == "--csv") {
      o.csv = v;
    } else if (a == "--block-bytes") {
      o.block_bytes = static_cast<std::size_t>(positive(a, v));
    } else if (a == "--shapes") {
      o.shapes = split(v);
    } else if (a == "--latency") {
      o.links.latency = positive(a, v);
    } else if (a == "--link-bandwidth") {
      o.links.bandwidth = positive(a, v);
    } else {
      throw ccl::Error("ccl-bench-torus: unknown option '" + a +
                       "' (use --csv FILE, --block-bytes N, --shapes A,B,..., --latency S, "
                       "--link-bandwidth B/S)");
    }
  }
  return o;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const Options o = parse(argc, argv);
    ccl::grids::register_torus_algorithms();
    FILE* csv = o.csv.empty() ? nullptr : std::fopen(o.csv.c_str(), "w");
    if (!o.csv.empty() && csv == nullptr)
      throw ccl::Error("ccl-bench-torus: cannot write " + o.csv);
    if (csv != nullptr)
      std::fprintf(csv,
                   "torus,nodes,algorithm,rounds,messages,hops,seconds,bound_seconds,efficiency\n");
    std::string best_line;
    for (const std::string& text : o.shapes) {
      const ccl::grids::Cartesian torus = ccl::grids::Cartesian::parse(text);
      std::printf("%-16s %6d nodes:", torus.str().c_str(), torus.size());
      double best = 0;
      std::string best_name;
      for (const char* name :
           {"ring", "bruck", "recursive_doubling", "torus_qcdoc", "torus_multilink"}) {
        const ccl::Algorithm* a = ccl::find_algorithm(ccl::CollKind::concat, name);
        ccl::Shape s;
        s.kind = ccl::CollKind::concat;
        s.size = torus.size();
        s.elem = 1;
        s.count = o.block_bytes;
        s.torus.assign(torus.dims().begin(), torus.dims().end());
        const auto params = a->candidates(s);
        if (params.empty()) continue;
        const auto run =
            ccl::grids::simulate_concat(torus, *a, params.front(), o.block_bytes, o.links);
        std::printf("  %s %.0f%%", name, 100 * run.efficiency());
        std::fflush(stdout);
        if (csv != nullptr) {
          std::fprintf(csv, "%s,%d,%s,%zu,%zu,%zu,%.6e,%.6e,%.4f\n", torus.str().c_str(),
                       torus.size(), name, run.rounds, run.messages, run.hops, run.seconds,
                       run.bound_seconds, run.efficiency());
        }
        if (run.efficiency() > best) {
          best = run.efficiency();
          best_name = name;
        }
      }
      std::printf("\n");
      best_line += (best_line.empty() ? "" : ", ") + torus.str() + " " + best_name + " " +
                   std::to_string(static_cast<int>(100 * best + 0.5)) + "%";
    }
    if (csv != nullptr) std::fclose(csv);
    std::printf(
        "ccl-bench-torus: %zu B per node, efficiency against the bound, best per torus: %s\n",
        o.block_bytes, best_line.c_str());
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 2;
  }
}
