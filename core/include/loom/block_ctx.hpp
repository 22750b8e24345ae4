// BlockCtx: what a block kernel's call operator gets first instead of a ThreadCtx. A block kernel
// is written as phases separated by barriers:
//
//   b.each_thread([&](const loom::ThreadCtx& t) { ... });  // every thread, then a barrier
//
// On a GPU every thread runs the call operator and each_thread is `f(t); __syncthreads();`. On
// the host the call operator runs once per block and each_thread is a loop over the block's
// threads, which the compiler can inline and vectorize: no fiber switches (docs/kernels.md,
// "Host paths"). So code outside each_thread must be the same for every thread of the block:
// BlockCtx has no threadIdx, and values a thread keeps from one phase to the next live in a
// per_thread<T> (a register on a GPU, one slot per thread on the host).
#pragma once
#include <cstddef>
#include <cstdint>

#include "loom/error.hpp"
#include "loom/hd.hpp"
#include "loom/kernel_host.hpp"
#include "loom/thread_ctx.hpp"

namespace loom {

namespace detail {
// The host loops' hook, called in a handler of the IndexError thread t raised: rethrows it with
// the argument (or shared memory), block and thread named (core/src/ops/kernel.cpp). `call` is the
// KernelCall.
[[noreturn]] void kernel_thread_failed(const void* call, const ThreadCtx& t);
}  // namespace detail

// One T per thread of a block, kept across each_thread phases: `auto acc = b.per_thread<float>();`
// then `acc(t) = ...` in one phase and `acc(t)` in a later one. Uninitialized, like a local.
template <class T>
class PerThread {
 public:
#if defined(__CUDA_ARCH__)
  LOOM_HD T& operator()(const ThreadCtx&) { return one_; }
#else
  // On the host one object serves the whole block when its threads run as a loop (many_), or one
  // thread when they run as fibers (each fiber runs the call operator with its own object).
  T& operator()(const ThreadCtx& t) { return fibers_ ? one_ : many_[t.thread_rank()]; }
#endif

 private:
  friend struct BlockCtx;
  T one_;
#if !defined(__CUDA_ARCH__)
  bool fibers_ = false;
  T many_[1024];  // kMaxThreadsPerBlock
#endif
};

struct BlockCtx {
  Dim3 blockIdx, blockDim, gridDim;

  // Runs f(t) for every thread t of the block, then waits until all have (a barrier).
  template <class F>
  LOOM_HD void each_thread(F&& f) const {
#if defined(__CUDA_ARCH__)
    f(t_);
    __syncthreads();
#else
    if (t_.sync) {  // this fiber is one thread of the block
      f(t_);
      detail::block_sync(t_.sync);
      return;
    }
    // One handler around the whole loop, not one per thread: an exception edge inside the
    // loop body keeps the compiler from vectorizing it. `t` still names the failing thread.
    ThreadCtx t = t_;
    try {
      if (blockDim.y == 1 && blockDim.z == 1) {  // 1-D blocks: one plain loop
        t.threadIdx = Dim3(0, 0, 0);
        for (unsigned x = 0; x < blockDim.x; ++x) {
          t.threadIdx.x = x;
          note_thread(t);
          f(t);
        }
      } else {
        for (unsigned z = 0; z < blockDim.z; ++z) {
          for (unsigned y = 0; y < blockDim.y; ++y) {
            for (unsigned x = 0; x < blockDim.x; ++x) {
              t.threadIdx = Dim3(x, y, z);
              note_thread(t);
              f(t);
            }
          }
        }
      }
    } catch (const IndexError&) {
      detail::kernel_thread_failed(call_, t);
    }
    barrier_passed();
#endif
  }

  // Runs f(t) for the block's first `active` threads (thread_rank() < active: x fastest), then
  // waits until all threads have reached the barrier. A tree's phase, where fewer threads work
  // each round, costs its working threads on the host instead of the whole block.
  template <class F>
  LOOM_HD void each_thread(std::int64_t active, F&& f) const {
#if defined(__CUDA_ARCH__)
    if (t_.thread_rank() < active) f(t_);
    __syncthreads();
#else
    if (t_.sync) {
      if (t_.thread_rank() < active) f(t_);
      detail::block_sync(t_.sync);
      return;
    }
    const std::int64_t n = active < blockDim.count() ? active : blockDim.count();
    ThreadCtx t = t_;
    try {
      if (blockDim.y == 1 && blockDim.z == 1) {
        t.threadIdx = Dim3(0, 0, 0);
        for (std::int64_t x = 0; x < n; ++x) {
          t.threadIdx.x = static_cast<unsigned>(x);
          note_thread(t);
          f(t);
        }
      } else {
        const std::int64_t bx = blockDim.x, by = blockDim.y;
        for (std::int64_t r = 0; r < n; ++r) {
          t.threadIdx = Dim3(static_cast<unsigned>(r % bx), static_cast<unsigned>(r / bx % by),
                             static_cast<unsigned>(r / (bx * by)));
          note_thread(t);
          f(t);
        }
      }
    } catch (const IndexError&) {
      detail::kernel_thread_failed(call_, t);
    }
    barrier_passed();
#endif
  }

  template <class T>
  LOOM_HD PerThread<T> per_thread() const {
    PerThread<T> p;
#if !defined(__CUDA_ARCH__)
    p.fibers_ = t_.sync != nullptr;
#endif
    return p;
  }

  // The block's dynamic shared memory, as ThreadCtx::shared_array.
  template <class T>
  LOOM_HD View<T, 1> shared_array(std::int64_t n, std::size_t byte_offset = 0) const {
    return t_.shared_array<T>(n, byte_offset);
  }
  template <class T>
  LOOM_HD View<T, 2> shared_array(const std::int64_t (&shape)[2],
                                  std::size_t byte_offset = 0) const {
    return t_.shared_array<T>(shape, byte_offset);
  }
  template <class T>
  LOOM_HD View<T, 3> shared_array(const std::int64_t (&shape)[3],
                                  std::size_t byte_offset = 0) const {
    return t_.shared_array<T>(shape, byte_offset);
  }
  // Threads in the block, and in the grid along x (Numba's cuda.gridsize(1)).
  LOOM_HD std::int64_t threads() const { return blockDim.count(); }
  template <int N = 1>
  LOOM_HD auto gridsize() const {
    return t_.gridsize<N>();
  }

  // For the loops that run a block kernel (def/kernel.hpp, def/kernel.cuh): `t` is this block's
  // context (on a GPU, the running thread's; on the host, threadIdx unused, and `sync` set when
  // the block's threads are fibers); `call` names arguments in errors.
  LOOM_HD explicit BlockCtx(const ThreadCtx& t, const void* call = nullptr)
      : blockIdx(t.blockIdx), blockDim(t.blockDim), gridDim(t.gridDim), t_(t), call_(call) {}

 private:
  // A checked launch: the host loops above run a block's threads on one check, so it is told
  // which thread accesses now (a checked View records that thread). Null in the fast loop.
  static void note_thread(const ThreadCtx& t) {
    if (t.check) [[unlikely]] {
      t.check->thread[0] = t.threadIdx.x;
      t.check->thread[1] = t.threadIdx.y;
      t.check->thread[2] = t.threadIdx.z;
    }
  }

  // A checked launch: the loop's barrier, told to the race checker (a thread's accesses before it
  // and another's after it are no race). Fibers tell it at their barrier instead.
  void barrier_passed() const {
    if (t_.check) [[unlikely]] {
      if (t_.check->shadow) detail::shared_check_barrier(t_.check->shadow);
    }
  }

  ThreadCtx t_;
  const void* call_;
};

}  // namespace loom
