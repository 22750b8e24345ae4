// ThreadCtx: what a custom kernel's call operator gets first — the CUDA thread coordinates
// (threadIdx, blockIdx, blockDim, gridDim), Numba's grid()/gridsize(), the block's shared memory,
// its barrier and the warp functions. One type for host and device code: on CUDA it is filled from
// the built-ins.
#pragma once
#include <cstddef>
#include <cstdint>

#include "loom/grid_stride.hpp"
#include "loom/hd.hpp"
#include "loom/local_array.hpp"
#include "loom/view.hpp"
#include "loom/warp.hpp"

namespace loom {

struct Dim3 {
  unsigned x = 1, y = 1, z = 1;
  constexpr Dim3() = default;
  // Implicit from one integer so that a launch can say .blocks = 128 (as Numba's [128, 64]).
  LOOM_HD constexpr Dim3(unsigned x_, unsigned y_ = 1, unsigned z_ = 1) : x(x_), y(y_), z(z_) {}
  LOOM_HD constexpr std::int64_t count() const {
    return std::int64_t{x} * std::int64_t{y} * std::int64_t{z};
  }
  friend constexpr bool operator==(const Dim3&, const Dim3&) = default;
};

// grid<2>() / grid<3>() return one of these (usable with structured bindings: auto [i, j] = ...).
struct Idx2 {
  std::int64_t x, y;
};
struct Idx3 {
  std::int64_t x, y, z;
};

namespace detail {
struct BlockSync;                     // a host block's barrier (core/src/kernels/block_sync.hpp)
void block_sync(BlockSync* s);        // suspends the calling thread's fiber until all arrive
[[noreturn]] void sync_undeclared();  // syncthreads() in a kernel that did not declare it
[[noreturn]] void shared_overflow(std::size_t want, std::size_t have);
// shared_array(n) whose byte count is negative or does not fit in a size_t.
[[noreturn]] void shared_size_invalid(std::int64_t n, std::size_t item, std::size_t byte_offset,
                                      std::size_t have);
// shared_array({rows, cols[, depth]}) with a negative extent or a byte count past a size_t.
[[noreturn]] void shared_shape_invalid(const std::int64_t* shape, int ndim, std::size_t item,
                                       std::size_t byte_offset, std::size_t have);
}  // namespace detail

// A fixed-size shared array, declared in a kernel as CUDA's __shared__ is:
//   LOOM_SHARED float tile[32][33];
// Every declaration is an array of its own, shared by the threads of a block. The host keeps one
// per OS thread (a block's threads all run on one), reused from block to block like the dynamic
// buffer: its contents at the start of a block are unspecified on every target.
#if defined(__CUDA_ARCH__)
#define LOOM_SHARED __shared__
#else
#define LOOM_SHARED static thread_local
#endif

struct ThreadCtx {
  Dim3 threadIdx, blockIdx, blockDim, gridDim;
  void* shared_mem = nullptr;  // the block's dynamic shared memory (LaunchConfig::shared_bytes)
  std::size_t shared_bytes = 0;
  detail::BlockSync* sync = nullptr;  // host targets, kernels that declare uses_syncthreads
  // A checked launch: this thread's check, given to the shared-memory Views it makes (view.hpp).
  detail::ViewCheck* check = nullptr;

  // Numba's cuda.grid(n): the thread's absolute index in the grid; int64 for N == 1.
  template <int N = 1>
  LOOM_HD auto grid() const {
    static_assert(N >= 1 && N <= 3, "grid<N>: N is 1, 2 or 3");
    const auto ax = [](unsigned t, unsigned b, unsigned d) {
      return std::int64_t{b} * std::int64_t{d} + std::int64_t{t};
    };
    if constexpr (N == 1) {
      return ax(threadIdx.x, blockIdx.x, blockDim.x);
    } else if constexpr (N == 2) {
      return Idx2{ax(threadIdx.x, blockIdx.x, blockDim.x), ax(threadIdx.y, blockIdx.y, blockDim.y)};
    } else {
      return Idx3{ax(threadIdx.x, blockIdx.x, blockDim.x), ax(threadIdx.y, blockIdx.y, blockDim.y),
                  ax(threadIdx.z, blockIdx.z, blockDim.z)};
    }
  }
  // Numba's cuda.gridsize(n): the number of threads of the grid along each axis.
  template <int N = 1>
  LOOM_HD auto gridsize() const {
    static_assert(N >= 1 && N <= 3, "gridsize<N>: N is 1, 2 or 3");
    const auto ax = [](unsigned b, unsigned d) { return std::int64_t{b} * std::int64_t{d}; };
    if constexpr (N == 1) {
      return ax(gridDim.x, blockDim.x);
    } else if constexpr (N == 2) {
      return Idx2{ax(gridDim.x, blockDim.x), ax(gridDim.y, blockDim.y)};
    } else {
      return Idx3{ax(gridDim.x, blockDim.x), ax(gridDim.y, blockDim.y), ax(gridDim.z, blockDim.z)};
    }
  }
  // The thread's rank in its block, x fastest (CUDA's linear thread order).
  LOOM_HD std::int64_t thread_rank() const {
    return (std::int64_t{threadIdx.z} * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  }

  // The indices [0, n) of a grid-stride loop, this thread's share: `for (std::int64_t i :
  // t.grid_stride(n))`. Every index comes up once across the grid (all of its axes), whatever
  // the grid and n. On the device it is CUDA's loop (on a 1-D grid, from grid() by gridsize()); on
  // the host a contiguous run of indices, so that the loop reads neighbouring elements
  // (loom/grid_stride.hpp). Use it where no element's result depends on which thread handles it;
  // write the loop by hand to keep CUDA's mapping on every target.
  LOOM_HD GridStride grid_stride(std::int64_t n) const {
#if defined(__CUDA_ARCH__)
    // 32-bit products where they cannot overflow (a block has at most 1024 threads; gridDim.y
    // and .z are at most 65535), widened once: a 64-bit multiply is several instructions, and
    // with one element a thread (`.size = n` launches) this start is most of a thread's work.
    const unsigned per_block = blockDim.x * blockDim.y * blockDim.z;
    const unsigned rank = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
    const std::uint64_t block =
        std::uint64_t{blockIdx.z * gridDim.y + blockIdx.y} * gridDim.x + blockIdx.x;
    const std::uint64_t threads = std::uint64_t{gridDim.y * gridDim.z} * gridDim.x * per_block;
    return GridStride::over(n, static_cast<std::int64_t>(block * per_block + rank),
                            static_cast<std::int64_t>(threads));
#else
    const std::int64_t per_block = blockDim.count();
    const std::int64_t block =
        (std::int64_t{blockIdx.z} * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
    std::int64_t threads;
    // A grid of 2^63 threads or more cannot finish; saturating keeps the split well defined.
    // Without a branch, since this runs once a thread.
    std::uint64_t p;
    const bool over = __builtin_mul_overflow(static_cast<std::uint64_t>(gridDim.count()),
                                             static_cast<std::uint64_t>(per_block), &p);
    p |= std::uint64_t{0} - over;       // all ones on overflow
    p |= std::uint64_t{0} - (p >> 63);  // all ones from 2^63 on
    threads = static_cast<std::int64_t>(p & INT64_MAX);
    return GridStride::over(n, block * per_block + thread_rank(), threads);
#endif
  }

  // Every thread of the block waits here until all have arrived (CUDA's __syncthreads). On the
  // host a kernel must declare `static constexpr bool uses_syncthreads = true;` so that its
  // threads run as fibers that can wait; without it this throws KernelError.
  LOOM_HD void syncthreads() const {
#if defined(__CUDA_ARCH__)
    __syncthreads();
#else
    if (!sync) detail::sync_undeclared();
    detail::block_sync(sync);
#endif
  }

  // Warp functions (Numba's cuda.laneid, activemask, syncwarp, shfl_*_sync, ballot/all/any_sync;
  // CUDA's semantics, docs/kernels.md "Warp functions"). A warp is 32 threads of consecutive
  // thread_rank(). On the host every function but laneid() needs the kernel to declare
  // uses_syncthreads (its threads run as fibers that can wait for the rest of their warp);
  // without it they throw KernelError. `mask` names the lanes taking part: the caller's own lane
  // always, and on the host only lanes that call the same function with the same mask.

  // The thread's lane in its warp, 0 to 31.
  LOOM_HD int laneid() const { return static_cast<int>(thread_rank() % kWarpSize); }
  // The lanes of the warp running together here. On the host: the lanes that call activemask()
  // while the warp's other live lanes wait elsewhere or have returned (docs/kernels.md).
  LOOM_HD std::uint32_t activemask() const {
#if defined(__CUDA_ARCH__)
    return __activemask();
#else
    return static_cast<std::uint32_t>(warp(detail::WarpOp::activemask, 0, 0, 0, kWarpSize, 0));
#endif
  }
  // Waits until every lane of mask has called syncwarp(mask) (CUDA's __syncwarp).
  LOOM_HD void syncwarp(std::uint32_t mask = kFullMask) const {
#if defined(__CUDA_ARCH__)
    __syncwarp(mask);
#else
    warp(detail::WarpOp::syncwarp, mask, 0, 0, kWarpSize, 0);
#endif
  }
  // The value of lane src_lane (modulo width) of the caller's width-lane segment of the warp.
  template <class T>
  LOOM_HD T shfl_sync(std::uint32_t mask, T value, int src_lane, int width = kWarpSize) const {
    return shfl<detail::WarpOp::shfl_idx>(mask, value, src_lane, width);
  }
  // The value of lane laneid() - delta, or the caller's own when that is before its segment.
  template <class T>
  LOOM_HD T shfl_up_sync(std::uint32_t mask, T value, unsigned delta, int width = kWarpSize) const {
    return shfl<detail::WarpOp::shfl_up>(mask, value, static_cast<int>(delta), width);
  }
  // The value of lane laneid() + delta, or the caller's own when that is past its segment.
  template <class T>
  LOOM_HD T shfl_down_sync(std::uint32_t mask, T value, unsigned delta,
                           int width = kWarpSize) const {
    return shfl<detail::WarpOp::shfl_down>(mask, value, static_cast<int>(delta), width);
  }
  // The value of lane laneid() ^ lane_mask, or the caller's own when that is past its segment.
  template <class T>
  LOOM_HD T shfl_xor_sync(std::uint32_t mask, T value, int lane_mask, int width = kWarpSize) const {
    return shfl<detail::WarpOp::shfl_xor>(mask, value, lane_mask, width);
  }
  // Bit i set when lane i of mask has pred true (CUDA's __ballot_sync).
  LOOM_HD std::uint32_t ballot_sync(std::uint32_t mask, bool pred) const {
#if defined(__CUDA_ARCH__)
    return __ballot_sync(mask, pred);
#else
    return static_cast<std::uint32_t>(warp(detail::WarpOp::ballot, mask, pred, 0, kWarpSize, 0));
#endif
  }
  // Whether pred is true for every lane of mask (CUDA's __all_sync, as a bool).
  LOOM_HD bool all_sync(std::uint32_t mask, bool pred) const {
#if defined(__CUDA_ARCH__)
    return __all_sync(mask, pred) != 0;
#else
    return warp(detail::WarpOp::all, mask, pred, 0, kWarpSize, 0) != 0;
#endif
  }
  // Whether pred is true for some lane of mask (CUDA's __any_sync, as a bool).
  LOOM_HD bool any_sync(std::uint32_t mask, bool pred) const {
#if defined(__CUDA_ARCH__)
    return __any_sync(mask, pred) != 0;
#else
    return warp(detail::WarpOp::any, mask, pred, 0, kWarpSize, 0) != 0;
#endif
  }

  // n elements of T in the block's shared memory starting at byte_offset (Numba's
  // cuda.shared.array with a size given at launch). The host checks the launch gave enough.
  template <class T>
  LOOM_HD View<T, 1> shared_array(std::int64_t n, std::size_t byte_offset = 0) const {
#if !defined(__CUDA_ARCH__)
    // Checked: n = 2^62 floats must not wrap to 0 bytes and pass (issue 12).
    std::size_t want = 0;
    if (n < 0 || __builtin_mul_overflow(static_cast<std::size_t>(n), sizeof(T), &want) ||
        __builtin_add_overflow(want, byte_offset, &want)) {
      detail::shared_size_invalid(n, sizeof(T), byte_offset, shared_bytes);
    }
    if (want > shared_bytes) detail::shared_overflow(want, shared_bytes);
#endif
    View<T, 1> v;
    v.check = check;
    v.data = reinterpret_cast<T*>(static_cast<unsigned char*>(shared_mem) + byte_offset);
    v.shape[0] = n;
    v.strides[0] = sizeof(T);
    return v;
  }
  // A C-order {rows, cols} or {rows, cols, depth} array of T in the block's shared memory at
  // byte_offset, checked on the host as the 1-d one. The shape is braced so that (n, byte_offset)
  // keeps meaning the 1-d array.
  template <class T>
  LOOM_HD View<T, 2> shared_array(const std::int64_t (&shape)[2],
                                  std::size_t byte_offset = 0) const {
    return shared_nd<T, 2>(shape, byte_offset);
  }
  template <class T>
  LOOM_HD View<T, 3> shared_array(const std::int64_t (&shape)[3],
                                  std::size_t byte_offset = 0) const {
    return shared_nd<T, 3>(shape, byte_offset);
  }

 private:
#if !defined(__CUDA_ARCH__)
  std::uint64_t warp(detail::WarpOp op, std::uint32_t mask, std::uint64_t bits, std::int32_t b,
                     std::int32_t width, std::uint32_t bytes) const {
    return detail::warp_call(*this, op, mask, bits, b, width, bytes);
  }
#endif
  template <detail::WarpOp Op, class T>
  LOOM_HD T shfl(std::uint32_t mask, T value, int b, int width) const {
    static_assert(warp_value<T>,
                  "warp shuffles take int32, uint32, int64, uint64, float32 or float64 values "
                  "(std::int32_t, std::uint32_t, std::int64_t, std::uint64_t, float, double)");
    using B = detail::warp_bits<T>;
#if defined(__CUDA_ARCH__)
    const B v = detail::warp_to_bits<B>(value);
    B r;
    if constexpr (Op == detail::WarpOp::shfl_idx) {
      r = __shfl_sync(mask, v, b, width);
    } else if constexpr (Op == detail::WarpOp::shfl_up) {
      r = __shfl_up_sync(mask, v, static_cast<unsigned>(b), width);
    } else if constexpr (Op == detail::WarpOp::shfl_down) {
      r = __shfl_down_sync(mask, v, static_cast<unsigned>(b), width);
    } else {
      r = __shfl_xor_sync(mask, v, b, width);
    }
    return detail::warp_from_bits<T>(r);
#else
    const std::uint64_t r =
        warp(Op, mask, detail::warp_to_bits<std::uint64_t>(value), b, width, sizeof(T));
    return detail::warp_from_bits<T>(static_cast<B>(r));
#endif
  }

  template <class T, int N>
  LOOM_HD View<T, N> shared_nd(const std::int64_t (&shape)[N], std::size_t byte_offset) const {
#if !defined(__CUDA_ARCH__)
    std::size_t want = sizeof(T);
    bool bad = false;
    for (int k = 0; k < N; ++k) {
      bad = bad || shape[k] < 0 ||
            __builtin_mul_overflow(want, static_cast<std::size_t>(shape[k]), &want);
    }
    if (bad || __builtin_add_overflow(want, byte_offset, &want)) {
      detail::shared_shape_invalid(shape, N, sizeof(T), byte_offset, shared_bytes);
    }
    if (want > shared_bytes) detail::shared_overflow(want, shared_bytes);
#endif
    View<T, N> v;
    v.check = check;
    v.data = reinterpret_cast<T*>(static_cast<unsigned char*>(shared_mem) + byte_offset);
    std::int64_t stride = sizeof(T);
    for (int k = N - 1; k >= 0; --k) {
      v.shape[k] = shape[k];
      v.strides[k] = stride;
      stride *= shape[k];
    }
    return v;
  }
};

}  // namespace loom
