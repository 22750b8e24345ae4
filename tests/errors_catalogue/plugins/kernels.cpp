// Kernels that break the execution model on purpose, built with bounds checks (LOOM_BOUNDS_CHECK=1)
// so that the catalogue can provoke E-INDEX-VIEW, E-KERNEL-SYNC-UNDECLARED, E-KERNEL-BARRIER, the
// E-KERNEL-WARP-* errors and (checked launches) E-KERNEL-SHARED-* on the cpu target
// (docs/errors.md).
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

// Calls syncwarp() without declaring uses_syncthreads.
struct WarpUndeclared {
  void operator()(const loom::ThreadCtx& t, loom::View<float>) const { t.syncwarp(); }
};
// By `what`, a warp function used as CUDA leaves undefined: 0, lane 1 returns before the
// syncwarp() the others wait in; 1, syncwarp(0x1) called by lane 1; 2, lane 1 calls ballot_sync
// where the others call syncwarp (the same mask).
struct WarpMisuse {
  static constexpr bool uses_syncthreads = true;
  void operator()(const loom::ThreadCtx& t, loom::View<float>, std::int32_t what) const {
    const int lane = t.laneid();
    if (what == 0) {
      if (lane == 1) return;
      t.syncwarp();
    } else if (what == 1) {
      t.syncwarp(lane == 1 ? 0x1u : loom::kFullMask);
    } else if (lane == 1) {
      (void)t.ballot_sync(loom::kFullMask, true);
    } else {
      t.syncwarp();
    }
  }
};

// A tree sum in shared memory without the barrier after the loads: thread 0 reads s[n/2] before
// thread n/2 stores it (a race the checked host launch names).
struct TreeSumRacy {
  static constexpr bool uses_syncthreads = true;
  void operator()(const loom::ThreadCtx& t, loom::View<const float> x,
                  loom::View<float> out) const {
    const loom::View<float> s = t.shared_array<float>(t.blockDim.x);
    const unsigned i = t.threadIdx.x;
    s(i) = x(t.grid());
    for (unsigned stride = t.blockDim.x / 2; stride > 0; stride /= 2) {
      if (i < stride) s(i) += s(i + stride);
      t.syncthreads();
    }
    if (i == 0) out(t.blockIdx.x) = s(0);
  }
};
// Reads shared memory no thread wrote.
struct SharedUninit {
  void operator()(const loom::ThreadCtx& t, loom::View<float> out) const {
    const loom::View<float> s = t.shared_array<float>(t.blockDim.x);
    out(t.threadIdx.x) = s(t.threadIdx.x);
  }
};

void register_all(loom::Registrar& reg) {
  loom::def::kernel<ReadPastEnd>(reg, "cat_read_past_end", "reads x[n]");
  loom::def::kernel<SyncUndeclared>(reg, "cat_sync_undeclared", "undeclared syncthreads");
  loom::def::kernel<BarrierDivergent>(reg, "cat_barrier_divergent", "a barrier thread 0 skips");
  loom::def::kernel<WarpUndeclared>(reg, "cat_warp_undeclared", "undeclared syncwarp");
  loom::def::kernel<WarpMisuse>(reg, "cat_warp_misuse", "warp functions misused");
  loom::def::kernel<TreeSumRacy>(reg, "cat_tree_sum_racy", "a tree sum missing a barrier");
  loom::def::kernel<SharedUninit>(reg, "cat_shared_uninit", "reads unwritten shared memory");
}

}  // namespace

LOOM_PLUGIN((loom::PluginInfo{loom::kAbiVersion, "cat_kernels", loom::Family::host, &register_all,
                              nullptr}))
