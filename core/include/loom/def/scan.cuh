// accumulate's CUDA loops (ScanCall), the scans of a binary op T(T,T): in order per line for a
// non-reorderable op (a thread per line, or ordered_lines.cuh's block per line), a single-pass tile
// scan whose association is fixed by the position for a reorderable one. methods.cuh says why not
// cub::DeviceScan. Only included by .cu files.
#pragma once
#include <cstdint>
#include <cuda/atomic>
#include <string>
#include <type_traits>

#include "loom/def/device_access.cuh"
#include "loom/def/device_fold.cuh"
#include "loom/def/launch.cuh"
#include "loom/def/ordered_lines.cuh"
#include "loom/registry.hpp"

namespace loom::def::cu {

// ---- accumulate -------------------------------------------------------------------------------

// A ScanCall's lines (reduce.cuh's LineParams): the outer dims with out's and x's strides.
using ScanParams = LineParams;

inline ScanParams scan_params(const ScanCall& c) {
  if (c.outer_shape.size() > static_cast<std::size_t>(kMaxDims)) {
    throw DeviceError("accumulate CUDA loop: the input has " +
                      std::to_string(c.outer_shape.size() + 1) + " dimensions; the CUDA loops " +
                      "take at most " + std::to_string(kMaxDims + 1) +
                      ": make it contiguous (copy()) and reshape first");
  }
  ScanParams p{};
  p.out = c.out;
  p.x = c.x;
  p.nd = static_cast<int>(c.outer_shape.size());
  p.lines = 1;
  for (int k = 0; k < p.nd; ++k) {
    p.shape[k] = c.outer_shape[k];
    p.sout[k] = c.outer_out_strides[k];
    p.sx[k] = c.outer_x_strides[k];
    p.lines *= c.outer_shape[k];
  }
  p.n = c.n;
  p.out_step = c.out_step;
  p.x_step = c.x_step;
  return p;
}

// A thread per line, neighbouring threads on neighbouring lines: out[i] = f(out[i-1], x[i]) in
// order. U loads are issued ahead of the dependent chain (out and x do not overlap).
template <class F, class T>
__global__ void scan_thread(F f, ScanParams p) {
  constexpr int U = 4;
  const std::int64_t tid = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::int64_t nth = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t l = tid; l < p.lines; l += nth) {
    std::int64_t xo, oo;
    offset_pair(l, p.nd, p.shape, p.sx, p.sout, xo, oo);
    const char* x = p.x + xo;
    char* o = p.out + oo;
    T a = load_as<T>(x);
    store_as(o, a);
    std::int64_t i = 1;
    for (; i + U <= p.n; i += U) {
      T v[U];
#pragma unroll
      for (int u = 0; u < U; ++u) v[u] = load_as<T>(x + (i + u) * p.x_step);
#pragma unroll
      for (int u = 0; u < U; ++u) {
        a = f(a, v[u]);
        store_as(o + (i + u) * p.out_step, a);
      }
    }
    for (; i < p.n; ++i) {
      a = f(a, load_as<T>(x + i * p.x_step));
      store_as(o + i * p.out_step, a);
    }
  }
}

// ---- long lines: a single-pass scan whose association is fixed by the position --------------
//
// Each line is cut into tiles of kThreads * I elements; tiles are taken in order (line by line)
// from a ticket counter. A tile scans its elements (each thread its I neighbours in order, then
// the threads' totals over a fixed shuffle tree) and publishes its total at once; its prefix is
// then the fold, in a fixed order, of (1) the prefix of its super-group of kScanL1 * kScanL2
// tiles, chained from one super-group to the next, (2) the totals of the groups of kScanL1 tiles
// before it in its super-group and (3) the totals of the tiles before it in its group. The last
// tile of a group publishes the group's total, the last of a super-group the next super-group's
// prefix. Unlike a decoupled look-back (CUB's DeviceScan, whose float results vary from run to
// run with how far each tile looks back), which partial totals a tile combines never depends on
// timing: the same input gives the same bits on every run and every GPU. A tile waits only on
// tiles with smaller tickets, which are running or done, so the scan cannot deadlock.

inline constexpr int kScanL1 = 32;  // tiles per group: one lane each
inline constexpr int kScanL2 = 32;  // groups per super-group: one lane each

template <class T>
constexpr int scan_items() {
  return sizeof(T) <= 4 ? 8 : sizeof(T) <= 8 ? 4 : 2;
}

template <class T>
struct TileScan {
  ScanParams p;
  bool vec;  // contiguous lines, 16-byte aligned: each thread loads and stores I elements at once
  std::int64_t tiles, groups, supers;  // per line (supers: one more than there are, slot 0 unused)
  T* tile_total;                       // [line][tile]
  T* group_total;                      // [line][group], written by the group's last tile
  T* super_prefix;  // [line][super-group]: the fold of the line before the super-group
  unsigned* flags;  // the ticket, then one per tile, group and super-group slot (zeroed before)
};

template <class T>
__device__ __forceinline__ void publish(T* slot, unsigned* flag, T v) {
  *slot = v;
  cuda::atomic_ref<unsigned, cuda::thread_scope_device>(*flag).store(1u,
                                                                     cuda::memory_order_release);
}

// Waits for a published value (the caller then fences once and reads it with read_published).
__device__ __forceinline__ void await_flag(unsigned* flag) {
  cuda::atomic_ref<unsigned, cuda::thread_scope_device> a(*flag);
  while (a.load(cuda::memory_order_relaxed) == 0u) __nanosleep(40);
}

// A value another block published, read past this SM's L1.
template <class T>
__device__ __forceinline__ T read_published(const T* p) {
  if constexpr (std::is_arithmetic_v<T>) {
    return *reinterpret_cast<const volatile T*>(p);
  } else if constexpr (sizeof(T) == 2) {  // float16: one 2-byte load
    const unsigned short w = __ldcg(reinterpret_cast<const unsigned short*>(p));
    T t;
    memcpy(&t, &w, 2);
    return t;
  } else {
    static_assert(sizeof(T) % 4 == 0, "the tile scan reads published values in 2- or 4-byte words");
    union {
      T t;
      unsigned w[sizeof(T) / 4];
    } u{};
#pragma unroll
    for (int k = 0; k < static_cast<int>(sizeof(T) / 4); ++k) {
      u.w[k] = __ldcg(reinterpret_cast<const unsigned*>(p) + k);
    }
    return u.t;
  }
}

// One warp folds `count` (<= 32) published values, lane l the one at first + l, in the fixed
// warp tree; lane 0 ends with the fold.
template <class F, class T>
__device__ __forceinline__ void fold_published(const F& f, const T* vals, unsigned* flags,
                                               std::int64_t first, std::int64_t count, T& acc,
                                               bool& has) {
  const int lane = static_cast<int>(threadIdx.x & 31);
  has = lane < count;
  if (has) await_flag(&flags[first + lane]);
  cuda::atomic_thread_fence(cuda::memory_order_acquire, cuda::thread_scope_device);
  acc = has ? read_published(&vals[first + lane]) : T{};
  warp_fold(f, acc, has);
}

template <class F, class T>
__global__ void __launch_bounds__(kThreads) scan_tiles(F f, TileScan<T> s) {
  constexpr int I = scan_items<T>();
  constexpr std::int64_t TS = std::int64_t{kThreads} * I;
  constexpr int kWarps = kThreads / 32;
  __shared__ unsigned ticket_sh;
  __shared__ T warp_sh[kWarps];  // the warps' totals, then their exclusive prefixes
  __shared__ T total_sh;
  __shared__ T part[3];  // the super-group's prefix, the groups before, the tiles before
  __shared__ bool part_has[3];
  const int tid = static_cast<int>(threadIdx.x), lane = tid & 31, warp = tid >> 5;
  const ScanParams& p = s.p;
  if (tid == 0) ticket_sh = atomicAdd(s.flags, 1u);
  __syncthreads();
  const std::int64_t ticket = ticket_sh;
  const std::int64_t line = ticket / s.tiles, t = ticket - line * s.tiles;
  unsigned* tile_flag = s.flags + 1 + line * s.tiles;
  unsigned* group_flag = s.flags + 1 + s.tiles * p.lines + line * s.groups;
  unsigned* super_flag = s.flags + 1 + (s.tiles + s.groups) * p.lines + line * s.supers;
  T* tile_total = s.tile_total + line * s.tiles;
  T* group_total = s.group_total + line * s.groups;
  T* super_prefix = s.super_prefix + line * s.supers;
  std::int64_t xo, oo;
  offset_pair(line, p.nd, p.shape, p.sx, p.sout, xo, oo);
  const char* x = p.x + xo;
  char* out = p.out + oo;
  const std::int64_t first = t * TS + std::int64_t{tid} * I;
  const std::int64_t left = p.n - first;
  const int cnt = left <= 0 ? 0 : (left >= I ? I : static_cast<int>(left));
  T v[I];
  if (s.vec && cnt == I) {
    const RedPack<T, I> pk =
        *reinterpret_cast<const RedPack<T, I>*>(x + first * static_cast<std::int64_t>(sizeof(T)));
#pragma unroll
    for (int i = 0; i < I; ++i) v[i] = pk.v[i];
  } else {
#pragma unroll
    for (int i = 0; i < I; ++i) v[i] = i < cnt ? load_as<T>(x + (first + i) * p.x_step) : T{};
  }
  // The thread's elements in order, and its total.
  T tot = v[0];
#pragma unroll
  for (int i = 1; i < I; ++i) {
    if (i < cnt) {
      v[i] = f(v[i - 1], v[i]);
      tot = v[i];
    }
  }
  // The threads with elements are a prefix of the block: per warp, an inclusive shuffle scan of
  // their totals; the lane before's value is the exclusive one, the warp's total is at its last
  // thread with elements.
  const bool has = cnt > 0;
  T inc = tot;
#pragma unroll
  for (int off = 1; off < 32; off <<= 1) {
    const T w = shfl_up(inc, off);
    if (has && lane >= off) inc = f(w, inc);
  }
  const T ex = shfl_up(inc, 1);
  const int nvalid = __popc(__ballot_sync(0xffffffffu, has));
  const T wt = shfl_idx(inc, nvalid > 0 ? nvalid - 1 : 0);
  if (lane == 0 && nvalid > 0) warp_sh[warp] = wt;
  const std::int64_t in_tile = p.n - t * TS;  // > 0: a line has exactly `tiles` tiles
  const int nwarps = static_cast<int>(in_tile >= TS ? kWarps : ((in_tile + I - 1) / I + 31) / 32);
  __syncthreads();
  if (tid == 0) {  // the warps' exclusive prefixes and the tile's total, in order
    T run = warp_sh[0];
    for (int w = 1; w < nwarps; ++w) {
      const T cur = warp_sh[w];
      warp_sh[w] = run;
      run = f(run, cur);
    }
    total_sh = run;
    publish(&tile_total[t], &tile_flag[t], run);
  }
  __syncthreads();
  const std::int64_t g = t / kScanL1, k1 = t - g * kScanL1;
  const std::int64_t sg = g / kScanL2, k2 = g - sg * kScanL2;
  if (warp == 0) {  // the tiles before in the group; the last tile publishes the group's total
    T acc;
    bool ah;
    fold_published(f, tile_total, tile_flag, t - k1, k1, acc, ah);
    if (lane == 0) {
      part[2] = acc;
      part_has[2] = ah;
      if (k1 == kScanL1 - 1) {
        publish(&group_total[g], &group_flag[g], ah ? f(acc, total_sh) : total_sh);
      }
    }
  } else if (warp == 1) {  // the groups before in the super-group
    T acc;
    bool ah;
    fold_published(f, group_total, group_flag, g - k2, k2, acc, ah);
    if (lane == 0) {
      part[1] = acc;
      part_has[1] = ah;
    }
  } else if (warp == 2 && lane == 0) {  // the super-group's prefix
    part_has[0] = sg > 0;
    if (sg > 0) {
      await_flag(&super_flag[sg]);
      cuda::atomic_thread_fence(cuda::memory_order_acquire, cuda::thread_scope_device);
      part[0] = read_published(&super_prefix[sg]);
    }
  }
  __syncthreads();
  // The tile's prefix: super-group, then groups, then tiles, left to right.
  T pre{};
  bool ph = false;
#pragma unroll
  for (int k = 0; k < 3; ++k) {
    if (part_has[k]) {
      pre = ph ? f(pre, part[k]) : part[k];
      ph = true;
    }
  }
  if (tid == 0 && k1 == kScanL1 - 1 && k2 == kScanL2 - 1) {
    // The last tile of a super-group: the next one's prefix is this tile's prefix, then its total.
    publish(&super_prefix[sg + 1], &super_flag[sg + 1], ph ? f(pre, total_sh) : total_sh);
  }
  // Each element: ((tile prefix, warp prefix), lane prefix), then its own in-thread scan.
  if (warp > 0 && has) {
    pre = ph ? f(pre, warp_sh[warp]) : warp_sh[warp];
    ph = true;
  }
  if (lane > 0 && has) {
    pre = ph ? f(pre, ex) : ex;
    ph = true;
  }
  if (ph) {
#pragma unroll
    for (int i = 0; i < I; ++i) {
      if (i < cnt) v[i] = f(pre, v[i]);
    }
  }
  if (s.vec && cnt == I) {
    RedPack<T, I> pk;
#pragma unroll
    for (int i = 0; i < I; ++i) pk.v[i] = v[i];
    *reinterpret_cast<RedPack<T, I>*>(out + first * static_cast<std::int64_t>(sizeof(T))) = pk;
  } else {
#pragma unroll
    for (int i = 0; i < I; ++i) {
      if (i < cnt) store_as(out + (first + i) * p.out_step, v[i]);
    }
  }
}

template <class F, class T>
void scan_tiles_launch(const F& f, const ScanParams& p, cudaStream_t stream) {
  constexpr int I = scan_items<T>();
  constexpr std::int64_t TS = std::int64_t{kThreads} * I;
  constexpr auto sz = static_cast<std::int64_t>(sizeof(T));
  TileScan<T> s{};
  s.p = p;
  s.tiles = ceil_div(p.n, TS);
  s.groups = ceil_div(s.tiles, kScanL1);
  s.supers = ceil_div(s.groups, kScanL2) + 1;
  const std::int64_t blocks = s.tiles * p.lines;
  if (blocks > std::int64_t{0x7fffffff}) {
    throw DeviceError("accumulate CUDA loop: " + std::to_string(p.lines) + " lines of " +
                      std::to_string(p.n) + " elements are more tiles than one launch takes");
  }
  bool vec = packable<T> && (I * sz) % 16 == 0 && p.x_step == sz && p.out_step == sz &&
             reinterpret_cast<std::uintptr_t>(p.x) % 16 == 0 &&
             reinterpret_cast<std::uintptr_t>(p.out) % 16 == 0;
  for (int k = 0; vec && k < p.nd; ++k) vec = p.sx[k] % 16 == 0 && p.sout[k] % 16 == 0;
  s.vec = vec;
  auto round = [](std::int64_t b) { return (b + 255) / 256 * 256; };
  const std::int64_t slots = (s.tiles + s.groups + s.supers) * p.lines;
  const std::int64_t vals = round(slots * sz);
  const std::int64_t flags = round((1 + slots) * 4);
  void* tmp = nullptr;
  check(cudaMallocAsync(&tmp, static_cast<std::size_t>(vals + flags), stream),
        "cudaMallocAsync (accumulate scratch)");
  s.tile_total = static_cast<T*>(tmp);
  s.group_total = s.tile_total + s.tiles * p.lines;
  s.super_prefix = s.group_total + s.groups * p.lines;
  s.flags = reinterpret_cast<unsigned*>(static_cast<char*>(tmp) + vals);
  cudaError_t err = cudaMemsetAsync(s.flags, 0, static_cast<std::size_t>(flags), stream);
  if (err == cudaSuccess) {
    scan_tiles<F, T><<<static_cast<unsigned>(blocks), kThreads, 0, stream>>>(f, s);
    err = cudaGetLastError();
  }
  (void)cudaFreeAsync(tmp, stream);
  check(err, "accumulate (tile scan kernel launch)");
}

// The loop of a non-reorderable op: every line in order, a thread per line.
template <class F, class T>
void scan_ordered_launch(const ScanCall& c, const void* data) {
  const F& f = *static_cast<const F*>(data);
  if (c.n <= 0) return;
  const ScanParams p = scan_params(c);
  if (p.lines <= 0) return;
  if (lines_by_block(p)) return ordered_lines_launch<F, T>(f, p, true, stream_of(c.stream));
  constexpr auto kernel = &scan_thread<F, T>;
  kernel<<<grid_for<kernel>(p.lines), kThreads, 0, stream_of(c.stream)>>>(f, p);
  check_launch("accumulate kernel launch");
}

// The loop of a reorderable op (a call that says otherwise runs in order): the tile scan when the
// line dim is the input's innermost (threads read neighbours) and the lines are not short, or when
// there are too few lines for a thread each to fill the GPU; else a thread per line (neighbouring
// threads read neighbouring lines).
template <class F, class T>
void scan_launch(const ScanCall& c, const void* data) {
  if (!c.reorderable) return scan_ordered_launch<F, T>(c, data);
  const F& f = *static_cast<const F*>(data);
  if (c.n <= 0) return;
  const ScanParams p = scan_params(c);
  if (p.lines <= 0) return;
  const cudaStream_t stream = stream_of(c.stream);
  bool innermost = true;
  const std::int64_t step = p.x_step < 0 ? -p.x_step : p.x_step;
  for (int k = 0; k < p.nd; ++k) {
    if (p.shape[k] > 1 && (p.sx[k] < 0 ? -p.sx[k] : p.sx[k]) < step) innermost = false;
  }
  constexpr std::int64_t kShortLine = 256;  // a tile would leave most of its threads idle
  constexpr std::int64_t kManyLines = std::int64_t{1} << 14;
  const bool tiles = innermost ? p.n >= kShortLine : (p.lines < kManyLines && p.n >= kShortLine);
  if (tiles) return scan_tiles_launch<F, T>(f, p, stream);
  constexpr auto kernel = &scan_thread<F, T>;
  kernel<<<grid_for<kernel>(p.lines), kThreads, 0, stream>>>(f, p);
  check_launch("accumulate kernel launch");
}

}  // namespace loom::def::cu
