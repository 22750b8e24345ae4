// The seed kernels (the Numba tutorials' @cuda.jit examples) as loom kernel functors: each is one
// functor for every target. plugins/kernels/table.hpp registers them; docs/kernels.md shows them.
#pragma once
#include <cstdint>

#include "../math/functors.hpp"  // Hypot: the same bits as the hypot ufunc on every target
#include "loom/atomic.hpp"
#include "loom/block_ctx.hpp"
#include "loom/thread_ctx.hpp"
#include "loom/view.hpp"

namespace loom::kernels {

// out[i] = x[i] + y[i], one element per thread; threads past the end do nothing.
template <class T>
struct AddOnePerThread {
  LOOM_HD void operator()(const ThreadCtx& t, View<const T> x, View<const T> y, View<T> out) const {
    const std::int64_t i = t.grid();
    if (i < out.size()) out(i) = x(i) + y(i);
  }
};

// out[i] = x[i] + y[i] with a grid-stride loop: any grid covers any length. Written by hand
// (Numba's idiom), so CUDA's mapping of elements to threads holds on every target.
template <class T>
struct AddGridStride {
  LOOM_HD void operator()(const ThreadCtx& t, View<const T> x, View<const T> y, View<T> out) const {
    for (std::int64_t i = t.grid(), n = out.size(); i < n; i += t.gridsize()) out(i) = x(i) + y(i);
  }
};

// c[i] = hypot(a[i], b[i]) with a grid-stride loop (the seeds' hypot_stride), written with
// t.grid_stride(n): on the host each thread takes a contiguous run of elements, a plain counted
// loop over neighbours (CUDA's mapping made each thread read elements a whole grid apart: 10x the
// plain loop's time on [1024, 256]). The device keeps four strides per trip, loads first: c may
// alias a or b, so the compiler cannot move one trip's loads above the previous trip's store, and
// a GPU needs several loads in flight per thread to reach its memory bandwidth (a plain loop
// reached 1.25x of the copy floor on an H100, this one is measured in docs/benchmarks.md). The
// range's start/stop/step are CUDA's loop there (docs/kernels.md, "Grid-stride loops").
template <class T>
struct HypotGridStride {
  LOOM_HD void operator()(const ThreadCtx& t, View<const T> a, View<const T> b, View<T> c) const {
    const math::Hypot h;
    const GridStride r = t.grid_stride(c.size());
#if defined(__CUDA_ARCH__)
    const std::int64_t s = r.step, n = r.stop;
    std::int64_t i = r.start;
    for (; i + 3 * s < n; i += 4 * s) {
      const T a0 = a(i), a1 = a(i + s), a2 = a(i + 2 * s), a3 = a(i + 3 * s);
      const T b0 = b(i), b1 = b(i + s), b2 = b(i + 2 * s), b3 = b(i + 3 * s);
      c(i) = h(a0, b0);
      c(i + s) = h(a1, b1);
      c(i + 2 * s) = h(a2, b2);
      c(i + 3 * s) = h(a3, b3);
    }
    // Not unrolled: nvcc would compute the trip count first, an integer division that costs
    // more than the element itself when a thread has one (`.size = n` launches).
#pragma unroll 1
    for (; i < n; i += s) c(i) = h(a(i), b(i));
#else
    for (const std::int64_t i : r) c(i) = h(a(i), b(i));
#endif
  }
};

// out[i] = a[i] * a[i], one element per thread (the seeds' square_device exercise).
template <class T>
struct Square {
  LOOM_HD void operator()(const ThreadCtx& t, View<const T> a, View<T> out) const {
    const std::int64_t i = t.grid();
    if (i < out.size()) out(i) = a(i) * a(i);
  }
};

// counter[0] += 1 without an atomic: WRONG on purpose (the seeds' race condition). Threads that
// read the same old value lose increments; only a grid run one thread at a time (target cpu)
// counts every thread. Loads and stores are relaxed atomics on the host so that the race loses
// updates as on a GPU without being undefined behaviour in C++.
struct ThreadCounterRace {
  LOOM_HD void operator()(const ThreadCtx&, View<std::int32_t> counter) const {
    std::int32_t* p = &counter(0);
#if defined(__CUDA_ARCH__)
    volatile std::int32_t* v = p;
    *v = *v + 1;
#else
    std::atomic_ref<std::int32_t> a(*p);
    a.store(a.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
#endif
  }
};

// counter[0] += 1 with an atomic add: every thread counts (the seeds' thread_counter_safe).
struct ThreadCounterSafe {
  LOOM_HD void operator()(const ThreadCtx&, View<std::int32_t> counter) const {
    atomic_add(&counter(0), std::int32_t{1});
  }
};

// The bin of x among nbins equal bins over [xmin, xmax), or -1: the seeds' cpu_histogram rule,
// int32((x - xmin) / bin_width) kept when in [0, nbins). The test on the quotient drops NaN and
// values whose int conversion would overflow (undefined in C++) before converting.
template <class T>
LOOM_HD inline std::int64_t bin_of(T x, T xmin, T bin_width, std::int64_t nbins) {
  const T q = (x - xmin) / bin_width;
  if (!(q > T(-1) && q < static_cast<T>(nbins))) return -1;
  const auto b = static_cast<std::int32_t>(q);  // truncates toward zero, as np.int32 does
  return b >= 0 && b < nbins ? b : -1;
}

// histogram[bin(x[i])] += 1 with global atomics and a grid-stride loop (the seeds' solution).
template <class T>
struct Histogram {
  LOOM_HD void operator()(const ThreadCtx& t, View<const T> x, T xmin, T xmax,
                          View<std::int32_t> hist) const {
    const std::int64_t nbins = hist.size();
    const T width = (xmax - xmin) / static_cast<T>(nbins);
    for (std::int64_t i = t.grid(), n = x.size(); i < n; i += t.gridsize()) {
      const std::int64_t b = bin_of(x(i), xmin, width, nbins);
      if (b >= 0) atomic_add(&hist(b), std::int32_t{1});
    }
  }
};

// The same histogram with one private histogram per block in shared memory (launch with
// shared_bytes >= 4 * nbins): threads count into their block's copy, then the block adds its
// copy to the global one, so global atomics drop from one per element to one per bin per block.
// A block kernel: three phases, each ending at a barrier (on the host, each a loop over the
// block's threads; docs/kernels.md, "Host paths").
template <class T>
struct HistogramShared {
  LOOM_HD void operator()(const BlockCtx& b, View<const T> x, T xmin, T xmax,
                          View<std::int32_t> hist) const {
    const std::int64_t nbins = hist.size(), nthreads = b.threads();
    const View<std::int32_t> local = b.shared_array<std::int32_t>(nbins);
    b.each_thread([&](const ThreadCtx& t) {
      for (std::int64_t j = t.thread_rank(); j < nbins; j += nthreads) local(j) = 0;
    });
    const T width = (xmax - xmin) / static_cast<T>(nbins);
    b.each_thread([&](const ThreadCtx& t) {
      for (const std::int64_t i : t.grid_stride(x.size())) {  // contiguous runs on the host
        const std::int64_t k = bin_of(x(i), xmin, width, nbins);
        if (k >= 0) atomic_add(&local(k), std::int32_t{1});
      }
    });
    b.each_thread([&](const ThreadCtx& t) {
      for (std::int64_t j = t.thread_rank(); j < nbins; j += nthreads) {
        if (local(j) != 0) atomic_add(&hist(j), local(j));
      }
    });
  }
};

// c[i, j, k] = max(a[i, j, k], b[i, j, k]) on a 3-D grid, x indexing the first axis (the seeds'
// maximum_6 on 256^3 arrays with 8x8x8 blocks); threads outside the shape do nothing.
template <class T>
struct Maximum3D {
  LOOM_HD void operator()(const ThreadCtx& t, View<const T, 3> a, View<const T, 3> b,
                          View<T, 3> c) const {
    const auto [i, j, k] = t.grid<3>();
    if (i >= c.size(0) || j >= c.size(1) || k >= c.size(2)) return;
    const T u = a(i, j, k), v = b(i, j, k);
    c(i, j, k) = u > v ? u : v;
  }
};

// out[blockIdx.x] = the sum of the block's slice of x (blockDim.x elements), by a tree in shared
// memory (launch with shared_bytes >= sizeof(T) * blockDim.x). Any block size: each round folds
// the upper ceil(n/2) partial sums onto the lower ones, skipping the one without a partner when
// n is odd (a power of two pairs as the usual halving tree, with the same bits). A block kernel:
// the rounds are phases, the loop over them the same for every thread.
template <class T>
struct BlockSum {
  LOOM_HD void operator()(const BlockCtx& b, View<const T> x, View<T> out) const {
    const std::int64_t nt = b.blockDim.x;
    const View<T> s = b.shared_array<T>(nt);
    b.each_thread([&](const ThreadCtx& t) {
      const std::int64_t i = t.grid();
      s(t.threadIdx.x) = i < x.size() ? x(i) : T(0);
    });
    for (std::int64_t n = nt; n > 1; n = (n + 1) / 2) {  // n partial sums left
      const std::int64_t half = (n + 1) / 2;
      // Threads 0 .. n - half - 1 add the upper half in (each_thread(active, f): only those run).
      b.each_thread(n - half, [&](const ThreadCtx& t) {
        const std::int64_t tid = t.threadIdx.x;
        s(tid) = s(tid) + s(tid + half);
      });
    }
    b.each_thread(1, [&](const ThreadCtx&) {
      if (b.blockIdx.x < out.size()) out(b.blockIdx.x) = s(0);
    });
  }
};

// BlockSum written with syncthreads (one thread's view, run on the host as fibers): the same
// sums, for comparing the paths (tests, loom-bench).
template <class T>
struct BlockSumSync {
  static constexpr bool uses_syncthreads = true;
  LOOM_HD void operator()(const ThreadCtx& t, View<const T> x, View<T> out) const {
    const std::int64_t nt = t.blockDim.x, tid = t.threadIdx.x, i = t.grid();
    View<T> s = t.shared_array<T>(nt);
    s(tid) = i < x.size() ? x(i) : T(0);
    t.syncthreads();
    for (std::int64_t n = nt; n > 1; n = (n + 1) / 2) {
      const std::int64_t half = (n + 1) / 2;
      if (tid + half < n) s(tid) = s(tid) + s(tid + half);
      t.syncthreads();
    }
    if (tid == 0 && t.blockIdx.x < out.size()) out(t.blockIdx.x) = s(0);
  }
};

// One Jacobi sweep of Laplace's equation on a 2-D grid: out[i, j] = the mean of in's four
// neighbours for interior points, in[i, j] on the border. x runs along j (the contiguous axis).
template <class T>
struct Jacobi2D {
  LOOM_HD void operator()(const ThreadCtx& t, View<const T, 2> in, View<T, 2> out) const {
    const auto [j, i] = t.grid<2>();
    const std::int64_t ni = out.size(0), nj = out.size(1);
    if (i >= ni || j >= nj) return;
    if (i == 0 || j == 0 || i == ni - 1 || j == nj - 1) {
      out(i, j) = in(i, j);
    } else {
      out(i, j) = T(0.25) * ((in(i - 1, j) + in(i + 1, j)) + (in(i, j - 1) + in(i, j + 1)));
    }
  }
};

}  // namespace loom::kernels
