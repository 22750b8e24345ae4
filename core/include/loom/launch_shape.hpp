// The automatic launch configuration's shapes (docs/kernels.md, "Automatic configuration"): the
// block a LaunchConfig::size of 2 or 3 dimensions gets, and the grid that covers a size. Inline,
// because the core uses them for host targets and the CUDA kernel loop (def/kernel.cuh, built
// into each kernel plugin) for the device: one set of rules on every target.
#pragma once
#include <cstdint>
#include <string>

#include "loom/error.hpp"
#include "loom/kernel.hpp"

namespace loom::detail {

// The size as the caller gave it: "1000" for one extent, "(64, 48)" for two or three.
inline std::string size_str(const std::int64_t size[3], int ndim) {
  if (ndim <= 1) return std::to_string(size[0]);
  // Appended piece by piece: g++ 12 warns (-Wrestrict, wrongly) on "(" + std::to_string(...).
  std::string s = "(";
  for (int d = 0; d < ndim; ++d) (s += d ? ", " : "") += std::to_string(size[d]);
  return s += ")";
}

inline std::string dim3_str(const Dim3& d) {
  const std::int64_t v[3] = {d.x, d.y, d.z};
  return size_str(v, 3);
}

// Threads per block for `size` when threads are not given. `budget` is the target's block size
// (256 on the host, the occupancy calculator's choice on cuda), `max_threads` the most this
// kernel may have in a block. No size or a 1-d one: budget threads along x, as before N-d sizes.
// 2-d and 3-d: axes double, from one thread, while the block stays within budget: x first up
// to a warp (32, so that neighbouring threads touch neighbouring elements), then the axis with
// the fewest threads (the lower axis on a tie), each only while it has fewer threads than its
// extent and CUDA allows (1024, 1024, 64): large sizes get (32, 8) or (32, 4, 2) blocks of 256,
// small extents small ones ({1, 1} one thread, {5000, 3} (64, 4)). Then a y or z axis whose
// blocks would pass the grid's 65535 gets more threads (up to max_threads in all, taking them
// from x if need be), so that sizes long in y fit.
inline Dim3 auto_threads(const std::int64_t size[3], int ndim, std::int64_t budget,
                         std::int64_t max_threads) {
  if (budget < 1) budget = 1;
  if (ndim <= 1) return Dim3(static_cast<unsigned>(budget));
  std::int64_t t[3] = {1, 1, 1};
  const auto can_grow = [&](int d) {
    return d < ndim && t[d] < size[d] && 2 * t[d] <= kMaxBlockDim[d];
  };
  for (;;) {
    if (2 * t[0] * t[1] * t[2] > budget) break;
    int pick = -1;
    if (t[0] < 32 && can_grow(0)) {
      pick = 0;
    } else {
      for (int d = 0; d < 3; ++d) {
        if (can_grow(d) && (pick < 0 || t[d] < t[pick])) pick = d;
      }
    }
    if (pick < 0) break;
    t[pick] *= 2;
  }
  for (int d = 1; d < ndim; ++d) {
    while (size[d] / t[d] + (size[d] % t[d] != 0) > kMaxGridDim[d] && 2 * t[d] <= kMaxBlockDim[d]) {
      if (2 * t[0] * t[1] * t[2] <= max_threads) {
        t[d] *= 2;
      } else if (t[0] > 1) {
        t[0] /= 2;
        t[d] *= 2;
      } else {
        break;
      }
    }
  }
  return Dim3(static_cast<unsigned>(t[0]), static_cast<unsigned>(t[1]),
              static_cast<unsigned>(t[2]));
}

// Blocks covering `size` with one thread an element: the ceiling of extent / threads along each
// axis (extents past the size's are 1; a zero extent is an empty launch, which the core skips
// before asking). More blocks than a grid holds along an axis is a LaunchError naming them;
// `who` is "kernel 'name'" (with " on cuda:N" on the device).
inline Dim3 blocks_for_size(const std::string& who, const std::int64_t size[3], int ndim,
                            const Dim3& threads) {
  const std::int64_t per[3] = {threads.x, threads.y, threads.z};
  std::int64_t b[3];
  bool fits = true;
  for (int d = 0; d < 3; ++d) {
    const std::int64_t n = size[d] < 1 ? 1 : size[d];
    b[d] = n / per[d] + (n % per[d] != 0);  // no n + per - 1: n may be near INT64_MAX
    fits = fits && b[d] <= kMaxGridDim[d];
  }
  if (!fits) {
    throw LaunchError(
        who + ": size=" + size_str(size, ndim) + " needs blocks=" + size_str(b, 3) +
        " of threads=" + dim3_str(threads) +
        ", more than a grid holds (x at most 2^31-1, y and z at most 65535 blocks): " +
        "give blocks= and use a grid-stride loop, or put the longest axis in x");
  }
  return Dim3(static_cast<unsigned>(b[0]), static_cast<unsigned>(b[1]),
              static_cast<unsigned>(b[2]));
}

}  // namespace loom::detail
