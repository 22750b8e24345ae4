// Host-only test kernels for the race checker of checked launches (docs/kernels.md, "Checked
// launches"): shared-memory code right and wrong, on each host path (thread loop, block kernel,
// fibers). Included by test_kernels.cpp.
#pragma once
#include <cstdint>

#include "loom/atomic.hpp"
#include "loom/block_ctx.hpp"
#include "loom/def/kernel.hpp"

namespace loom::test_kernels {

// out[block] = the sum of the block's slice of x, as a tree in shared memory (blockDim.x a power
// of two). skip_first: the barrier after the loads is missing (thread 0 reads s[n/2] before
// thread n/2 writes it).
struct TreeSum {
  static constexpr bool uses_syncthreads = true;
  void operator()(const ThreadCtx& t, View<const float> x, View<float> out,
                  std::int32_t skip_first) const {
    const View<float> s = t.shared_array<float>(t.blockDim.x);
    const unsigned i = t.threadIdx.x;
    s(i) = x(t.grid());
    if (!skip_first) t.syncthreads();
    for (unsigned stride = t.blockDim.x / 2; stride > 0; stride /= 2) {
      if (i < stride) s(i) += s(i + stride);
      t.syncthreads();
    }
    if (i == 0) out(t.blockIdx.x) = s(0);
  }
};

// out[i] = x[(i + shift) % n] through shared memory, n = blockDim.x, with between the store and
// the load: sync 1, a barrier; 2, syncwarp(); 0, nothing.
struct SharedShift {
  static constexpr bool uses_syncthreads = true;
  void operator()(const ThreadCtx& t, View<const float> x, View<float> out, std::int32_t shift,
                  std::int32_t sync) const {
    const View<float> s = t.shared_array<float>(t.blockDim.x);
    const unsigned i = t.threadIdx.x, n = t.blockDim.x;
    s(i) = x(i);
    if (sync == 1) t.syncthreads();
    if (sync == 2) t.syncwarp();
    out(i) = s((i + static_cast<unsigned>(shift)) % n);
  }
};

// No barrier (the thread loop on cpu and parallel): what 0, every thread reads s[i] that nothing
// wrote; 1, every thread writes s[0]; 2, each thread writes then reads its own s[i] (no race).
struct SharedNoBarrier {
  void operator()(const ThreadCtx& t, View<float> out, std::int32_t what) const {
    const View<float> s = t.shared_array<float>(t.blockDim.x);
    const unsigned i = t.threadIdx.x;
    if (what == 0) {
      out(i) = s(i);
    } else if (what == 1) {
      s(0) = static_cast<float>(i);
    } else {
      s(i) = static_cast<float>(i);
      out(i) = s(i) + 1.0f;
    }
  }
};

// out[k] = how many threads have i % 4 == k, counted with atomics on shared memory; init 0: the
// counters are never zeroed (the first atomic reads memory nothing wrote).
struct SharedCounters {
  static constexpr bool uses_syncthreads = true;
  void operator()(const ThreadCtx& t, View<std::int32_t> out, std::int32_t init) const {
    const View<std::int32_t> s = t.shared_array<std::int32_t>(4);
    const unsigned i = t.threadIdx.x;
    if (init && i < 4) s(i) = 0;
    t.syncthreads();
    atomic_add(&s(i % 4), 1);
    t.syncthreads();
    if (i < 4) out(i) = s(i);
  }
};

// A block kernel: out[i] = s[i] + s[i + 1 (mod n)] after each thread stored s[i] = i; racy: in the
// same phase as the stores (thread 0 reads s[1] before thread 1 writes it).
struct BlockNeighbours {
  void operator()(const BlockCtx& b, View<float> out, std::int32_t racy) const {
    const View<float> s = b.shared_array<float>(b.blockDim.x);
    const auto n = static_cast<unsigned>(b.blockDim.x);
    const auto sum = [&](const ThreadCtx& t) {
      const unsigned i = t.threadIdx.x;
      out(i) = s(i) + s((i + 1) % n);
    };
    b.each_thread([&](const ThreadCtx& t) {
      s(t.threadIdx.x) = static_cast<float>(t.threadIdx.x);
      if (racy) sum(t);
    });
    if (!racy) b.each_thread(sum);
  }
};

inline void register_shared_races(loom::Registrar& reg) {
  using loom::def::kernel;
  kernel<TreeSum>(reg, "t_tree_sum", "a block's sum as a tree in shared memory");
  kernel<SharedShift>(reg, "t_shared_shift", "out[i] = x[(i + shift) % n] through shared memory");
  kernel<SharedNoBarrier>(reg, "t_shared_no_barrier", "shared memory without barriers");
  kernel<SharedCounters>(reg, "t_shared_counters", "counts with atomics on shared memory");
  kernel<BlockNeighbours>(reg, "t_block_neighbours", "block kernel: neighbours in shared memory");
}

}  // namespace loom::test_kernels
