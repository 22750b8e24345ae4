// What ThreadCtx's warp functions (laneid, activemask, syncwarp, shfl_*_sync, ballot/all/any_sync)
// share between host and device code. On the device they are CUDA's intrinsics; on the host the
// lanes of a warp are fibers of a block (core/src/kernels/block_fibers.cpp) that wait for each other in
// detail::warp_call. docs/kernels.md, "Warp functions", gives the semantics.
#pragma once
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "loom/hd.hpp"

namespace loom {

struct ThreadCtx;

// Lanes in a warp, on every target (CUDA's warpSize on the GPUs loom supports).
inline constexpr int kWarpSize = 32;
// Every lane of a warp: the default mask of syncwarp, and what full-warp code passes.
inline constexpr std::uint32_t kFullMask = 0xffffffffu;

// The types a warp shuffle moves (Numba's and CUDA's __shfl_sync types of 4 and 8 bytes).
template <class T>
concept warp_value = std::is_same_v<T, std::int32_t> || std::is_same_v<T, std::uint32_t> ||
    std::is_same_v<T, std::int64_t> || std::is_same_v<T, std::uint64_t> ||
    std::is_same_v<T, float> || std::is_same_v<T, double>;

namespace detail {

// Which warp function a lane called, for the host scheduler and its messages.
enum class WarpOp : std::uint8_t {
  activemask,
  syncwarp,
  shfl_idx,
  shfl_up,
  shfl_down,
  shfl_xor,
  ballot,
  all,
  any,
};

// The bits of a shuffled value, zero-extended to 64 on the host; the CUDA type of its size
// (which __shfl_sync takes) on the device.
template <class T>
using warp_bits = std::conditional_t<sizeof(T) == 4, unsigned int, unsigned long long>;

template <class B, class T>
LOOM_HD B warp_to_bits(T v) {
  static_assert(sizeof(B) >= sizeof(T));
  B b = 0;
  memcpy(&b, &v, sizeof(T));  // little-endian: the low bytes
  return b;
}
template <class T, class B>
LOOM_HD T warp_from_bits(B b) {
  T v;
  memcpy(&v, &b, sizeof(T));
  return v;
}

// The host's warp functions: lane t.thread_rank() % 32 of its block calls `op` with `mask`, the
// value's bits (or the predicate), the shuffle's lane operand `b` (source lane, delta or lane
// mask) and `width`, and waits until every lane of the mask has called it; returns the result's
// bits (the ballot, 0/1 for all/any, the active mask). A KernelError when the kernel did not
// declare uses_syncthreads, or when the call is undefined in CUDA (docs/kernels.md).
std::uint64_t warp_call(const ThreadCtx& t, WarpOp op, std::uint32_t mask, std::uint64_t bits,
                        std::int32_t b, std::int32_t width, std::uint32_t value_bytes);

}  // namespace detail
}  // namespace loom
