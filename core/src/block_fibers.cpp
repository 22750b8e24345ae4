// The threads of one host block as fibers (Boost.Context) on the calling OS thread, so that
// syncthreads() can suspend a thread until every thread of its block has arrived. Stacks come
// from a per-OS-thread pool with guard pages and are reused from block to block.
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <boost/context/fiber.hpp>
#include <cstddef>
#include <exception>
#include <string>
#include <vector>

#include "kernel_watchdog.hpp"
#include "loom/error.hpp"
#include "loom/kernel_host.hpp"

// AddressSanitizer must be told of every switch between stacks, or it reports false errors on
// fiber stacks; Boost 1.74's fcontext fibers do not tell it, so the switches here do.
#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#define LOOM_ASAN_FIBERS 1
#else
#define LOOM_ASAN_FIBERS 0
#endif

namespace ctx = boost::context;

namespace loom::detail {

struct BlockSync {
  ctx::fiber* scheduler = nullptr;    // the running fiber's way back to run_block_fibers
  bool aborting = false;              // a thread failed: waiting threads unwind instead of going on
  const void* main_bottom = nullptr;  // the scheduler's stack, for ASan
  std::size_t main_size = 0;
};

namespace {

// Thrown inside a waiting thread when its block is abandoned, so that its stack unwinds the
// ordinary way (destructors run) before the fiber ends.
struct BlockAbort {};

// Switch notes for ASan around a switch away from the current stack (to `bottom`/`size`;
// fake == nullptr when the current fiber is ending) and after arriving back.
inline void leaving(void** fake, const void* bottom, std::size_t size) {
#if LOOM_ASAN_FIBERS
  __sanitizer_start_switch_fiber(fake, bottom, size);
#else
  (void)fake, (void)bottom, (void)size;
#endif
}
inline void arrived(void* fake, const void** from_bottom, std::size_t* from_size) {
#if LOOM_ASAN_FIBERS
  __sanitizer_finish_switch_fiber(fake, from_bottom, from_size);
#else
  (void)fake, (void)from_bottom, (void)from_size;
#endif
}

}  // namespace

void block_sync(BlockSync* s) {
  ctx::fiber* back = s->scheduler;
  void* fake = nullptr;
  leaving(&fake, s->main_bottom, s->main_size);
  *back = std::move(*back).resume();  // returns when the scheduler resumes this thread
  arrived(fake, &s->main_bottom, &s->main_size);
  s->scheduler = back;
  if (s->aborting) throw BlockAbort{};
}

namespace {

// Below each stack: PROT_NONE pages (address space only). Plugins built with loom_add_plugin probe
// every page of a frame (-fstack-clash-protection), so one page would do for them; 64 KiB also
// stops a frame up to that size in a plugin built without the flag (docs/kernels.md).
constexpr std::size_t kGuardBytes = 64 * 1024;

std::size_t page_size() { return static_cast<std::size_t>(sysconf(_SC_PAGESIZE)); }

// Stacks of one size with a guard below each, kept for the life of the OS thread; a launch
// asking for another size maps them again.
class StackPool {
 public:
  ~StackPool() { release(); }
  // Stack i (0-based) of this OS thread, of `bytes` (a multiple of the page), made on first use.
  ctx::stack_context get(std::size_t i, std::size_t bytes) {
    if (bytes != bytes_) {
      release();
      bytes_ = bytes;
    }
    while (stacks_.size() <= i) {
      void* p = mmap(nullptr, total(), PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
      if (p == MAP_FAILED) {
        throw KernelError("could not map a " + std::to_string(bytes_) +
                          "-byte stack for kernel thread " + std::to_string(i) +
                          " of a block (host targets run threads that use syncthreads as fibers)");
      }
#if LOOM_ASAN_FIBERS
      // Fibers end without returning from their first frames, so ASan's shadow of an unmapped
      // stack keeps their redzones: clear it for memory that may reuse those addresses.
      __asan_unpoison_memory_region(p, total());
#endif
      if (mprotect(p, guard(), PROT_NONE) != 0) {  // never run without the guard
        munmap(p, total());
        throw KernelError("could not protect the guard below kernel thread " + std::to_string(i) +
                          "'s fiber stack");
      }
      stacks_.push_back(p);
    }
    ctx::stack_context sc;
    sc.size = bytes_;
    sc.sp = static_cast<char*>(stacks_[i]) + total();
    return sc;
  }

 private:
  static std::size_t guard() { return std::max(kGuardBytes, page_size()); }
  std::size_t total() const { return bytes_ + guard(); }
  void release() {
    for (void* p : stacks_) munmap(p, total());
    stacks_.clear();
  }
  std::size_t bytes_ = 0;
  std::vector<void*> stacks_;
};

// The pool owns the memory: a finished fiber gives nothing back.
struct PooledStack {
  ctx::stack_context allocate() { return {}; }
  void deallocate(ctx::stack_context&) noexcept {}
};

}  // namespace

void run_block_fibers(std::int64_t nthreads, ThreadBody body, void* arg, const Dim3& block,
                      std::size_t stack_bytes) {
  thread_local StackPool pool;
  // The core checked the launch's value; round up to whole pages (mmap's unit).
  const std::size_t pg = page_size();
  stack_bytes = (std::max(stack_bytes, kMinFiberStack) + pg - 1) / pg * pg;
  WatchScope watch(block);
  BlockSync sync;
  std::exception_ptr error;
  std::vector<ctx::fiber> fibers;
  std::vector<ctx::stack_context> stacks;
  fibers.reserve(static_cast<std::size_t>(nthreads));
  for (std::int64_t r = 0; r < nthreads; ++r) {
    ctx::stack_context sc = pool.get(static_cast<std::size_t>(r), stack_bytes);
    stacks.push_back(sc);
    fibers.emplace_back(std::allocator_arg, ctx::preallocated(sc.sp, sc.size, sc), PooledStack{},
                        [&, r](ctx::fiber&& scheduler) {
                          arrived(nullptr, &sync.main_bottom, &sync.main_size);
                          sync.scheduler = &scheduler;
                          try {
                            if (!sync.aborting) body(arg, r, &sync);  // unstarted: never run
                          } catch (const ctx::detail::forced_unwind&) {
                            throw;  // the fiber is being destroyed: let Boost unwind it
                          } catch (const BlockAbort&) {
                            // the block was abandoned while this thread waited
                          } catch (...) {
                            if (!error) error = std::current_exception();
                          }
                          leaving(nullptr, sync.main_bottom, sync.main_size);
                          return std::move(scheduler);
                        });
  }
  // Runs thread r until it waits at a barrier or ends.
  auto step = [&](std::size_t r) {
    watch.step(static_cast<std::int64_t>(r));
    void* fake = nullptr;
    const auto& sc = stacks[r];
    leaving(&fake, static_cast<char*>(sc.sp) - sc.size, sc.size);
    fibers[r] = std::move(fibers[r]).resume();
    arrived(fake, nullptr, nullptr);
  };
  // Rounds: every live thread runs to its next barrier or its end. A round where some threads
  // ended while others wait is a barrier not every thread reaches (a hang on a GPU).
  std::int64_t finished = 0;
  while (finished < nthreads) {
    for (std::size_t r = 0; r < fibers.size(); ++r) {
      if (!fibers[r]) continue;
      step(r);
      if (!fibers[r]) ++finished;
      if (error) break;
    }
    if (error) break;
    if (finished > 0 && finished < nthreads) {
      error = std::make_exception_ptr(KernelError(
          "syncthreads() was not reached by every thread of block (" + std::to_string(block.x) +
          ", " + std::to_string(block.y) + ", " + std::to_string(block.z) +
          "): " + std::to_string(finished) + " of " + std::to_string(nthreads) +
          " threads returned while the others wait at a barrier (on a GPU this hangs or "
          "corrupts results); make every thread of a block call it the same number of times"));
      break;
    }
  }
  // After an error, threads still waiting unwind their stacks (BlockAbort) and end; threads not
  // started yet end without running the kernel.
  sync.aborting = true;
  for (std::size_t r = 0; r < fibers.size(); ++r) {
    if (fibers[r]) step(r);
  }
  if (error) std::rethrow_exception(error);
}

}  // namespace loom::detail
