#include "ewald/work_meter.hpp"

#include <time.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "ccl/local_work.hpp"

#ifdef CCL_SMPI
#include <smpi/smpi.h>

#include <xbt/config.hpp>
#endif

namespace ewald {

namespace {

struct KernelInfo {
  const char* name;
  // Floating-point operations per unit, counted from the kernel's code (0: not counted). They
  // give the host's flop rate on the Ewald kernels, from which perf/scaling derives QCDOC-like
  // nodes: phase 4 mul + 2 add; factors the four slots' phases (36) and q·e summed (16); forces
  // the phases (36), the four slots' coefficients (16) and the three components (15).
  double flops;
};

constexpr std::array<KernelInfo, kKernels> kInfo{{{"pair", 0},
                                                  {"neighbor_bin", 0},
                                                  {"neighbor", 0},
                                                  {"phase", 6},
                                                  {"factors", 52},
                                                  {"forces", 67},
                                                  {"stencil", 0},
                                                  {"spread", 0},
                                                  {"fft", 1},
                                                  {"green", 0},
                                                  {"gather", 0},
                                                  {"integrate", 0},
                                                  {"clear", 0},
                                                  {"copy", 0},
                                                  {"reduce", 0}}};

enum class Mode { off, charge, calibrate };

struct Tally {
  bool had_first = false;
  double seconds = 0, units = 0, first_seconds = 0, first_units = 0;
  long regions = 0;
};

// One per rank: SMPI privatizes the program's globals, so each simulated rank has its own.
struct MeterState {
  Mode mode = Mode::off;
  std::string file;
  std::array<double, kKernels> seconds_per_unit{};
  std::array<bool, kKernels> known{};
  std::array<Tally, kKernels> tally{};
  bool in_region = false;
};

MeterState& state() {
  static MeterState s;
  return s;
}

double thread_seconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}

void read_rates(MeterState& s) {
  std::ifstream in(s.file);
  if (!in) throw std::runtime_error("CCL_WORK_RATES: cannot open '" + s.file + "'");
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    std::istringstream words(line);
    std::string name;
    if (!(words >> name) || name[0] == '#') continue;
    double rate = -1;
    words >> rate;
    const std::string where = s.file + ":" + std::to_string(number) + ": ";
    if (!(rate >= 0))
      throw std::runtime_error(where + "'" + name + "' needs seconds per unit >= 0");
    int k = 0;
    while (k < kKernels && name != kInfo[std::size_t(k)].name) ++k;
    if (k == kKernels) throw std::runtime_error(where + "unknown kernel '" + name + "'");
    s.seconds_per_unit[std::size_t(k)] = rate;
    s.known[std::size_t(k)] = true;
  }
}

// Charging a kernel needs its rate: a rates file from another deck may lack it.
void require_rate(const MeterState& s, Kernel k) {
  if (!s.known[std::size_t(k)]) {
    throw std::runtime_error("CCL_WORK_RATES: " + s.file + " has no rate for kernel '" +
                             kernel_name(k) + "'");
  }
}

// Host seconds of work, charged to the simulated node (scaled by smpi/host-speed).
void charge(double seconds) {
#ifdef CCL_SMPI
  if (seconds > 0) smpi_execute(seconds);
#else
  (void)seconds;
#endif
}

// ccl's copies and reductions, charged at their rates (charge mode's local-work hook).
void charge_local_work(std::size_t copied, std::size_t reduced) {
  const MeterState& s = state();
  charge(double(copied) * s.seconds_per_unit[std::size_t(Kernel::copy)] +
         double(reduced) * s.seconds_per_unit[std::size_t(Kernel::reduce)]);
}

// Seconds per byte of f on 64 KiB, warm: the median of 101 timed runs after 10 untimed.
template <class F>
double per_byte(F f) {
  std::vector<double> t;
  for (int i = 0; i < 111; ++i) {
    const double t0 = thread_seconds();
    f();
    if (i >= 10) t.push_back(thread_seconds() - t0);
  }
  std::nth_element(t.begin(), t.begin() + 50, t.end());
  return t[50] / double(64 << 10);
}

// Calibration of ccl's copies and reductions, as its schedules do them (memcpy; a sum of doubles).
void rate_local_work(MeterState& s) {
  std::vector<double> a((64 << 10) / sizeof(double), 1.0), b(a.size(), 2.0);
  const double copy = per_byte([&] { std::memcpy(b.data(), a.data(), 64 << 10); });
  const double sum = per_byte([&] {
    for (std::size_t i = 0; i < a.size(); ++i) b[i] += a[i];
  });
  for (auto [k, seconds] : {std::pair{Kernel::copy, copy}, std::pair{Kernel::reduce, sum}}) {
    Tally& t = s.tally[std::size_t(k)];
    t.seconds = seconds * double(64 << 10) * 101;
    t.units = double(64 << 10) * 101;
    t.regions = 101;
  }
}

}  // namespace

const char* kernel_name(Kernel k) {
  return kInfo[std::size_t(k)].name;
}

void configure_work_meter() {
  MeterState& s = state();
  const char* rates = std::getenv("CCL_WORK_RATES");
  const char* calibrate = std::getenv("CCL_WORK_CALIBRATE");
  if (rates != nullptr && *rates != 0 && calibrate != nullptr && *calibrate != 0)
    throw std::runtime_error("CCL_WORK_RATES and CCL_WORK_CALIBRATE exclude each other");
  if (rates != nullptr && *rates != 0) {
    s.file = rates;
    read_rates(s);
#ifndef CCL_SMPI
    throw std::runtime_error(
        "CCL_WORK_RATES charges simulated time: it needs a build against SMPI (cmake --preset "
        "smpi)");
#endif
    for (Kernel k : {Kernel::copy, Kernel::reduce}) require_rate(s, k);
#ifdef CCL_SMPI
    // SMPI drops every smpi_execute shorter than smpi/cpu-threshold (1 us of host time by
    // default), a filter for the noise of timed host bursts. Charged runs time nothing on the
    // host, and it would drop real work: the integration of a node's few atoms, a copy of a few
    // blocks, each tens of microseconds on a QCDOC-like node (a 3x3x3x3 torus allgather's staged
    // copies, 110 KB a call, vanished whole).
    simgrid::config::set_value<double>("smpi/cpu-threshold", 0.0);
#endif
    s.mode = Mode::charge;
    ccl::set_local_work_hook(&charge_local_work);
  } else if (calibrate != nullptr && *calibrate != 0) {
    s.mode = Mode::calibrate;
    s.file = calibrate;
  }
}

void write_work_rates() {
  MeterState& s = state();
  if (s.mode != Mode::calibrate) return;
  rate_local_work(s);
  std::FILE* out = std::fopen(s.file.c_str(), "w");
  if (out == nullptr) throw std::runtime_error("CCL_WORK_CALIBRATE: cannot write '" + s.file + "'");
  std::fprintf(out,
               "# ewald-md work rates (CCL_WORK_CALIBRATE): host seconds per unit of work, thread "
               "CPU time,\n# warm (each kernel's first region left out when later ones ran)\n"
               "# kernel seconds_per_unit units regions flops_per_unit gflops\n");
  for (int k = 0; k < kKernels; ++k) {
    const Tally& t = s.tally[std::size_t(k)];
    const bool warm = t.units > 0;
    const double seconds = warm ? t.seconds : t.first_seconds;
    const double units = warm ? t.units : t.first_units;
    if (units <= 0) continue;
    const double flops = kInfo[std::size_t(k)].flops;
    std::fprintf(out, "%s %.6e %.6g %ld %g %.4g\n", kernel_name(Kernel(k)), seconds / units, units,
                 warm ? t.regions : 1, flops, seconds > 0 ? flops * units / seconds / 1e9 : 0);
  }
  std::fclose(out);
}

WorkRegion::WorkRegion(Kernel k, double units) : kernel_(k), units_(units) {
  MeterState& s = state();
  // A region inside another would be charged twice, or its time lost: kernels do not nest.
  if (s.in_region) {
    throw std::logic_error(std::string("WorkRegion: '") + kernel_name(k) +
                           "' inside another region");
  }
  if (s.mode == Mode::charge) {
    require_rate(s, k);
#ifdef CCL_SMPI
    smpi_bench_end();  // SMPI charges the computation before the region, and stops timing
#endif
  } else if (s.mode == Mode::calibrate) {
    started_ = thread_seconds();
  }
  s.in_region = true;
}

WorkRegion::~WorkRegion() {
  MeterState& s = state();
  s.in_region = false;
  const auto k = std::size_t(kernel_);
  if (s.mode == Mode::charge) {
#ifdef CCL_SMPI
    if (units_ > 0) charge(units_ * s.seconds_per_unit[k]);
    smpi_bench_begin();  // timing resumes after the region
#endif
  } else if (s.mode == Mode::calibrate) {
    const double elapsed = thread_seconds() - started_;
    Tally& t = s.tally[k];
    if (!t.had_first) {  // cold: caches and tables not yet warm
      t.had_first = true;
      t.first_seconds = elapsed;
      t.first_units = units_;
      return;
    }
    t.seconds += elapsed;
    t.units += units_;
    ++t.regions;
  }
}

}  // namespace ewald
