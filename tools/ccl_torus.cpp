// ccl-torus plan SHAPE: what a torus allgather (the QCDOC scheme, or the multi-link one) does on
// a torus, read from its schedule (that of member 0; every member's is the same, translated): per
// step the blocks a node receives, the links in use and the bytes on the busiest one, and the
// time on a torus network where all links run at once, against the bound t = s·x / n_channels +
// n_hops·L of the paper.
//
//   ccl-torus plan 6x6x6x6x6x6 [--scheme qcdoc|multilink] [--block-bytes N] [--latency SECONDS]
//                              [--link-bandwidth BYTES/S]
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

#include "ccl/algorithm.hpp"
#include "ccl/error.hpp"
#include "ccl/grids/cartesian.hpp"
#include "ccl/grids/torus.hpp"
#include "ccl/grids/torus_report.hpp"

namespace {

struct Options {
  std::string shape;
  std::string scheme = "qcdoc";
  std::size_t block_bytes = 1 << 20;
  double latency = 660e-9;   // the paper's estimate with a minimal software layer
  double bandwidth = 500e6;  // bytes/s per link and direction
};

const char* kUsage =
    "usage: ccl-torus plan SHAPE [--scheme qcdoc|multilink] [--block-bytes N] [--latency SECONDS]\n"
    "                            [--link-bandwidth BYTES/S]\n"
    "  SHAPE like 6x6x6x6x6x6; defaults: qcdoc, 1 MiB blocks, 660 ns, 500 MB/s per link";

Options parse(int argc, char** argv) {
  if (argc < 3 || std::string(argv[1]) != "plan") throw ccl::Error(kUsage);
  Options o;
  o.shape = argv[2];
  for (int i = 3; i < argc; ++i) {
    const std::string a = argv[i];
    if (i + 1 >= argc) throw ccl::Error("ccl-torus: " + a + " needs a value\n" + kUsage);
    const std::string v = argv[++i];
    if (a == "--scheme") {
      if (v != "qcdoc" && v != "multilink")
        throw ccl::Error("ccl-torus: --scheme " + v + ": use qcdoc or multilink");
      o.scheme = v;
      continue;
    }
    char* end = nullptr;
    const double x = std::strtod(v.c_str(), &end);
    if (end == v.c_str() || *end != '\0' || !(x > 0)) {
      throw ccl::Error("ccl-torus: " + a + " " + v + ": not a positive number");
    }
    if (a == "--block-bytes") {
      o.block_bytes = static_cast<std::size_t>(x);
    } else if (a == "--latency") {
      o.latency = x;
    } else if (a == "--link-bandwidth") {
      o.bandwidth = x;
    } else {
      throw ccl::Error("ccl-torus: unknown option '" + a + "'\n" + kUsage);
    }
  }
  return o;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const Options o = parse(argc, argv);
    const ccl::grids::Cartesian torus = ccl::grids::Cartesian::parse(o.shape);
    ccl::grids::register_torus_algorithms();
    const ccl::Algorithm* a = ccl::find_algorithm(ccl::CollKind::concat, "torus_" + o.scheme);
    ccl::Shape s;
    s.kind = ccl::CollKind::concat;
    s.size = torus.size();
    s.rank = 0;
    s.elem = 1;
    s.count = o.block_bytes;
    s.torus.assign(torus.dims().begin(), torus.dims().end());
    const auto steps = ccl::grids::tally_steps(a->build(s, {}), o.block_bytes);
    const int links = torus.torus_links(), diameter = torus.torus_diameter();
    std::printf(
        "ccl-torus plan %s: %d nodes, %d links per node, diameter %d; %s scheme: %zu steps\n",
        torus.str().c_str(), torus.size(), links, diameter,
        o.scheme == "qcdoc" ? "QCDOC" : "multi-link", steps.size());
    std::printf("block %zu B per node, link %.3g B/s per direction, latency %.3g s\n\n",
                o.block_bytes, o.bandwidth, o.latency);
    std::printf("%5s %9s %6s %16s %16s %12s\n", "step", "blocks", "links", "busiest link [B]",
                "received [B]", "time [us]");
    std::size_t x = 0;
    long blocks = 0;
    for (std::size_t i = 0; i < steps.size(); ++i) {
      const auto& t = steps[i];
      x += t.bytes;
      blocks += t.blocks;
      std::printf("%5zu %9d %6zu %16zu %16zu %12.1f\n", i + 1, t.blocks, t.link_bytes.size(),
                  t.busiest(), t.bytes,
                  (o.latency + static_cast<double>(t.busiest()) / o.bandwidth) * 1e6);
    }
    const auto timing =
        ccl::grids::lockstep_timing(steps, torus, o.block_bytes, {o.latency, o.bandwidth});
    std::printf("\ntotal: %ld blocks, x = %zu B received per node\n", blocks, x);
    std::printf(
        "predicted %.1f us (all links at once, steps in lockstep); bound s*x/n_channels + n_hops*L "
        "= "
        "%.1f us; efficiency %.0f%%\n",
        timing.seconds * 1e6, timing.bound_seconds * 1e6, 100 * timing.efficiency());
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 2;
  }
}
