// GridStride: the elements [0, n) a kernel thread handles in a grid-stride loop, as a range:
//
//   for (const std::int64_t i : t.grid_stride(n)) out(i) = f(x(i));
//
// Across the grid's threads every index in [0, n) comes up exactly once, for any grid and any n;
// which thread gets which index is up to the target (docs/kernels.md, "Grid-stride loops"):
//
// - device: CUDA's grid-stride loop, start at the thread's rank in the grid, step the number of
//   threads in the grid (on a 1-D grid exactly `i = grid(); i < n; i += gridsize()`);
// - host: a contiguous run of indices per thread, the runs in rank order, balanced within one
//   16-element unit (one element when a thread has fewer than 16 on average). A block's threads
//   run one after the other on one OS thread, so CUDA's mapping would make each of them walk
//   memory a whole grid apart (a cache line per element); runs make the loop a plain counted loop
//   over neighbouring elements that the compiler can vectorize.
//
// So a kernel written with grid_stride must not depend on which thread handles which element
// (results of independent elements, atomics into bins): the hand-written loop keeps CUDA's exact
// mapping on every target.
#pragma once
#include <cstdint>

#include "loom/hd.hpp"

namespace loom {

// Python's range(start, stop, step) over int64; step is 1 on the host.
struct GridStride {
  std::int64_t start = 0, stop = 0, step = 1;

  struct sentinel {
    std::int64_t stop;
  };
  struct iterator {
    std::int64_t i;
#if defined(__CUDA_ARCH__)
    std::int64_t step;
    LOOM_HD iterator& operator++() {
      i += step;
      return *this;
    }
#else
    // No step on the host: `for (i : range)` is `for (i = start; i < stop; ++i)`.
    iterator& operator++() {
      ++i;
      return *this;
    }
#endif
    LOOM_HD std::int64_t operator*() const { return i; }
    // `<`, not `!=`: on the device the last step jumps past stop.
    LOOM_HD friend bool operator!=(const iterator& a, const sentinel& b) { return a.i < b.stop; }
  };

#if defined(__CUDA_ARCH__)
  LOOM_HD iterator begin() const { return {start, step}; }
#else
  iterator begin() const { return {start}; }
#endif
  LOOM_HD sentinel end() const { return {stop}; }
  LOOM_HD bool empty() const { return start >= stop; }

  // Thread `rank` of `threads` (the grid's threads in CUDA's linear order: blocks x fastest,
  // then threads x fastest in each block) over [0, n); n <= 0 gives an empty range.
  LOOM_HD static GridStride over(std::int64_t n, std::int64_t rank, std::int64_t threads) {
#if defined(__CUDA_ARCH__)
    return {rank, n, threads};
#else
    // At most one element a thread (`.size = n` launches): the first n threads take one each.
    if (n <= threads) {
      const std::int64_t m = n > 0 ? n : 0;
      return {rank < m ? rank : m, rank < m ? rank + 1 : m, 1};
    }
    // Units of 16 elements when every thread gets at least one: runs start and end on a
    // multiple of 16 (a 64-byte line of float32 in an aligned array), so a vector loop has no odd
    // head or tail and blocks running on different OS threads rarely share a line; else units of
    // one. Then q units a thread and one more for the first r: no two threads differ by more
    // than a unit, so `parallel`'s runs of blocks carry equal work. (The division is the same for
    // every thread; the compiler may or may not hoist it out of the thread loop. Threads here
    // have more than one element on average, 256 on [1024, 256] over 64M, to pay for it.)
    const bool whole = n / 16 >= threads;
    const std::int64_t units = whole ? n / 16 + (n % 16 != 0) : n;
    const std::int64_t q = units / threads, r = units % threads;
    const std::int64_t first = rank * q + (rank < r ? rank : r);
    const std::int64_t count = q + (rank < r);
    const int shift = whole ? 4 : 0;
    // (first + count) << shift can pass n by less than 16, so in uint64 it cannot overflow.
    const auto hi = static_cast<std::uint64_t>(first + count) << shift;
    const std::int64_t e = hi < static_cast<std::uint64_t>(n) ? static_cast<std::int64_t>(hi) : n;
    return {first << shift, e, 1};
#endif
  }
};

}  // namespace loom
