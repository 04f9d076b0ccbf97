#include "diagnostics/watchdog.hpp"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <thread>

#include "ccl/mode.hpp"
#include "ccl/tick_clock.hpp"
#include "execution/operation.hpp"
#include "groups/group_state.hpp"

namespace ccl::detail {

Watch* armed_watch = nullptr;

namespace {

void exit_process(int code) {
  std::_Exit(code);
}
void (*hang_exit)(int) = exit_process;

double read_timeout() {
  const char* v = std::getenv("CCL_TIMEOUT");
  if (v == nullptr) return -1.0;
  return valid_timeout(v) ? std::strtod(v, nullptr) : -1.0;  // the runtime refuses bad values
}

}  // namespace

const double configured_timeout = read_timeout();

bool valid_timeout(const char* text) {
  char* end = nullptr;
  const double s = std::strtod(text, &end);
  return end != text && *end == '\0' && std::isfinite(s) && s >= 0;
}

void set_hang_exit(void (*exit)(int code)) {
  hang_exit = exit;
}

namespace {

// What the armed watch watches.
struct Watched {
  const GroupState* group = nullptr;
  Operation* op = nullptr;
  CollectiveRecord what;
  double seconds = 0;
  std::uint64_t deadline = 0;  // ticks
};
Watched watched;

}  // namespace

void Watch::arm(const GroupState& g, const Call& call, std::uint64_t instance, Operation* op) {
  const double seconds = watchdog_seconds();
  armed_ = true;
  watched.group = &g;
  watched.op = op;
  describe_call(watched.what, g, call, instance);
  watched.seconds = seconds;
  watched.deadline = ticks() + static_cast<std::uint64_t>(seconds / seconds_per_tick());
  armed_watch = this;
}

Watch::Watch(Operation& op) : Watch(op.group(), op.call(), op.instance(), &op) {}

bool Watch::expired() const {
  return armed_ && ticks() >= watched.deadline;
}

void Watch::report(Stage& stuck, const std::string& note) const {
  const GroupState& g = *watched.group;
  const std::string stuck_at =
      (watched.op != nullptr ? watched.op->describe_wait() : stuck.describe_wait(g.members)) + note;
  const Process& p = *g.process;
  const std::string rank = "ccl watchdog: rank " + std::to_string(p.world_rank) + ": ";
  char waited[32];
  std::snprintf(waited, sizeof waited, "%g", watched.seconds);
  std::string text =
      rank + "no progress for " + waited + " s (CCL_TIMEOUT) in a collective - stopping the job\n";
  text += rank + "stuck in: " + watched.what.describe() + ", member " + std::to_string(g.rank) +
          " of " + std::to_string(g.members.size()) + "\n";
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
