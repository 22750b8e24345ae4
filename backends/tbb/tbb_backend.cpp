// The TBB backend (target "parallel"): splits each call's iteration space into contiguous chunks
// and runs them as tasks in a task arena of num_threads() threads. docs/parallel.md describes
// the splitting, the grain, determinism, threads and nesting.
#include <oneapi/tbb/info.h>
#include <oneapi/tbb/task.h>

#include <algorithm>
#include <memory>
#include <mutex>
#include <string>

#include "at_split.hpp"
#include "chunking.hpp"
#include "executor.hpp"
#include "loom/plugin.hpp"
#include "reduce_split.hpp"
#include "scan_split.hpp"

namespace loom::backend::tbb_backend {

Pool::Pool(int n) : threads(n), arena(n) {
  // TBB starts default_concurrency() - 1 workers; asking for more threads than that needs a
  // process-wide allowance (it only raises the limit: a lower one set by the user still wins).
  if (n > tbb::info::default_concurrency()) {
    control = std::make_unique<tbb::global_control>(tbb::global_control::max_allowed_parallelism,
                                                    static_cast<std::size_t>(n));
  }
  arena.initialize();
}

namespace {

// Nesting: a call made while this thread runs a TBB task (the body of a user's parallel_for or
// task_group, or a loom op that calls loom from inside one of our own chunks) runs serially on
// the calling thread. The enclosing region already keeps the cores busy, so splitting again
// would only oversubscribe; and entering our arena from a worker of another arena would make the
// callers queue for its slots, one call at a time. A reduction is still cut into the same fixed
// chunks, so its bits do not change.
bool inside_parallel_region() { return tbb::task::current_context() != nullptr; }

class TbbBackend final : public Backend {
 public:
  TbbBackend() : pool_(std::make_shared<Pool>(tbb::info::default_concurrency())) {}

  std::string name() const override { return "tbb"; }
  std::string target() const override { return "parallel"; }
  Family family() const override { return Family::host; }
  Availability availability() const override { return {}; }
  std::string describe() const override {
    return "host, " + std::to_string(num_threads()) + " threads (TBB)";
  }
  int num_threads() const override { return pool()->threads; }
  void set_num_threads(int n) override {
    if (n <= 0) n = tbb::info::default_concurrency();  // 0: all cores (the core checked n)
    if (n == num_threads()) return;
    auto pool = std::make_shared<Pool>(n);
    {
      std::lock_guard lock(mutex_);
      pool_.swap(pool);
    }
    // `pool` now holds the old arena: it goes when this and the calls in flight on it let go.
  }

  void run_elementwise(const ElementwiseCall& c, int) override {
    const std::int64_t n = c.iter.size();
    const Executor ex = executor(n);
    if (!ex.parallel()) return run_elementwise_range(c, 0, n);
    const Chunks ch = balanced_chunks(n, 1, ex.threads(), kAlign);
    ex.run(ch.count(), [&](std::int64_t i) { run_elementwise_range(c, ch.begin(i), ch.end(i)); });
  }

  void run_gufunc(const GufuncCall& c, int) override {
    const std::int64_t n = c.outer.size();
    std::int64_t work = 1;  // per instance: the product of the core dims
    for (std::int64_t d : c.core_dims) work *= std::max<std::int64_t>(d, 1);
    const Executor ex = executor(n < 2 ? 0 : n * work);
    if (!ex.parallel()) return run_gufunc_range(c, 0, n);
    const Chunks ch = balanced_chunks(n, work, ex.threads());
    ex.run(ch.count(), [&](std::int64_t i) { run_gufunc_range(c, ch.begin(i), ch.end(i)); });
  }

  void run_reduce(const ReduceCall& c, int) override {
    run_reduce_split(c, executor(c.iter.size()));
  }

  void run_scan(const ScanCall& c, int) override {
    run_scan_split(c, executor(shape_size(c.outer_shape) * c.n));
  }

  void run_at(const AtCall& c, int) override {
    run_at_split(c, executor(c.m * std::max<std::int64_t>(shape_size(c.rest), 1)));
  }

  std::pair<std::int64_t, std::int64_t> index_range(const std::int64_t* idx, std::int64_t m, int,
                                                    void*) override {
    return at_index_range(idx, m, executor(m));
  }

  // Blocks run concurrently, kChunksPerThread runs of blocks per thread; a block's threads stay
  // on one OS thread (as fibers when the kernel uses syncthreads), so its shared memory needs no
  // locking. What a thread does is unknown (grid-stride threads loop), so any grid of two or
  // more blocks is split.
  void run_kernel(KernelCall& c, int) override {
    const BlockRange r = block_range(c);
    const std::int64_t nblocks = r.end - r.begin;
    const Executor ex = executor(nblocks >= 2 ? kSerialCutoff : 0);
    if (!ex.parallel()) return c.impl->host(c, r.begin, r.end, c.impl->data);
    const Chunks ch{nblocks, ceil_div(nblocks, ex.threads() * kChunksPerThread)};
    ex.run(ch.count(), [&](std::int64_t i) {
      c.impl->host(c, r.begin + ch.begin(i), r.begin + ch.end(i), c.impl->data);
    });
  }

 private:
  std::shared_ptr<Pool> pool() const {
    std::lock_guard lock(mutex_);
    return pool_;
  }
  // Tasks in the arena for a call with this much work, else the calling thread.
  Executor executor(std::int64_t work) const {
    if (work < kSerialCutoff || inside_parallel_region()) return Executor();
    auto p = pool();
    if (p->threads == 1) return Executor();
    return Executor(std::move(p));
  }

  mutable std::mutex mutex_;
  std::shared_ptr<Pool> pool_;
};

}  // namespace

Backend* make_tbb() { return new TbbBackend(); }

}  // namespace loom::backend::tbb_backend

LOOM_PLUGIN((loom::PluginInfo{loom::kAbiVersion, "tbb", loom::Family::host, nullptr,
                              &loom::backend::tbb_backend::make_tbb}))
