// Waiting where ranks share cores. A rank whose poll finds nothing gives its core away
// (sched_yield), since the peer it waits for may need that core. But when that peer runs on
// another core right now, its message is on the way, and a yield costs the waiter a whole turn of
// its core's other ranks: under IMB's bcast of 4 KiB on 8 ranks of 2 cores, a leaf released by
// the barrier a few hundred ns before its root had written yielded once in about 1% of calls and
// came back 30-45 us later (its mean 0.4-0.6 us a call became 1.0-1.4).
//
// So every rank publishes, in a line of its shared area, the CPU it runs on (plus one), and 0
// while it has given its core away; the kernel places it anew after each yield. A wait on one
// peer pauses instead of yielding while that peer is published running on another CPU, for at
// most kSpinWhileRunning; otherwise, and after that, it yields as before. A peer on our own CPU
// is not running while we are. A peer preempted without yielding still reads as running: the
// bound caps what that costs. Spinning on every wait instead made IMB's allreduce on 4 ranks
// 1.5-2x slower (its peers often wait for this core). While a wait spins, MPI's progress is left
// alone (ShmFabric::Wait): Open MPI's yields the core where ranks outnumber cores, which kept
// 1-2% of 16 KiB bcasts (posted receives) at 30 us.
//
// IMB's bcast on 8 ranks of 2 cores, per call, against the build before: 1-8 KiB 0.54-1.47 us ->
// 0.41-0.89 (coll/sm 0.24-0.82), 16-64 KiB 2.2-6.4 -> 1.3-3.3; scatter of 1 B-8 KiB 0.27-2.06
// -> 0.18-1.02; allreduce, allgather, alltoall and barrier unchanged.
//
// Cost: a yield stores twice into our line (each a cache line's trip when a waiter reads it);
// a spinning poll reads the peer's line, which stays in our cache until the peer yields.
#include <sched.h>

#include <atomic>
#include <cstdint>

#include "ccl/tick_clock.hpp"
#include "transport/shm/shm_fabric.hpp"

namespace ccl::detail {

namespace {

// On 8 ranks of 2 cores (bcast of 4 KiB after a barrier, whose root takes up to ~1.3 us to write
// data and references) 2 and 4 us both left no call that yields; 1 us was tried only while MPI's
// progress still ran during the spin (it yields itself), so it is not known to be enough. 4 us
// keeps a margin for slower hours of this machine.
constexpr double kSpinWhileRunning = 4e-6;

// A spin-wait hint between polls of a ring that was empty. It keeps the poller off the cell line
// its peer is writing and spares the pipeline flush on leaving the loop: on 2 ranks, 8 B
// combine, concat and index (each a wait for the peer's answer) ran 7-9% faster with it.
inline void spin_pause() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield" ::: "memory");
#endif
}

std::uint32_t current_cpu() {
#if defined(__linux__)
  const int cpu = sched_getcpu();
  return cpu < 0 ? 0 : static_cast<std::uint32_t>(cpu) + 1;
#else
  return 0;  // unknown: never spin on a peer
#endif
}

}  // namespace

std::atomic_ref<std::uint32_t> ShmFabric::running_on(int local) const {
  return std::atomic_ref<std::uint32_t>(*reinterpret_cast<std::uint32_t*>(area(local)));
}

void ShmFabric::publish_cpu() {
  cpu_ = current_cpu();
  running_on(local_).store(cpu_, std::memory_order_relaxed);
}

void ShmFabric::start_core_turns() {
  spin_ticks_ = static_cast<std::uint64_t>(kSpinWhileRunning / seconds_per_tick());
  publish_cpu();
}

void ShmFabric::idle() {
  spinning_ = false;
  // Spinning is fastest while every rank has a core; when they share, the peer we wait for may
  // need this core to make the progress we wait on.
  if (oversubscribed_) {
    running_on(local_).store(0, std::memory_order_relaxed);
    sched_yield();
    publish_cpu();
  } else if (++idle_polls_ % 1024 == 0) {
    sched_yield();
  } else {
    spin_pause();
  }
}

bool ShmFabric::wait_on_running(int from, std::uint64_t& began) {
  spinning_ = false;
  if (spin_ticks_ == 0 || cpu_ == 0) return false;  // cores not shared, or our CPU unknown
  const std::uint64_t now = ticks();
  if (began == 0) began = now;
  if (now - began >= spin_ticks_) return false;
  // A peer on our CPU is not running while we are.
  const std::uint32_t theirs = running_on(from).load(std::memory_order_relaxed);
  if (theirs == 0 || theirs == cpu_) return false;
  spinning_ = waits_ > 0;  // a spin outside any Wait must not outlive its poll
  spin_pause();
  return true;
}

}  // namespace ccl::detail
