// The host kernel watchdog (internal): notes on stderr when a thread of a fiber block has run for
// LOOM_KERNEL_WATCHDOG seconds (default 10, 0: off) without reaching syncthreads() or returning,
// the sign of a spin-wait on another thread of its block, which never ends on host targets
// (docs/kernels.md, "Spin-waits"). Costs a few relaxed stores a fiber switch.
#pragma once
#include <atomic>
#include <chrono>
#include <cstdint>

#include "loom/thread_ctx.hpp"

namespace loom::detail {

// What one OS thread running fiber blocks shows the watchdog.
struct BlockWatch {
  std::atomic<std::uint64_t> steps{0};  // fiber switches so far: progress
  std::atomic<std::int64_t> rank{0};    // the thread of the block running now
  std::atomic<unsigned> bx{0}, by{0}, bz{0};
  std::atomic<bool> active{false};
  // The watchdog's own, under its mutex.
  std::uint64_t seen = 0;
  std::chrono::steady_clock::time_point since{};
  bool noted = false;
};

// Reads LOOM_KERNEL_WATCHDOG (at each host launch of a syncthreads kernel, so that a change
// counts) and starts the watchdog's thread the first time it is on. ValueError for a value that
// is not a number of seconds.
void watchdog_configure();

// This OS thread's watch, or null when the watchdog is off.
BlockWatch* this_thread_watch();

// One block's run: marks the thread active and counts each switch to a fiber.
class WatchScope {
 public:
  explicit WatchScope(const Dim3& block) : w_(this_thread_watch()) {
    if (!w_) return;
    w_->bx.store(block.x, std::memory_order_relaxed);
    w_->by.store(block.y, std::memory_order_relaxed);
    w_->bz.store(block.z, std::memory_order_relaxed);
    w_->active.store(true, std::memory_order_relaxed);
  }
  ~WatchScope() {
    if (w_) w_->active.store(false, std::memory_order_relaxed);
  }
  WatchScope(const WatchScope&) = delete;
  WatchScope& operator=(const WatchScope&) = delete;
  void step(std::int64_t rank) {
    if (!w_) return;
    w_->rank.store(rank, std::memory_order_relaxed);
    w_->steps.store(w_->steps.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
  }

 private:
  BlockWatch* w_;
};

}  // namespace loom::detail
