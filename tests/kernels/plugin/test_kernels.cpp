// The test kernels' host half (libloom_test_kernels.so), built with LOOM_BOUNDS_CHECK=1 so that
// every View index is checked even in Release builds. Besides the common table it registers the
// kernels that break the execution model on purpose: they run only on host targets, where loom
// reports what a GPU would hang on or corrupt.
#include "loom/block_ctx.hpp"
#include "loom/def/gufunc.hpp"
#include "loom/def/kernel.hpp"
#include "loom/plugin.hpp"
#include "shared_races.hpp"
#include "table.hpp"

#if !LOOM_BOUNDS_CHECK
#error "the test kernels' host half must be built with LOOM_BOUNDS_CHECK=1"
#endif

namespace loom::test_kernels {
namespace {

// Calls syncthreads() without declaring uses_syncthreads: a KernelError on host targets.
struct SyncUndeclared {
  void operator()(const ThreadCtx& t, View<std::int32_t> out) const {
    const std::int64_t i = t.grid();
    if (i < out.size()) out(i) = 1;
    t.syncthreads();
  }
};

// Thread 0 of block `bad_block` returns before the barrier the others wait at.
struct BarrierDivergent {
  static constexpr bool uses_syncthreads = true;
  void operator()(const ThreadCtx& t, View<std::int32_t> out, std::int32_t bad_block) const {
    if (t.blockIdx.x == static_cast<unsigned>(bad_block) && t.threadIdx.x == 0) return;
    t.syncthreads();
    const std::int64_t i = t.grid();
    if (i < out.size()) out(i) = 1;
  }
};

// out[i] = x[i + 1]: the last thread reads x[n].
struct ReadPastEnd {
  void operator()(const ThreadCtx& t, View<const float> x, View<float> out) const {
    const std::int64_t i = t.grid();
    if (i < out.size()) out(i) = x(i + 1);
  }
};

// The same read past the end in a kernel whose threads run as fibers (with a barrier first).
struct ReadPastEndSync {
  static constexpr bool uses_syncthreads = true;
  void operator()(const ThreadCtx& t, View<const float> x, View<float> out) const {
    t.syncthreads();
    const std::int64_t i = t.grid();
    if (i < out.size()) out(i) = x(i + 1);
    t.syncthreads();
  }
};

// Reads x[0, ncols]: out of bounds on axis 1 of a 2-d view.
struct ReadPastRow {
  void operator()(const ThreadCtx&, View<const float, 2> x, View<float> out) const {
    out(0) = x(0, x.size(1));
  }
};

// A block kernel whose thread 3 of each block writes one past its block's slice of out: in the
// last block, out[n]. Then every thread reads element blockDim.x of the shared array (one past).
struct WritePastEndBlock {
  void operator()(const BlockCtx& b, View<float> out, std::int32_t read_shared) const {
    b.each_thread([&](const ThreadCtx& t) {
      const std::int64_t i = t.grid();
      out(t.threadIdx.x == 3 ? i + 1 : i) = 1.0f;
    });
    if (read_shared == 0) return;
    const View<float> s = b.shared_array<float>(b.blockDim.x + 1);
    const View<float> first = b.shared_array<float>(b.blockDim.x);
    b.each_thread([&](const ThreadCtx& t) { s(t.threadIdx.x) = first(t.threadIdx.x + 1); });
  }
};

// Calls shfl_sync without declaring uses_syncthreads: a KernelError on every host path.
struct WarpUndeclared {
  void operator()(const ThreadCtx& t, View<std::int32_t> out) const {
    const std::int64_t i = t.grid();
    const std::int32_t v = t.shfl_sync(kFullMask, static_cast<std::int32_t>(i), 0);
    if (i < out.size()) out(i) = v;
  }
};

// A block kernel calling syncwarp() in a phase: no fibers on its own path, and refused under
// LaunchConfig::host_fibers too, so that both host paths agree.
struct WarpInBlockKernel {
  void operator()(const BlockCtx& b, View<std::int32_t> out) const {
    b.each_thread([&](const ThreadCtx& t) {
      t.syncwarp();
      if (t.grid() < out.size()) out(t.grid()) = 1;
    });
  }
};

// Warp functions used as CUDA leaves undefined, by `what`, in warp 1 of block 1 (lane 3 of it
// does the odd thing; a 1-d launch of at least 64 threads a block and 2 blocks). The other warps
// call syncwarp() and write out[i] = 1.
//   0: lane 3 returns, the others call syncwarp()
//   1: lane 3 waits at syncthreads(), the others call syncwarp() first
//   2: lane 3 calls syncwarp with a mask that does not name it
//   3: every lane calls syncwarp() (a full mask): an error when the block has a partial warp
//   4: lane 3 calls ballot_sync, the others syncwarp (same mask)
//   5: lane 3 calls shfl_sync with width 12
//   6: lanes 0 to 2 call syncwarp(0x0000000f), lane 3 and the others syncwarp()
//   7: lane 3 shuffles a double, the others an int32
struct WarpMisuse {
  static constexpr bool uses_syncthreads = true;
  void operator()(const ThreadCtx& t, View<std::int32_t> out, std::int32_t what) const {
    const bool odd_warp = t.blockIdx.x == 1 && t.thread_rank() / kWarpSize == 1;
    const int lane = t.laneid();
    const bool odd = odd_warp && lane == 3;
    if (!odd_warp || what == 3) {
      t.syncwarp();
    } else if (what == 0) {
      if (odd) return;
      t.syncwarp();
    } else if (what == 1) {
      if (odd) t.syncthreads();
      t.syncwarp();
      if (!odd) t.syncthreads();
    } else if (what == 2) {
      t.syncwarp(odd ? ~(1u << 3) : kFullMask);
    } else if (what == 4) {
      if (odd) {
        (void)t.ballot_sync(kFullMask, true);
      } else {
        t.syncwarp();
      }
    } else if (what == 5) {
      (void)t.shfl_sync(kFullMask, lane, 0, odd ? 12 : kWarpSize);
    } else if (what == 6) {
      t.syncwarp(lane < 4 && !odd ? 0xfu : kFullMask);
    } else if (what == 7) {
      if (odd) {
        (void)t.shfl_sync(kFullMask, 1.0, 0);
      } else {
        (void)t.shfl_sync(kFullMask, lane, 0);
      }
    }
    const std::int64_t i = t.grid();
    if (i < out.size()) out(i) = 1;
  }
};

// A kernel with no CUDA half: launching it on cuda is a LookupError.
struct HostOnly {
  void operator()(const ThreadCtx& t, View<std::int32_t> out) const {
    const std::int64_t i = t.grid();
    if (i < out.size()) out(i) = 1;
  }
};

void register_all(loom::Registrar& reg) {
  register_common(reg);
  register_shared_races(reg);
  using loom::def::kernel;
  kernel<SyncUndeclared>(reg, "t_sync_undeclared", "syncthreads() without uses_syncthreads");
  kernel<BarrierDivergent>(reg, "t_barrier_divergent", "a barrier one thread skips");
  kernel<ReadPastEnd>(reg, "t_read_past_end", "out[i] = x[i + 1]: reads x[n]");
  kernel<ReadPastEndSync>(reg, "t_read_past_end_sync", "t_read_past_end with barriers");
  kernel<ReadPastRow>(reg, "t_read_past_row", "reads x[0, ncols] of a 2-d view");
  kernel<WritePastEndBlock>(reg, "t_write_past_end_block",
                            "block kernel: thread 3 writes out[i + 1]; shared read past the end");
  kernel<HostOnly>(reg, "t_host_only", "out[i] = 1, host targets only");
  kernel<WarpUndeclared>(reg, "t_warp_undeclared", "shfl_sync() without uses_syncthreads");
  kernel<WarpInBlockKernel>(reg, "t_warp_in_block_kernel", "syncwarp() in a block kernel's phase");
  kernel<WarpMisuse>(reg, "t_warp_misuse", "warp functions used as CUDA leaves undefined");
}

}  // namespace
}  // namespace loom::test_kernels

LOOM_PLUGIN((loom::PluginInfo{loom::kAbiVersion, "test_kernels", loom::Family::host,
                              &loom::test_kernels::register_all, nullptr}))
