// Kernels the kernel tests launch (like NumPy's _umath_tests): atomics whose results under
// contention are exact, a record of every thread's coordinates, and a scalar-parameter kernel.
// test_kernels.cpp includes this after the host def header, test_kernels.cu after the CUDA one;
// the kernels that break the execution model on purpose are host-only (test_kernels.cpp). The
// gufuncs of gufuncs.hpp come with the common table (both files include the gufunc def header).
#pragma once
#include <cstdint>

#include "gufuncs.hpp"
#include "loom/atomic.hpp"
#include "loom/block_ctx.hpp"
#include "loom/local_array.hpp"
#include "loom/registry.hpp"
#include "loom/thread_ctx.hpp"
#include "loom/view.hpp"
#include "loom/warp.hpp"

namespace loom::test_kernels {

// old[i] = atomic_add(&cell[0], v) for thread i (threads past old's end do nothing).
template <class T>
struct AtomicAdd {
  LOOM_HD void operator()(const ThreadCtx& t, View<T> cell, View<T> old, T v) const {
    const std::int64_t i = t.grid();
    if (i < old.size()) old(i) = atomic_add(&cell(0), v);
  }
};
template <class T>
struct AtomicSub {
  LOOM_HD void operator()(const ThreadCtx& t, View<T> cell, View<T> old, T v) const {
    const std::int64_t i = t.grid();
    if (i < old.size()) old(i) = atomic_sub(&cell(0), v);
  }
};
// old[i] = atomic_max(&cell[0], vals[i]).
template <class T>
struct AtomicMax {
  LOOM_HD void operator()(const ThreadCtx& t, View<T> cell, View<T> old, View<const T> vals) const {
    const std::int64_t i = t.grid();
    if (i < old.size()) old(i) = atomic_max(&cell(0), vals(i));
  }
};
template <class T>
struct AtomicMin {
  LOOM_HD void operator()(const ThreadCtx& t, View<T> cell, View<T> old, View<const T> vals) const {
    const std::int64_t i = t.grid();
    if (i < old.size()) old(i) = atomic_min(&cell(0), vals(i));
  }
};
template <class T>
struct AtomicExch {
  LOOM_HD void operator()(const ThreadCtx& t, View<T> cell, View<T> old, View<const T> vals) const {
    const std::int64_t i = t.grid();
    if (i < old.size()) old(i) = atomic_exch(&cell(0), vals(i));
  }
};
// old[i] = atomic_cas(&cell[0], expected, vals[i]): only the first thread to get there swaps.
template <class T>
struct AtomicCasOnce {
  LOOM_HD void operator()(const ThreadCtx& t, View<T> cell, View<T> old, View<const T> vals,
                          T expected) const {
    const std::int64_t i = t.grid();
    if (i < old.size()) old(i) = atomic_cas(&cell(0), expected, vals(i));
  }
};
// cell[0] += 1 by a compare-and-swap loop; old[i] = the value this thread replaced.
template <class T>
struct AtomicCasCounter {
  LOOM_HD void operator()(const ThreadCtx& t, View<T> cell, View<T> old) const {
    const std::int64_t i = t.grid();
    if (i >= old.size()) return;
    T* p = &cell(0);
    T seen = atomic_cas(p, T(0), T(0));  // an atomic read (writes 0 over 0 at most)
    for (;;) {
      const T prev = atomic_cas(p, seen, static_cast<T>(seen + T(1)));
      if (prev == seen) break;
      seen = prev;
    }
    old(i) = seen;
  }
};

// The operations of issue 15 as functors, so that one kernel template runs each of them.
struct NanMaxOp {
  template <class T>
  LOOM_HD T operator()(T* p, T v) const {
    return atomic_nanmax(p, v);
  }
};
struct NanMinOp {
  template <class T>
  LOOM_HD T operator()(T* p, T v) const {
    return atomic_nanmin(p, v);
  }
};
struct AndOp {
  template <class T>
  LOOM_HD T operator()(T* p, T v) const {
    return atomic_and(p, v);
  }
};
struct OrOp {
  template <class T>
  LOOM_HD T operator()(T* p, T v) const {
    return atomic_or(p, v);
  }
};
struct XorOp {
  template <class T>
  LOOM_HD T operator()(T* p, T v) const {
    return atomic_xor(p, v);
  }
};
struct IncOp {
  template <class T>
  LOOM_HD T operator()(T* p, T v) const {
    return atomic_inc(p, v);
  }
};
struct DecOp {
  template <class T>
  LOOM_HD T operator()(T* p, T v) const {
    return atomic_dec(p, v);
  }
};
// old[i] = Op(&cell[0], vals[i]).
template <class T, class Op>
struct AtomicVals {
  LOOM_HD void operator()(const ThreadCtx& t, View<T> cell, View<T> old, View<const T> vals) const {
    const std::int64_t i = t.grid();
    if (i < old.size()) old(i) = Op{}(&cell(0), vals(i));
  }
};
// old[i] = Op(&cell[0], v): inc/dec with one limit for every thread.
template <class T, class Op>
struct AtomicScalar {
  LOOM_HD void operator()(const ThreadCtx& t, View<T> cell, View<T> old, T v) const {
    const std::int64_t i = t.grid();
    if (i < old.size()) old(i) = Op{}(&cell(0), v);
  }
};

// A block's (blockDim.y, blockDim.x) tile in shared_array<T>({rows, cols}, byte_offset): thread
// (y, x) stores its rank there, and after the barrier reads the tile reversed (the rank of thread
// (by-1-y, bx-1-x)) and the same bytes as a flat 1-d array at its own rank, which shows the C
// order. out has two entries per thread of the grid, at its linear index.
struct SharedTile2D {
  static constexpr bool uses_syncthreads = true;
  LOOM_HD void operator()(const ThreadCtx& t, View<std::int64_t> out,
                          std::int64_t byte_offset) const {
    const std::int64_t by = t.blockDim.y, bx = t.blockDim.x, y = t.threadIdx.y, x = t.threadIdx.x;
    const auto off = static_cast<std::size_t>(byte_offset);
    View<std::int64_t, 2> tile = t.shared_array<std::int64_t>({by, bx}, off);
    View<std::int64_t> flat = t.shared_array<std::int64_t>(by * bx, off);
    const std::int64_t rank = t.thread_rank();
    const std::int64_t gid = std::int64_t{t.blockIdx.x} * t.blockDim.count() + rank;
    tile(y, x) = 1000 * t.blockIdx.x + rank;
    t.syncthreads();
    out(2 * gid) = tile(by - 1 - y, bx - 1 - x);
    out(2 * gid + 1) = flat(rank);
  }
};
// The same over a (blockDim.z, blockDim.y, blockDim.x) tile of float64.
struct SharedTile3D {
  static constexpr bool uses_syncthreads = true;
  LOOM_HD void operator()(const ThreadCtx& t, View<double> out, std::int64_t byte_offset) const {
    const std::int64_t bz = t.blockDim.z, by = t.blockDim.y, bx = t.blockDim.x;
    const std::int64_t z = t.threadIdx.z, y = t.threadIdx.y, x = t.threadIdx.x;
    const auto off = static_cast<std::size_t>(byte_offset);
    View<double, 3> tile = t.shared_array<double>({bz, by, bx}, off);
    View<double> flat = t.shared_array<double>(bz * by * bx, off);
    const std::int64_t rank = t.thread_rank();
    const std::int64_t gid = std::int64_t{t.blockIdx.x} * t.blockDim.count() + rank;
    tile(z, y, x) = 1000.0 * t.blockIdx.x + static_cast<double>(rank);
    t.syncthreads();
    out(2 * gid) = tile(bz - 1 - z, by - 1 - y, bx - 1 - x);
    out(2 * gid + 1) = flat(rank);
  }
};
// Two fixed-size LOOM_SHARED arrays of the same type and shape (each its own array): thread r of
// a block of at most 128 threads stores r and -r, and after the barrier reads both reversed.
struct SharedFixed {
  static constexpr bool uses_syncthreads = true;
  LOOM_HD void operator()(const ThreadCtx& t, View<std::int32_t, 2> out) const {
    LOOM_SHARED std::int32_t a[4][32];
    LOOM_SHARED std::int32_t b[4][32];
    const auto n = static_cast<std::int32_t>(t.blockDim.count());
    const auto r = static_cast<std::int32_t>(t.thread_rank());
    const std::int64_t gid = std::int64_t{t.blockIdx.x} * n + r;
    a[r / 32][r % 32] = r + 1000 * static_cast<std::int32_t>(t.blockIdx.x);
    b[r / 32][r % 32] = -r;
    t.syncthreads();
    const std::int32_t q = n - 1 - r;
    out(gid, 0) = a[q / 32][q % 32];
    out(gid, 1) = b[q / 32][q % 32];
  }
};

// Per-thread local arrays: each thread sorts its 8 values of x (x(i, :)) in a local_array by
// insertion sort into out(i, :), and fills a zeroed 3x4 local_array through its View, summing it
// into out(i, 8) (sum of 10 * r + c over the 3x4 array, 138, plus its size, 12: 150).
template <bool Sync>
struct LocalArrays {
  static constexpr bool uses_syncthreads = Sync;
  LOOM_HD void operator()(const ThreadCtx& t, View<const float, 2> x, View<float, 2> out) const {
    const std::int64_t i = t.grid();
    const bool live = i < x.size(0);
    local_array<float, 8> v;
    for (int k = 0; k < 8; ++k) v(k) = live ? x(i, k) : 0.0f;
    if constexpr (Sync) t.syncthreads();  // locals live across a barrier (the fiber's stack)
    for (int k = 1; k < 8; ++k) {
      const float key = v(k);
      int j = k - 1;
      for (; j >= 0 && v(j) > key; --j) v(j + 1) = v(j);
      v(j + 1) = key;
    }
    local_array<std::int64_t, 3, 4> m{};
    std::int64_t zeros = 0;
    for (std::int64_t k = 0; k < m.count; ++k) zeros += m.data[k] == 0;
    View<std::int64_t, 2> mv = m.view();
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 4; ++c) mv(r, c) = 10 * r + c;
    if constexpr (Sync) t.syncthreads();
    if (!live) return;
    std::int64_t s = 0;
    for (std::int64_t k = 0; k < m.count; ++k) s += m.data[k];  // C order through data
    for (int k = 0; k < 8; ++k) out(i, k) = v(k);
    out(i, 8) = static_cast<float>(s + zeros);
  }
};

// One row per thread of the grid, at its linear index (block-major, x fastest): the thread's
// coordinates as ThreadCtx gives them, and in the last column how many times the row was written.
struct Coords {
  static constexpr int kCols = 20;
  LOOM_HD void operator()(const ThreadCtx& t, View<std::int64_t, 2> rows) const {
    const std::int64_t block =
        (std::int64_t{t.blockIdx.z} * t.gridDim.y + t.blockIdx.y) * t.gridDim.x + t.blockIdx.x;
    const std::int64_t row = block * t.blockDim.count() + t.thread_rank();
    if (row >= rows.size(0)) return;
    const auto [gx, gy, gz] = t.grid<3>();
    const auto [sx, sy, sz] = t.gridsize<3>();
    const std::int64_t v[kCols - 1] = {t.threadIdx.x,
                                       t.threadIdx.y,
                                       t.threadIdx.z,
                                       t.blockIdx.x,
                                       t.blockIdx.y,
                                       t.blockIdx.z,
                                       t.blockDim.x,
                                       t.blockDim.y,
                                       t.blockDim.z,
                                       t.gridDim.x,
                                       t.gridDim.y,
                                       t.gridDim.z,
                                       gx,
                                       gy,
                                       gz,
                                       sx,
                                       sy,
                                       sz,
                                       t.grid()};
    for (int c = 0; c < kCols - 1; ++c) rows(row, c) = v[c];
    atomic_add(&rows(row, kCols - 1), std::int64_t{1});
  }
};

// Coords for a kernel whose threads run as fibers on host targets (it waits at a barrier first).
struct CoordsSync {
  static constexpr bool uses_syncthreads = true;
  LOOM_HD void operator()(const ThreadCtx& t, View<std::int64_t, 2> rows) const {
    t.syncthreads();
    Coords{}(t, rows);
    t.syncthreads();
  }
};

// out[i] = v with a grid-stride loop: an int32 scalar parameter.
struct FillInt32 {
  LOOM_HD void operator()(const ThreadCtx& t, View<std::int32_t> out, std::int32_t v) const {
    for (std::int64_t i = t.grid(), n = out.size(); i < n; i += t.gridsize()) out(i) = v;
  }
};

// out[i] = in[i], then writes -1 through the read-only view (casting const away): on cuda with
// host arrays the caller's `in` must still be unchanged, because const arrays are not copied back.
struct ScribbleOnConst {
  LOOM_HD void operator()(const ThreadCtx& t, View<const float> in, View<float> out) const {
    for (std::int64_t i = t.grid(), n = out.size(); i < n; i += t.gridsize()) {
      out(i) = in(i);
      const_cast<float&>(in(i)) = -1.0f;
    }
  }
};

// Counts the hits of an automatic N-d launch: the thread at grid<3>() (x, y, z) adds one to
// hits(z, y, x) (x the last axis, as a C-order array of shape (nz, ny, nx) is covered by size
// {nx, ny, nz}; the axes hits lacks have extent 1), so an exact cover leaves all ones. Thread 0
// of block 0 stores blockDim and gridDim in dims(0..5).
template <int N>
struct Hits {
  LOOM_HD void operator()(const ThreadCtx& t, View<std::int32_t, N> hits,
                          View<std::int64_t> dims) const {
    const auto [x, y, z] = t.grid<3>();
    if (t.blockIdx.x == 0 && t.blockIdx.y == 0 && t.blockIdx.z == 0 && t.thread_rank() == 0) {
      const std::int64_t v[6] = {t.blockDim.x, t.blockDim.y, t.blockDim.z,
                                 t.gridDim.x,  t.gridDim.y,  t.gridDim.z};
      for (int k = 0; k < 6; ++k) dims(k) = v[k];
    }
    std::int64_t n[3] = {1, 1, 1};  // x, y, z extents
    for (int k = 0; k < N; ++k) n[k] = hits.size(N - 1 - k);
    if (x >= n[0] || y >= n[1] || z >= n[2]) return;
    if constexpr (N == 1) {
      atomic_add(&hits(x), 1);
    } else if constexpr (N == 2) {
      atomic_add(&hits(y, x), 1);
    } else {
      atomic_add(&hits(z, y, x), 1);
    }
  }
};

// Warp functions (issue 15). A thread's row in the outputs is its linear index in a 1-d grid,
// blockIdx.x * threads a block + thread_rank(), and its lane thread_rank() % 32 whatever the
// block's shape. The mask a warp uses is the `mask` argument less the lanes its block lacks (a
// partial last warp), and only lanes of it call: the others leave their rows alone.
LOOM_HD inline std::int64_t warp_row(const ThreadCtx& t) {
  return std::int64_t{t.blockIdx.x} * t.blockDim.count() + t.thread_rank();
}
LOOM_HD inline std::uint32_t warp_lanes(const ThreadCtx& t) {
  const std::int64_t k = t.blockDim.count() - t.thread_rank() / kWarpSize * kWarpSize;
  return k >= kWarpSize ? kFullMask : (std::uint32_t{1} << k) - 1;
}
LOOM_HD inline int popcount32(std::uint32_t m) {
  int n = 0;
  for (; m; m &= m - 1) ++n;
  return n;
}

// each_thread(active, f): every thread adds 1 to its own cell in each phase it runs: a phase of
// `active` threads, one of none, one of the whole block, one of more than it, so cell (block,
// rank) ends as 2 + (rank < active); count[b] is how many threads ran the first phase.
struct ActiveThreads {
  LOOM_HD void operator()(const BlockCtx& b, View<std::int32_t, 2> cell, View<std::int32_t> count,
                          std::int32_t active) const {
    const View<std::int32_t> n = b.shared_array<std::int32_t>(1);
    b.each_thread(1, [&](const ThreadCtx&) { n(0) = 0; });
    b.each_thread(active, [&](const ThreadCtx& t) {
      cell(b.blockIdx.x, t.thread_rank()) += 1;
      atomic_add(&n(0), std::int32_t{1});
    });
    b.each_thread(0, [&](const ThreadCtx& t) { cell(b.blockIdx.x, t.thread_rank()) += 100; });
    b.each_thread(b.threads(),
                  [&](const ThreadCtx& t) { cell(b.blockIdx.x, t.thread_rank()) += 1; });
    b.each_thread(b.threads() + 5,
                  [&](const ThreadCtx& t) { cell(b.blockIdx.x, t.thread_rank()) += 1; });
    b.each_thread(1, [&](const ThreadCtx&) { count(b.blockIdx.x) = n(0); });
  }
};

// out(g, 0..3) = shfl_sync(m, v(g), src(g), width), shfl_up_sync(m, v(g), delta, width),
// shfl_down_sync(m, v(g), delta, width), shfl_xor_sync(m, v(g), lane_mask, width).
template <class T>
struct WarpShuffle {
  static constexpr bool uses_syncthreads = true;
  LOOM_HD void operator()(const ThreadCtx& t, View<const T> v, View<const std::int32_t> src,
                          View<T, 2> out, std::uint32_t mask, std::int32_t delta,
                          std::int32_t lane_mask, std::int32_t width) const {
    const std::int64_t g = warp_row(t);
    const std::uint32_t m = mask & warp_lanes(t);
    if (!(m >> t.laneid() & 1)) return;
    const T x = v(g);
    out(g, 0) = t.shfl_sync(m, x, src(g), width);
    out(g, 1) = t.shfl_up_sync(m, x, static_cast<unsigned>(delta), width);
    out(g, 2) = t.shfl_down_sync(m, x, static_cast<unsigned>(delta), width);
    out(g, 3) = t.shfl_xor_sync(m, x, lane_mask, width);
  }
};

// out(g, 0) = activemask() and out(g, 1) = laneid() on entry (every lane, converged); then for
// the lanes of m: ballot_sync, all_sync and any_sync of pred(g) != 0 in out(g, 2..4).
struct WarpVote {
  static constexpr bool uses_syncthreads = true;
  LOOM_HD void operator()(const ThreadCtx& t, View<const std::int32_t> pred,
                          View<std::uint32_t, 2> out, std::uint32_t mask) const {
    const std::int64_t g = warp_row(t);
    out(g, 0) = t.activemask();
    out(g, 1) = static_cast<std::uint32_t>(t.laneid());
    const std::uint32_t m = mask & warp_lanes(t);
    if (!(m >> t.laneid() & 1)) return;
    const bool p = pred(g) != 0;
    out(g, 2) = t.ballot_sync(m, p);
    out(g, 3) = t.all_sync(m, p);
    out(g, 4) = t.any_sync(m, p);
  }
};

// The lanes of m pass values through shared memory, twice, with syncwarp(m) between writing and
// reading and between reading and writing again: out(g, k) = v(row of the next lane of m after
// this one, cyclically) + k. Without the barriers host lanes (which run one at a time) would read
// values not yet written.
struct WarpSyncShared {
  static constexpr bool uses_syncthreads = true;
  LOOM_HD void operator()(const ThreadCtx& t, View<const std::int32_t> v, View<std::int32_t, 2> out,
                          std::uint32_t mask) const {
    const std::int64_t g = warp_row(t), r = t.thread_rank();
    const std::uint32_t m = mask & warp_lanes(t);
    const int lane = t.laneid();
    if (!(m >> lane & 1)) return;
    int next = lane;
    do {
      next = (next + 1) % kWarpSize;
    } while (!(m >> next & 1));
    const View<std::int32_t> s = t.shared_array<std::int32_t>(t.blockDim.count());
    for (int k = 0; k < 2; ++k) {
      s(r) = v(g) + k;
      t.syncwarp(m);
      out(g, k) = s(r - lane + next);
      t.syncwarp(m);
    }
  }
};

// The usual warp sum: five shfl_down_sync steps over full warps; lane 0 writes out(g / 32).
template <class T>
struct WarpSum {
  static constexpr bool uses_syncthreads = true;
  LOOM_HD void operator()(const ThreadCtx& t, View<const T> x, View<T> out) const {
    const std::int64_t g = warp_row(t);
    T v = x(g);
    for (int off = kWarpSize / 2; off > 0; off /= 2) v += t.shfl_down_sync(kFullMask, v, off);
    if (t.laneid() == 0) out(g / kWarpSize) = v;
  }
};

// A block sum by warps (1-d blocks of whole warps): each warp's sum by shfl_down_sync, the warp
// sums through LOOM_SHARED memory and a barrier, and warp 0 sums those into out(blockIdx.x).
template <class T>
struct BlockSumWarps {
  static constexpr bool uses_syncthreads = true;
  LOOM_HD void operator()(const ThreadCtx& t, View<const T> x, View<T> out) const {
    LOOM_SHARED T partial[kWarpSize];
    const std::int64_t i = t.grid();
    const int lane = t.laneid(), warp = static_cast<int>(t.threadIdx.x) / kWarpSize;
    T v = i < x.size() ? x(i) : T(0);
    for (int off = kWarpSize / 2; off > 0; off /= 2) v += t.shfl_down_sync(kFullMask, v, off);
    if (lane == 0) partial[warp] = v;
    t.syncthreads();
    if (warp != 0) return;
    v = lane < static_cast<int>(t.blockDim.x) / kWarpSize ? partial[lane] : T(0);
    for (int off = kWarpSize / 2; off > 0; off /= 2) v += t.shfl_down_sync(kFullMask, v, off);
    if (lane == 0) out(t.blockIdx.x) = v;
  }
};

// Warp-aggregated atomics (a CUDA idiom): the lanes with pred(g) != 0 take activemask(), its
// lowest lane adds their count to counter(0) once, shfl_sync gives the others its old value, and
// each stores old + its rank among them in slot(g); mask(g) = the activemask() it saw.
struct WarpAggregatedAtomic {
  static constexpr bool uses_syncthreads = true;
  LOOM_HD void operator()(const ThreadCtx& t, View<const std::int32_t> pred,
                          View<std::int32_t> counter, View<std::int32_t> slot,
                          View<std::uint32_t> mask) const {
    const std::int64_t g = warp_row(t);
    if (pred(g) == 0) return;
    const std::uint32_t m = t.activemask();
    const int lane = t.laneid();
    int leader = 0;
    while (!(m >> leader & 1)) ++leader;
    std::int32_t base = 0;
    if (lane == leader) base = atomic_add(&counter(0), popcount32(m));
    base = t.shfl_sync(m, base, leader);
    slot(g) = base + popcount32(m & ((std::uint32_t{1} << lane) - 1));
    mask(g) = m;
  }
};

// The kernels both halves register.
// Atomics on a block's shared memory (plain read-modify-writes on the host, atomic.hpp), as a
// block kernel: per block, old[b, r] = the count thread r saw from atomic_add(&s(0), 1), and
// cells[b] = {adds, max of ranks, inc wrap count, xor of ranks} once every thread has run.
struct SharedAtomics {
  LOOM_HD void operator()(const BlockCtx& b, View<std::int64_t, 2> old,
                          View<std::int64_t, 2> cells) const {
    const View<std::int64_t> s = b.shared_array<std::int64_t>(4);
    const View<std::uint32_t> w = b.shared_array<std::uint32_t>(1, 4 * sizeof(std::int64_t));
    b.each_thread([&](const ThreadCtx& t) {
      if (t.thread_rank() != 0) return;
      for (int k = 0; k < 4; ++k) s(k) = 0;
      w(0) = 0;
    });
    b.each_thread([&](const ThreadCtx& t) {
      const std::int64_t r = t.thread_rank();
      old(b.blockIdx.x, r) = atomic_add(&s(0), std::int64_t{1});
      atomic_max(&s(1), r);
      atomic_inc(&w(0), std::uint32_t{6});  // wraps to 0 after 6
      atomic_xor(&s(3), r);
    });
    b.each_thread([&](const ThreadCtx& t) {
      if (t.thread_rank() != 0) return;
      cells(b.blockIdx.x, 0) = s(0);
      cells(b.blockIdx.x, 1) = s(1);
      cells(b.blockIdx.x, 2) = w(0);
      cells(b.blockIdx.x, 3) = s(3);
    });
  }
};

// The thread's rank in the grid: blocks in CUDA's linear order (x fastest), then thread_rank().
LOOM_HD inline std::int64_t grid_rank(const ThreadCtx& t) {
  const std::int64_t block =
      (std::int64_t{t.blockIdx.z} * t.gridDim.y + t.blockIdx.y) * t.gridDim.x + t.blockIdx.x;
  return block * t.blockDim.count() + t.thread_rank();
}

// For every i of t.grid_stride(n): hits[i] += 1 and owner[i] = the thread's grid_rank. hits and
// owner have n + 1 elements (at least one), so that a visit to n shows.
struct GridStrideHits {
  LOOM_HD void operator()(const ThreadCtx& t, View<std::int32_t> hits, View<std::int64_t> owner,
                          std::int64_t n) const {
    const std::int64_t rank = grid_rank(t);
    for (const std::int64_t i : t.grid_stride(n)) {
      atomic_add(&hits(i), std::int32_t{1});
      owner(i) = rank;
    }
  }
};

// GridStrideHits in the middle phase of a block kernel, between two others.
struct GridStrideHitsBlock {
  LOOM_HD void operator()(const BlockCtx& b, View<std::int32_t> hits, View<std::int64_t> owner,
                          std::int64_t n) const {
    b.each_thread([&](const ThreadCtx&) {});
    b.each_thread([&](const ThreadCtx& t) { GridStrideHits{}(t, hits, owner, n); });
    b.each_thread([&](const ThreadCtx&) {});
  }
};

// The classic missing `if (i < n)`: a grid wider than the arrays reads x[i] and writes out[i]
// past their ends. Checked launches (tests/kernels/test_checked.cpp) must record the first and
// touch nothing past either array.
struct MissingGuard {
  LOOM_HD void operator()(const loom::ThreadCtx& t, loom::View<const float> x,
                          loom::View<float> out) const {
    const std::int64_t i = t.grid();
    out(i) = x(i) + 1.0f;
  }
};

// Guarded reads, a shifted write: out[i + 1] = x[i] writes out[n] in the last thread.
struct ShiftedWrite {
  LOOM_HD void operator()(const loom::ThreadCtx& t, loom::View<const float> x,
                          loom::View<float> out) const {
    const std::int64_t i = t.grid();
    if (i < x.size()) out(i + 1) = x(i);
  }
};

// A 2-d view walked one column too far through a row view: x[i][ncols] (operator[] then ()).
struct RowPastEnd {
  LOOM_HD void operator()(const loom::ThreadCtx& t, loom::View<const float, 2> x,
                          loom::View<float> out) const {
    const std::int64_t i = t.grid();
    if (i < x.size(0)) out(i) = x[i](x.size(1) - 1) + x[i](i == 1 ? x.size(1) : 0);
  }
};

inline void register_common(loom::Registrar& reg) {
  register_gufuncs(reg);
  using i32 = std::int32_t;
  using u32 = std::uint32_t;
  using i64 = std::int64_t;
  using u64 = std::uint64_t;
  using loom::def::kernel;
  kernel<MissingGuard>(reg, "t_missing_guard", "out[i] = x[i] + 1 without `if (i < n)`");
  kernel<ShiftedWrite>(reg, "t_shifted_write", "out[i + 1] = x[i]: writes out[n]");
  kernel<RowPastEnd>(reg, "t_row_past_end", "out[i] = x[i][ncols - 1] + x[1][ncols]");
  kernel<AtomicAdd<i32>, AtomicAdd<u32>, AtomicAdd<i64>, AtomicAdd<u64>, AtomicAdd<float>,
         AtomicAdd<double>>(reg, "t_atomic_add", "old[i] = atomic_add(&cell[0], v)");
  kernel<AtomicSub<i32>, AtomicSub<u32>, AtomicSub<i64>, AtomicSub<u64>, AtomicSub<float>,
         AtomicSub<double>>(reg, "t_atomic_sub", "old[i] = atomic_sub(&cell[0], v)");
  kernel<AtomicMax<i32>, AtomicMax<u32>, AtomicMax<i64>, AtomicMax<u64>, AtomicMax<float>,
         AtomicMax<double>>(reg, "t_atomic_max", "old[i] = atomic_max(&cell[0], vals[i])");
  kernel<AtomicMin<i32>, AtomicMin<u32>, AtomicMin<i64>, AtomicMin<u64>, AtomicMin<float>,
         AtomicMin<double>>(reg, "t_atomic_min", "old[i] = atomic_min(&cell[0], vals[i])");
  kernel<AtomicExch<i32>, AtomicExch<u32>, AtomicExch<i64>, AtomicExch<u64>, AtomicExch<float>,
         AtomicExch<double>>(reg, "t_atomic_exch", "old[i] = atomic_exch(&cell[0], vals[i])");
  kernel<AtomicCasOnce<i32>, AtomicCasOnce<u32>, AtomicCasOnce<i64>, AtomicCasOnce<u64>,
         AtomicCasOnce<float>, AtomicCasOnce<double>>(
      reg, "t_atomic_cas_once", "old[i] = atomic_cas(&cell[0], expected, vals[i])");
  kernel<AtomicCasCounter<i32>, AtomicCasCounter<u32>, AtomicCasCounter<i64>, AtomicCasCounter<u64>,
         AtomicCasCounter<float>, AtomicCasCounter<double>>(
      reg, "t_atomic_cas_counter", "cell[0] += 1 by a CAS loop; old[i] = value replaced");
  kernel<AtomicVals<i32, NanMaxOp>, AtomicVals<u32, NanMaxOp>, AtomicVals<i64, NanMaxOp>,
         AtomicVals<u64, NanMaxOp>, AtomicVals<float, NanMaxOp>, AtomicVals<double, NanMaxOp>>(
      reg, "t_atomic_nanmax", "old[i] = atomic_nanmax(&cell[0], vals[i])");
  kernel<AtomicVals<i32, NanMinOp>, AtomicVals<u32, NanMinOp>, AtomicVals<i64, NanMinOp>,
         AtomicVals<u64, NanMinOp>, AtomicVals<float, NanMinOp>, AtomicVals<double, NanMinOp>>(
      reg, "t_atomic_nanmin", "old[i] = atomic_nanmin(&cell[0], vals[i])");
  kernel<AtomicVals<i32, AndOp>, AtomicVals<u32, AndOp>, AtomicVals<i64, AndOp>,
         AtomicVals<u64, AndOp>>(reg, "t_atomic_and", "old[i] = atomic_and(&cell[0], vals[i])");
  kernel<AtomicVals<i32, OrOp>, AtomicVals<u32, OrOp>, AtomicVals<i64, OrOp>,
         AtomicVals<u64, OrOp>>(reg, "t_atomic_or", "old[i] = atomic_or(&cell[0], vals[i])");
  kernel<AtomicVals<i32, XorOp>, AtomicVals<u32, XorOp>, AtomicVals<i64, XorOp>,
         AtomicVals<u64, XorOp>>(reg, "t_atomic_xor", "old[i] = atomic_xor(&cell[0], vals[i])");
  kernel<AtomicScalar<u32, IncOp>, AtomicScalar<u64, IncOp>>(reg, "t_atomic_inc",
                                                             "old[i] = atomic_inc(&cell[0], v)");
  kernel<AtomicScalar<u32, DecOp>, AtomicScalar<u64, DecOp>>(reg, "t_atomic_dec",
                                                             "old[i] = atomic_dec(&cell[0], v)");
  kernel<SharedTile2D>(reg, "t_shared_2d", "a block's tile in shared_array({rows, cols})");
  kernel<SharedTile3D>(reg, "t_shared_3d", "a block's tile in shared_array({d, rows, cols})");
  kernel<SharedFixed>(reg, "t_shared_fixed", "two LOOM_SHARED arrays read reversed");
  kernel<LocalArrays<false>>(reg, "t_local_arrays", "per-thread local_array sort and fill");
  kernel<LocalArrays<true>>(reg, "t_local_arrays_sync", "t_local_arrays with barriers");
  kernel<Coords>(reg, "t_coords", "one row of ThreadCtx coordinates per thread");
  kernel<CoordsSync>(reg, "t_coords_sync", "t_coords between two barriers");
  kernel<FillInt32>(reg, "t_fill_i32", "out[i] = v (int32 scalar)");
  kernel<Hits<1>, Hits<2>, Hits<3>>(reg, "t_hits", "hits[z, y, x] += 1 at grid<3>(), and dims");
  kernel<ScribbleOnConst>(reg, "t_scribble_const", "out = in, then writes -1 into const in");
  kernel<SharedAtomics>(reg, "t_shared_atomics", "atomics on shared memory, a block kernel");
  kernel<GridStrideHits>(reg, "t_grid_stride", "hits[i] += 1, owner[i] = rank over grid_stride(n)");
  kernel<GridStrideHitsBlock>(reg, "t_grid_stride_block", "t_grid_stride in a block kernel phase");
  kernel<WarpShuffle<i32>, WarpShuffle<u32>, WarpShuffle<i64>, WarpShuffle<u64>, WarpShuffle<float>,
         WarpShuffle<double>>(reg, "t_warp_shuffle",
                              "out(g, :) = shfl_sync, shfl_up_sync, shfl_down_sync, shfl_xor_sync");
  kernel<ActiveThreads>(reg, "t_active_threads", "each_thread(active, f) phases, counted");
  kernel<WarpVote>(reg, "t_warp_vote", "activemask, laneid, ballot_sync, all_sync, any_sync");
  kernel<WarpSyncShared>(reg, "t_warp_sync_shared", "values through shared memory and syncwarp");
  kernel<WarpSum<float>, WarpSum<double>, WarpSum<i32>>(reg, "t_warp_sum",
                                                        "a warp sum by shfl_down_sync");
  kernel<BlockSumWarps<float>, BlockSumWarps<double>>(reg, "t_block_sum_warps",
                                                      "a block sum by warp sums and a barrier");
  kernel<WarpAggregatedAtomic>(reg, "t_warp_aggregated_atomic",
                               "activemask, one atomic a warp, shfl_sync of the old value");
}

}  // namespace loom::test_kernels
