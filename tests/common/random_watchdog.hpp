// A hang is a failure too, and it must name its seed: the runner marks each step it reaches on a
// beacon, and a watchdog thread that sees no mark for `limit` seconds prints where the run stood
// and ends the process (mpiexec then ends the other ranks).
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <thread>

namespace rnd {

struct Beacon {
  std::atomic<std::uint64_t> seed{0};
  std::atomic<int> step{-1};
  std::atomic<std::uint64_t> beats{0};
  void mark(std::uint64_t s, int st) {
    seed = s;
    step = st;
    ++beats;
  }
};

inline Beacon& beacon() {
  static Beacon b;
  return b;
}

class Watchdog {
 public:
  Watchdog(double limit_seconds, const char* program, int rank)
      : thread_([this, limit_seconds, program, rank] { watch(limit_seconds, program, rank); }) {}
  ~Watchdog() {
    {
      std::lock_guard lock(mutex_);
      stop_ = true;
    }
    wake_.notify_all();
    thread_.join();
  }
  Watchdog(const Watchdog&) = delete;
  Watchdog& operator=(const Watchdog&) = delete;

 private:
  void watch(double limit, const char* program, int rank) {
    using clock = std::chrono::steady_clock;
    std::uint64_t seen = beacon().beats;
    auto since = clock::now();
    std::unique_lock lock(mutex_);
    while (!wake_.wait_for(lock, std::chrono::milliseconds(500), [this] { return stop_; })) {
      const std::uint64_t now_beats = beacon().beats;
      if (now_beats != seen) {
        seen = now_beats;
        since = clock::now();
      } else if (std::chrono::duration<double>(clock::now() - since).count() > limit) {
        std::fprintf(stderr,
                     "[rank %d] %s: FAILED: no progress for %.0f s at seed %llu, step %d (a hang); "
                     "rerun with --seed %llu\n",
                     rank, program, limit, static_cast<unsigned long long>(beacon().seed.load()),
                     beacon().step.load(), static_cast<unsigned long long>(beacon().seed.load()));
        std::fflush(stderr);
        std::_Exit(3);
      }
    }
  }

  std::mutex mutex_;
  std::condition_variable wake_;
  bool stop_ = false;
  std::thread thread_;  // last: starts once the rest is ready
};

}  // namespace rnd
