// Kernels that break the execution model on purpose, built with bounds checks (LOOM_BOUNDS_CHECK=1)
// so that the catalogue can provoke E-INDEX-VIEW, E-KERNEL-SYNC-UNDECLARED and E-KERNEL-BARRIER
// on the cpu target (docs/errors.md).
#include "loom/def/kernel.hpp"
#include "loom/plugin.hpp"

namespace {

// out[i] = x[i + 1]: the last thread reads x[n].
struct ReadPastEnd {
  void operator()(const loom::ThreadCtx& t, loom::View<const float> x,
                  loom::View<float> out) const {
    const std::int64_t i = t.grid();
    if (i < out.size()) out(i) = x(i + 1);
  }
};
// Calls syncthreads() without declaring uses_syncthreads.
struct SyncUndeclared {
  void operator()(const loom::ThreadCtx& t, loom::View<float>) const { t.syncthreads(); }
};
// Thread 0 of every block returns before the barrier the others wait at.
struct BarrierDivergent {
  static constexpr bool uses_syncthreads = true;
  void operator()(const loom::ThreadCtx& t, loom::View<float>) const {
    if (t.threadIdx.x == 0) return;
    t.syncthreads();
  }
};

void register_all(loom::Registrar& reg) {
  loom::def::kernel<ReadPastEnd>(reg, "cat_read_past_end", "reads x[n]");
  loom::def::kernel<SyncUndeclared>(reg, "cat_sync_undeclared", "undeclared syncthreads");
  loom::def::kernel<BarrierDivergent>(reg, "cat_barrier_divergent", "a barrier thread 0 skips");
}

}  // namespace

LOOM_PLUGIN((loom::PluginInfo{loom::kAbiVersion, "cat_kernels", loom::Family::host, &register_all,
                              nullptr}))
