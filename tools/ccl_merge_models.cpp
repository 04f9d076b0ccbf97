// ccl-merge-models: one machine model out of several ccl-calibrate runs at one rank count.
//
// A run is one job, and on a shared machine a whole job can run slow, while with more ranks
// than cores the scheduler places the ranks anew in every job: on the 2-core development machine
// three runs at 7 ranks put α at 2.2, 3.3 and 3.7 us, and one run at 8 ranks priced the ring
// allgather of 8 KiB at 2.6 times its model where three others found 1.0-1.2. The merged model
// takes, for α, β and γ, the median over the runs; for each profile point, the median over the runs
// of the time the run measured there (its ratio times what its own plain model predicted, as
// ccl-calibrate computed it), over what the merged plain model predicts. Points missing from a run
// are left out.
//
//   ccl-merge-models --np N --output FILE RUN1 RUN2 RUN3 ...
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "algorithm_profiles.hpp"
#include "ccl/algorithm.hpp"
#include "ccl/error.hpp"
#include "ccl/selection.hpp"

namespace {

[[noreturn]] void usage(const std::string& problem) {
  std::fprintf(stderr,
               "ccl-merge-models: %s\n"
               "usage: ccl-merge-models --np N --output FILE RUN1 RUN2 ... (models ccl-calibrate "
               "wrote at N ranks)\n",
               problem.c_str());
  std::exit(2);
}

// What `model` predicts, with no profile, for the best setting of the profile `key` ("<coll>
// <algorithm>[:seg=<bytes>]") at `bytes` per member on n members, as ccl-calibrate priced its
// point; 0 when no candidate has that key.
double predicted(const std::string& key, double bytes, int n, const ccl::MachineModel& model) {
  const std::string coll = key.substr(0, key.find(' '));
  for (int k = 0; k < ccl::kCollKinds; ++k) {
    const auto kind = static_cast<ccl::CollKind>(k);
    if (ccl::name(kind) != coll) continue;
    const auto count = static_cast<std::size_t>(bytes) / sizeof(double);
    for (const ccl::Candidate& c : ccl::rank_candidates(profile_shape(kind, n, count), model)) {
      if (ccl::MachineModel::profile_key(c.choice) == key) return c.seconds;
    }
  }
  return 0;
}

ccl::MachineModel merge(const std::vector<ccl::MachineModel>& runs, int n,
                        const std::string& output) {
  auto each = [&](double ccl::MachineModel::*field) {
    std::vector<double> v;
    for (const ccl::MachineModel& r : runs) v.push_back(r.*field);
    return median(v);
  };
  ccl::MachineModel merged{each(&ccl::MachineModel::alpha),
                           each(&ccl::MachineModel::beta),
                           each(&ccl::MachineModel::gamma),
                           output,
                           {},
                           runs.front().concurrent_links,
                           runs.front().torus};
  for (const auto& [key, first] : runs.front().profiles) {
    ccl::AlgorithmProfile profile;
    for (const ccl::ProfilePoint& point : first.points) {
      std::vector<double> seconds;
      for (const ccl::MachineModel& r : runs) {
        const auto it = r.profiles.find(key);
        if (it == r.profiles.end()) continue;
        for (const ccl::ProfilePoint& p : it->second.points) {
          if (p.bytes == point.bytes)
            seconds.push_back(p.ratio * predicted(key, p.bytes, n, plain_model(r)));
        }
      }
      const double base = predicted(key, point.bytes, n, plain_model(merged));
      if (seconds.size() == runs.size() && base > 0) {
        profile.points.push_back({point.bytes, median(seconds) / base});
      }
    }
    if (!profile.points.empty()) merged.profiles[key] = std::move(profile);
  }
  return merged;
}

}  // namespace

int main(int argc, char** argv) {
  int n = 0;
  std::string output;
  std::vector<std::string> inputs;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--np" && i + 1 < argc) {
      n = std::atoi(argv[++i]);
    } else if (a == "--output" && i + 1 < argc) {
      output = argv[++i];
    } else if (!a.empty() && a[0] == '-') {
      usage("unknown option '" + a + "'");
    } else {
      inputs.push_back(a);
    }
  }
  if (n < 2 || output.empty() || inputs.empty())
    usage("--np (2 or more), --output and a run are required");
  try {
    std::vector<ccl::MachineModel> runs;
    for (const std::string& path : inputs) runs.push_back(ccl::load_machine_model(path));
    ccl::save_machine_model(merge(runs, n, output), output);
  } catch (const ccl::Error& e) {
    std::fprintf(stderr, "ccl-merge-models: %s\n", e.what());
    return 1;
  }
  std::printf("ccl-merge-models: %zu runs at %d ranks -> %s\n", inputs.size(), n, output.c_str());
  return 0;
}
