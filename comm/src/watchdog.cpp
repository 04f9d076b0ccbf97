#include "watchdog.hpp"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <thread>

#include "ccl/mode.hpp"
#include "group_state.hpp"
#include "operation.hpp"
#include "tick_clock.hpp"

namespace ccl::detail {

Watch* armed_watch = nullptr;

namespace {

constexpr double kDevelopDefault = 300;  // seconds: far beyond any collective that is not stuck

void exit_process(int code) {
  std::_Exit(code);
}
void (*hang_exit)(int) = exit_process;

// CCL_TIMEOUT as seconds, or -1 when unset (then the mode decides).
double configured_seconds() {
  static const double s = [] {
    const char* v = std::getenv("CCL_TIMEOUT");
    if (v == nullptr) return -1.0;
    return valid_timeout(v) ? std::strtod(v, nullptr) : -1.0;  // the runtime refuses bad values
  }();
  return s;
}

}  // namespace

bool valid_timeout(const char* text) {
  char* end = nullptr;
  const double s = std::strtod(text, &end);
  return end != text && *end == '\0' && std::isfinite(s) && s >= 0;
}

double watchdog_seconds() {
  const double s = configured_seconds();
  if (s >= 0) return s;
  return mode() == Mode::develop ? kDevelopDefault : 0;
}

void set_hang_exit(void (*exit)(int code)) {
  hang_exit = exit;
}

Watch::Watch(const GroupState& g, const Call& call, std::uint64_t instance) {
  if (armed_watch != nullptr) return;
  seconds_ = watchdog_seconds();
  if (seconds_ <= 0) return;
  armed_ = true;
  group_ = &g;
  describe_call(what_.emplace(), g, call, instance);
  deadline_ = ticks() + static_cast<std::uint64_t>(seconds_ / seconds_per_tick());
  armed_watch = this;
}

Watch::Watch(Operation& op) : Watch(op.group(), op.call(), op.instance()) {
  if (armed_) op_ = &op;
}

Watch::~Watch() {
  if (armed_) armed_watch = nullptr;
}

bool Watch::expired() const {
  return armed_ && ticks() >= deadline_;
}

void Watch::report(Stage& stuck, const std::string& note) const {
  const std::string stuck_at =
      (op_ != nullptr ? op_->describe_wait() : stuck.describe_wait(group_->members)) + note;
  const Process& p = *group_->process;
  const std::string rank = "ccl watchdog: rank " + std::to_string(p.world_rank) + ": ";
  char waited[32];
  std::snprintf(waited, sizeof waited, "%g", seconds_);
  std::string text =
      rank + "no progress for " + waited + " s (CCL_TIMEOUT) in a collective - stopping the job\n";
  text += rank + "stuck in: " + what_->describe() + ", member " + std::to_string(group_->rank) +
          " of " + std::to_string(group_->members.size()) + "\n";
  text += rank + "waiting at: " + stuck_at + "\n";
  const std::uint64_t now = coarse_ns();
  const FlightRecorder& fr = p.recorder;
  const std::uint64_t shown = std::min<std::uint64_t>(fr.completed(), FlightRecorder::kDepth);
  text += rank + "last " + std::to_string(shown) + " of " + std::to_string(fr.completed()) +
          " collectives completed on this rank, oldest first:\n";
  fr.for_each([&](std::uint64_t seq, const CollectiveRecord& r) {
    char ago[48];
    const double seconds = 1e-9 * static_cast<double>(now - r.done_at);
    std::snprintf(ago, sizeof ago, ", %.3f s before this report", seconds);
    text += rank + "  #" + std::to_string(seq + 1) + " " + r.describe() + ", algorithm " +
            std::string(r.algorithm.empty() ? "-" : r.algorithm) + ago + "\n";
  });
  std::fwrite(text.data(), 1, text.size(), stderr);
  std::fflush(stderr);
  // Peers stuck in the same collective are about to report too: give them a moment before the
  // abort takes the job down.
  std::this_thread::sleep_for(std::chrono::seconds(1));
  hang_exit(kHangExitCode);
  std::_Exit(kHangExitCode);  // in case the hook returned
}

}  // namespace ccl::detail
