// ccl-explain: which algorithm ccl chooses for a collective and why. Prints every candidate
// with its C1 (start-ups), C2 (bytes) and C3 (bytes reduced) on the critical path and its
// predicted time under the machine model, least first, and marks the choice.
//
//   ccl-explain --coll concat --np 12 --bytes 65536 [--root R] [--elem 8]
//               [--noncommutative] [--torus 3x2x2] [--model FILE] [--cores C]
//               [--direct-above B] [--all]
// --root: the root of a rooted collective (default 0); for sync, the root of a fan-out (bcast,
// scatter) just before it, which a sync may release first (default: none).
// --cores: the cores of the one node the np ranks run on (default: this machine's); with more
// ranks than cores, selection leaves out short pipeline segments, and with two or more ranks to
// every core what needs a core per member (core_sharing()).
// --direct-above: as in a job whose shared-memory fabric found one copy cheaper than streams
// above B bytes (its start-up probe, or CCL_DIRECT_ABOVE): pipelines get no segment of up to B.
// --torus: the group is laid out as that torus (as grids::Torus declares it), so that the torus
// allgathers are candidates for concat; with a model whose links run at once ("links
// concurrent") they are weighed by their multi-port cost.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include <unistd.h>

#include "ccl/algorithm.hpp"
#include "ccl/error.hpp"
#include "ccl/grids/cartesian.hpp"
#include "ccl/grids/torus.hpp"
#include "ccl/selection.hpp"

namespace {

[[noreturn]] void usage(const std::string& problem) {
  std::fprintf(stderr,
               "ccl-explain: %s\n"
               "usage: ccl-explain --coll NAME --np N --bytes B [--root R] [--root-last] "
               "[--elem E] [--noncommutative] [--torus SHAPE] [--model FILE] [--cores C] "
               "[--direct-above B] [--all]\n"
               "  NAME: bcast reduce combine scatter gather concat index prefix shift sync\n"
               "  B: bytes per member (the vector, or one member's block)\n"
               "  R: the root (default 0); for sync, the member it releases first (default none)\n"
               "  --root-last: sync, with R: the member before R leaves once all others have\n"
               "    (the sync before a fan-in to R - 1)\n",
               problem.c_str());
  std::exit(2);
}

long number(const char* text, const std::string& flag) {
  char* end = nullptr;
  const long v = std::strtol(text, &end, 10);
  if (*text == '\0' || *end != '\0' || v < 0)
    usage(flag + " needs a non-negative integer, got '" + text + "'");
  return v;
}

}  // namespace

int main(int argc, char** argv) {
  std::optional<ccl::CollKind> kind;
  long np = -1, bytes = -1, root = -1, elem = 8, cores = sysconf(_SC_NPROCESSORS_ONLN);
  long direct_above = 0;  // number() takes no negative value
  bool commutative = true, all = false, root_last = false;
  std::string model_path, torus_text;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> const char* {
      if (i + 1 >= argc) usage(a + " needs a value");
      return argv[++i];
    };
    if (a == "--coll") {
      const std::string name = value();
      for (int k = 0; k < ccl::kCollKinds; ++k) {
        if (ccl::name(static_cast<ccl::CollKind>(k)) == name) kind = static_cast<ccl::CollKind>(k);
      }
      if (!kind) usage("unknown collective '" + name + "'");
    } else if (a == "--np") {
      np = number(value(), a);
    } else if (a == "--bytes") {
      bytes = number(value(), a);
    } else if (a == "--root") {
      root = number(value(), a);
    } else if (a == "--elem") {
      elem = number(value(), a);
    } else if (a == "--cores") {
      cores = number(value(), a);
    } else if (a == "--direct-above") {
      direct_above = number(value(), a);
    } else if (a == "--model") {
      model_path = value();
    } else if (a == "--torus") {
      torus_text = value();
    } else if (a == "--root-last") {
      root_last = true;
    } else if (a == "--noncommutative") {
      commutative = false;
    } else if (a == "--all") {
      all = true;
    } else {
      usage("unknown option '" + a + "'");
    }
  }
  if (!kind || np < 1 || bytes < 0) usage("--coll, --np (at least 1) and --bytes are required");
  if (elem < 1 || bytes % elem != 0) usage("--bytes must be a multiple of --elem");
  if (root >= np) usage("--root must be below --np");
  if (root_last && (kind != ccl::CollKind::sync || root < 0)) {
    usage("--root-last applies to sync with --root");
  }
  if (cores < 1) usage("--cores must be at least 1");
  if (ccl::is_vector_form(*kind)) usage("explain the fixed-size form (concat for concatv, ...)");
  std::vector<int> torus;
  if (!torus_text.empty()) {
    try {
      const auto shape = ccl::grids::torus_shape(torus_text, static_cast<int>(np));
      torus.assign(shape.dims().begin(), shape.dims().end());
    } catch (const ccl::Error& e) {
      usage(std::string("--torus: ") + e.what());
    }
    ccl::grids::register_torus_algorithms();
  }

  try {
    // Without --model, the model a job of np ranks runs with: CCL_MODEL, else the built-in one.
    if (!model_path.empty()) {
      ccl::set_machine_model(ccl::load_machine_model(model_path));
    } else {
      ccl::use_builtin_model(static_cast<int>(np));
    }
    ccl::set_core_sharing(ccl::core_sharing_of(np, cores));
    ccl::set_streams_lose_above(static_cast<std::size_t>(direct_above));
    const ccl::MachineModel& model = ccl::machine_model();
    ccl::Shape s;
    s.kind = *kind;
    s.size = static_cast<int>(np);
    s.root = ccl::is_rooted(*kind)          ? static_cast<int>(std::max(root, 0L))
             : *kind == ccl::CollKind::sync ? static_cast<int>(root)
                                            : 0;
    s.elem = *kind == ccl::CollKind::sync ? 1 : static_cast<std::size_t>(elem);
    s.count = *kind == ccl::CollKind::sync ? 0 : static_cast<std::size_t>(bytes / elem);
    s.commutative = commutative;
    s.distance = *kind == ccl::CollKind::shift || root_last ? 1 : 0;
    if (*kind == ccl::CollKind::concat) s.torus = torus;
    const ccl::Choice chosen = ccl::select(s);
    const auto ranked = ccl::rank_candidates(s, model);
    std::printf("%s (%s) on %ld members, %ld bytes per member%s\n",
                std::string(ccl::name(*kind)).c_str(), std::string(ccl::mpi_name(*kind)).c_str(),
                np, bytes,
                ccl::is_reduction(*kind) && !commutative ? ", non-commutative operator" : "");
    std::printf("model: alpha %.3g s, beta %.3g s/B (%.2f GB/s), gamma %.3g s/B  [%s]\n",
                model.alpha, model.beta, model.beta > 0 ? 1e-9 / model.beta : 0.0, model.gamma,
                model.source.c_str());
    // With calibrated profiles, the plain prediction α·C1 + β·C2 + γ·C3 is scaled by the ratio
    // measured/predicted of the algorithm (or its segment size) at this size: show it.
    const bool profiled = !model.profiles.empty();
    std::printf("  %-44s %6s %12s %12s %s%12s\n", "candidate", "C1", "C2 [B]", "C3 [B]",
                profiled ? " profile" : "", "predicted");
    const std::size_t shown = all ? ranked.size() : std::min<std::size_t>(ranked.size(), 15);
    bool any_stream = false;
    for (std::size_t i = 0; i < shown; ++i) {
      const auto& c = ranked[i];
      const bool is_choice = c.choice.str() == chosen.str();
      const bool stream = c.choice.algorithm->stream != nullptr;
      any_stream = any_stream || stream;
      char ratio[32] = "";
      if (profiled) std::snprintf(ratio, sizeof ratio, " x%6.2f", model.ratio(c.choice, s));
      std::printf("%s %-44s %6llu %12llu %12llu%s %9.2f us%s\n", is_choice ? "*" : " ",
                  c.choice.str().c_str(), static_cast<unsigned long long>(c.cost.c1),
                  static_cast<unsigned long long>(c.cost.c2),
                  static_cast<unsigned long long>(c.cost.c3), ratio, c.seconds * 1e6,
                  stream ? " ~" : "");
    }
    if (any_stream) {
      std::printf(
          "  ~ data flows one way: calls in a row overlap, so the cost shown is a member's own\n"
          "    work per call (its single-call critical path is longer)\n");
    }
    if (shown < ranked.size())
      std::printf("  ... %zu more (--all lists them)\n", ranked.size() - shown);
    for (const ccl::Algorithm* a : ccl::catalog()) {
      if (a->kind != ccl::base_kind(*kind)) continue;
      if (!ccl::considered(*a)) {
        std::printf(
            "  not considered: %s, which releases every member at once, with %ld ranks on %ld "
            "cores\n",
            std::string(a->name).c_str(), np, cores);
        continue;
      }
      for (const ccl::Params& p : a->candidates(s)) {
        const std::string setting = ccl::Choice{a, p}.str();
        switch (ccl::segment_rule(p, s)) {
          case ccl::SegmentRule::none:
            break;
          case ccl::SegmentRule::streams_lose:
            std::printf(
                "  not considered: %s, segments of up to %ld bytes, which would stream "
                "where one copy costs less\n",
                setting.c_str(), direct_above);
            break;
          case ccl::SegmentRule::one_copy_pair:
            std::printf(
                "  not considered: %s, segments of one copy each, which the receiver "
                "would make one after another\n",
                setting.c_str());
            break;
          case ccl::SegmentRule::shared_core_short:
            std::printf(
                "  not considered: %s, segments under %zu bytes, with %ld ranks on %ld "
                "cores\n",
                setting.c_str(), ccl::kSharedCoreMinSegment, np, cores);
            break;
        }
      }
    }
    std::printf("choice: %s — %s\n", chosen.str().c_str(), ccl::selection_reason(s).c_str());
  } catch (const ccl::Error& e) {
    std::fprintf(stderr, "ccl-explain: %s\n", e.what());
    return 1;
  }
  return 0;
}
