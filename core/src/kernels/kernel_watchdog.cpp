// The host kernel watchdog: one background thread, started with the first fiber block, that
// samples every OS thread's BlockWatch and notes a block that made no progress for the limit.
#include "kernels/kernel_watchdog.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "loom/error.hpp"

namespace loom::detail {

namespace {

struct Watchdog {
  std::mutex m;
  std::vector<BlockWatch*> watches;
  std::atomic<double> limit_s{0};  // 0: off
  std::once_flag started;
};

// Made once, never destroyed: the detached thread may still sample while the process exits.
Watchdog& watchdog() {
  static Watchdog* d = new Watchdog;
  return *d;
}

void watch_loop(Watchdog* d) {
  using clock = std::chrono::steady_clock;
  for (;;) {
    const double limit_s = d->limit_s.load(std::memory_order_relaxed);
    std::this_thread::sleep_for(
        std::chrono::duration<double>(limit_s > 0 ? std::min(1.0, limit_s / 4) : 1.0));
    std::lock_guard lock(d->m);
    const auto now = clock::now();
    for (BlockWatch* w : d->watches) {
      const std::uint64_t steps = w->steps.load(std::memory_order_relaxed);
      if (!w->active.load(std::memory_order_relaxed) || steps != w->seen) {
        w->seen = steps;
        w->since = now;
        w->noted = false;
        continue;
      }
      if (limit_s <= 0 || w->noted || now - w->since < std::chrono::duration<double>(limit_s)) {
        continue;
      }
      w->noted = true;  // once per stall
      std::fprintf(stderr,
                   "loom: note: kernel thread %lld of block (%u, %u, %u) on a host target has "
                   "run for %g s without reaching syncthreads() or returning. Host targets run "
                   "the threads of a block one at a time and switch only at syncthreads(): a "
                   "thread that waits for a flag set by another thread of its block never ends "
                   "there (docs/kernels.md, \"Spin-waits\"). LOOM_KERNEL_WATCHDOG=0 turns this "
                   "note off.\n",
                   static_cast<long long>(w->rank.load(std::memory_order_relaxed)),
                   w->bx.load(std::memory_order_relaxed), w->by.load(std::memory_order_relaxed),
                   w->bz.load(std::memory_order_relaxed), limit_s);
    }
  }
}

struct Registration {
  Watchdog* d;
  BlockWatch w;
  explicit Registration(Watchdog* dog) : d(dog) {
    std::lock_guard lock(d->m);
    d->watches.push_back(&w);
  }
  ~Registration() {
    std::lock_guard lock(d->m);
    d->watches.erase(std::find(d->watches.begin(), d->watches.end(), &w));
  }
};

}  // namespace

void watchdog_configure() {
  double v = 10;  // seconds, when the variable is not set
  if (const char* s = std::getenv("LOOM_KERNEL_WATCHDOG"); s && *s) {
    char* end = nullptr;
    errno = 0;
    v = std::strtod(s, &end);
    if (end == s || *end != 0 || errno == ERANGE || !(v >= 0 && v <= 1e6)) {
      throw ValueError(std::string("LOOM_KERNEL_WATCHDOG='") + s +
                       "' is not a number of seconds from 0 (off) to 1e6");
    }
  }
  Watchdog& d = watchdog();
  d.limit_s.store(v, std::memory_order_relaxed);
  if (v > 0) std::call_once(d.started, [&d] { std::thread(watch_loop, &d).detach(); });
}

BlockWatch* this_thread_watch() {
  Watchdog& d = watchdog();
  if (d.limit_s.load(std::memory_order_relaxed) <= 0) return nullptr;
  thread_local Registration reg(&d);
  return &reg.w;
}

}  // namespace loom::detail
