// Where the chunks of one call run: as TBB tasks in the backend's task arena, or one after the
// other on the calling thread. Callers cut the work the same way for both, so a reduction's bits
// never depend on which one runs it.
#pragma once
#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/global_control.h>
#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/partitioner.h>
#include <oneapi/tbb/task_arena.h>

#include <cstdint>
#include <memory>

// Debian's libtbb is not built for TSan, so TSan cannot see that TBB orders the caller's accesses
// before the spawn and after the wait with the chunks' accesses: every element a worker touches
// would be a (suppressed, and slow to suppress) report. In a TSan build, run() states that order
// itself (tests/concurrency/tsan.supp).
#if defined(__SANITIZE_THREAD__)
extern "C" void __tsan_acquire(void* addr);
extern "C" void __tsan_release(void* addr);
#define LOOM_TSAN_ACQUIRE(p) __tsan_acquire(p)
#define LOOM_TSAN_RELEASE(p) __tsan_release(p)
#else
#define LOOM_TSAN_ACQUIRE(p) ((void)(p))
#define LOOM_TSAN_RELEASE(p) ((void)(p))
#endif

namespace loom::backend::tbb_backend {

// The threads of the backend: an arena of `threads` slots and, when that is more than TBB would
// start by default, a global_control that lets TBB start that many.
struct Pool {
  explicit Pool(int n);
  int threads;
  std::unique_ptr<tbb::global_control> control;
  tbb::task_arena arena;
};

class Executor {
 public:
  Executor() = default;  // runs everything on the calling thread
  explicit Executor(std::shared_ptr<Pool> pool) : pool_(std::move(pool)) {}

  bool parallel() const { return pool_ != nullptr; }
  int threads() const { return pool_ ? pool_->threads : 1; }

  // body(i) for every i in [0, count); each i is one task, run in no particular order.
  template <class F>
  void run(std::int64_t count, F&& body) const {
    if (!pool_ || count < 2) {
      for (std::int64_t i = 0; i < count; ++i) body(i);
      return;
    }
    char spawned = 0, finished = 0;  // TSan's sync objects: only their addresses matter
    LOOM_TSAN_RELEASE(&spawned);
    // isolate: a thread waiting for this call's chunks takes no unrelated task meanwhile (which
    // could delay its return arbitrarily, or re-enter loom from inside our own call).
    // (When the arena's slots are taken, TBB runs this function itself on one of its workers.)
    pool_->arena.execute([&] {
      LOOM_TSAN_ACQUIRE(&spawned);
      tbb::this_task_arena::isolate([&] {
        tbb::parallel_for(
            tbb::blocked_range<std::int64_t>(0, count, 1),
            [&](const tbb::blocked_range<std::int64_t>& r) {
              LOOM_TSAN_ACQUIRE(&spawned);
              for (std::int64_t i = r.begin(); i < r.end(); ++i) body(i);
              LOOM_TSAN_RELEASE(&finished);
            },
            tbb::simple_partitioner());
      });
      LOOM_TSAN_RELEASE(&finished);
    });
    LOOM_TSAN_ACQUIRE(&finished);
  }

 private:
  std::shared_ptr<Pool> pool_;  // keeps the arena alive through a concurrent set_num_threads
};

}  // namespace loom::backend::tbb_backend
