// def::reduce<F, Sigs...>(reg, name, identity, doc), the CUDA twin of reduce.hpp. The call's
// iteration {out, x} splits into kept dims (out strided) and reduced dims (out stride 0); each
// output's reduced elements are cut into segments whose length depends on the shape alone. A
// segment is folded by a block with 16-byte loads (one contiguous reduced dim: full and row
// reductions), by a warp (other reduced-innermost cases: lanes read neighbours) or by one thread
// (kept innermost dim: threads read neighbours), in a fixed order ending in fixed shuffle trees;
// a second kernel folds each output's segments in order into the pre-filled output (a full
// reduction of one contiguous run: red_full, at most 2048 segments, then one block). No atomics
// and nothing taken from the device: the same input gives the same bits on every run and every
// GPU. Not cub::DeviceReduce (run-to-run deterministic on one GPU, per its documentation): it
// needs the identity as a host value, and max/min have none (the call pre-fills the output with
// the first element instead). A non-reorderable op (ReduceCall::ordered) takes none of this: its
// outputs fold strictly left to right, a block each streaming the elements through shared memory
// (ordered_lines, for few or long rows) or a thread each (red_thread). Only included by .cu files.
#pragma once
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>

#include "loom/def/desc.hpp"
#include "loom/def/launch.cuh"
#include "loom/def/signature_of.hpp"
#include "loom/float16.hpp"
#include "loom/registry.hpp"

namespace loom::def {

namespace cu {

template <class T>
__device__ __forceinline__ T shfl_down(T v, int off) {
  if constexpr (std::is_same_v<T, bool>) {
    return __shfl_down_sync(0xffffffffu, static_cast<int>(v), off) != 0;
  } else if constexpr (std::is_arithmetic_v<T> && (sizeof(T) == 4 || sizeof(T) == 8)) {
    return __shfl_down_sync(0xffffffffu, v, off);
  } else {
    constexpr int kWords = (sizeof(T) + 3) / 4;
    union {
      T t;
      int w[kWords];
    } u{v};
#pragma unroll
    for (int k = 0; k < kWords; ++k) u.w[k] = __shfl_down_sync(0xffffffffu, u.w[k], off);
    return u.t;
  }
}

// Lane 0 ends with the fold of every lane that has a value, lower lanes on the left, in a tree
// fixed by the lane numbers.
template <class F, class T>
__device__ __forceinline__ void warp_fold(const F& f, T& acc, bool& has) {
  const int lane = static_cast<int>(threadIdx.x & 31);
#pragma unroll
  for (int off = 16; off > 0; off >>= 1) {
    const T o = shfl_down(acc, off);
    const bool oh = __shfl_down_sync(0xffffffffu, has ? 1 : 0, off) != 0;
    if (lane + off < 32 && oh) {
      acc = has ? f(acc, o) : o;
      has = true;
    }
  }
}

// The block's fold of every thread's (acc, has) in an order fixed by the thread numbers: each
// warp's tree, then warp 0's tree over the warps' results in the kThreads / 32 shared slots
// part / part_has. Thread 0 ends with the block's value in acc, and the result says whether there
// is one. The caller synchronizes before it reuses the slots.
template <class F, class T>
__device__ __forceinline__ bool block_fold(const F& f, T& acc, bool has, T* part, bool* part_has) {
  constexpr int kWarps = kThreads / 32;
  const int lane = static_cast<int>(threadIdx.x & 31), warp = static_cast<int>(threadIdx.x >> 5);
  warp_fold(f, acc, has);
  if (lane == 0) {
    part[warp] = acc;
    part_has[warp] = has;
  }
  __syncthreads();
  if (warp != 0) return false;
  has = lane < kWarps && part_has[lane];
  acc = has ? part[lane] : T{};
  warp_fold(f, acc, has);
  return lane == 0 && has;
}

// The offsets of flat index j (C order over nd dims) in two operands, in one loop that is not
// unrolled: called once per output or line, where code size matters more than a few cycles.
__device__ __forceinline__ void offset_pair(std::int64_t j, int nd, const std::int64_t* shape,
                                            const std::int64_t* sa, const std::int64_t* sb,
                                            std::int64_t& oa, std::int64_t& ob) {
  oa = 0;
  ob = 0;
#pragma unroll 1
  for (int k = nd - 1; k >= 0; --k) {
    const std::int64_t n = shape[k];
    std::int64_t q, r;
    if (((j | n) >> 32) == 0) {
      const auto uj = static_cast<std::uint32_t>(j), un = static_cast<std::uint32_t>(n);
      q = uj / un;
      r = uj - static_cast<std::uint32_t>(q) * un;
    } else {
      q = j / n;
      r = j - q * n;
    }
    oa += r * sa[k];
    ob += r * sb[k];
    j = q;
  }
}

template <class T>
struct RedParams {
  char* out;
  const char* x;
  int nk, nr;                     // kept and reduced dims
  std::int64_t kshape[kMaxDims];  // kept dims, C order
  std::int64_t kout[kMaxDims];    // out's strides on them
  std::int64_t kx[kMaxDims];      // x's strides on them
  std::int64_t rshape[kMaxDims];  // reduced dims, C order
  std::int64_t rx[kMaxDims];
  std::int64_t M, L;       // outputs, elements reduced into each
  std::int64_t S, seglen;  // segments per output and their length
  T* partial;              // M * S values (output-major), null when S == 1
  bool vec;                // red_block: one contiguous reduced dim, rows 16-byte aligned
  // red_thread with S == 1 for a non-reorderable op: each output folds its elements strictly
  // left to right starting from its pre-filled value, ((out (op) x0) (op) x1) ..., as NumPy's
  // reduce defines it (no segments, no tree).
  bool ordered;
};

// Types loaded and stored 16 bytes at a time (RedPack) where the layout allows: the arithmetic
// types and float16.
template <class T>
constexpr bool packable = std::is_arithmetic_v<T> || std::is_same_v<T, float16_t>;

template <class T>
constexpr int red_vec_width() {
  return (packable<T> && sizeof(T) < 16 && 16 % sizeof(T) == 0) ? static_cast<int>(16 / sizeof(T))
                                                                : 1;
}

template <class T, int V>
struct alignas(16) RedPack {
  T v[V];
};

// The reductions fold in A = fold_t<F, T> (T unless the functor declares a wider fold_type):
// elements are converted as they are loaded, partials are kept in A, and a result is rounded to
// T once, when it joins the output.
template <class To, class From>
__device__ __forceinline__ To as(From v) {
  if constexpr (std::is_same_v<To, From>) {
    return v;
  } else {
    return static_cast<To>(v);
  }
}
template <class T, class A>
__device__ __forceinline__ A load_acc(const char* p) {
  return as<A>(*reinterpret_cast<const T*>(p));
}
// *o = f(*o, acc), computed in A.
template <class T, class F, class A>
__device__ __forceinline__ void join_out(const F& f, char* o, A acc) {
  T* t = reinterpret_cast<T*>(o);
  *t = as<T>(f(as<A>(*t), acc));
}

template <class T, class F, class A>
__device__ __forceinline__ void finish(const F& f, const RedParams<A>& p, std::int64_t m,
                                       std::int64_t s, A acc) {
  if (p.partial) {
    p.partial[m * p.S + s] = acc;
  } else {
    join_out<T>(f, p.out + offset_1(m, p.nk, p.kshape, p.kout), acc);
  }
}

// A warp per (output, segment); lane l folds elements l, l + 32, ... of the segment.
template <class F, class T>
__global__ void red_warp(F f, RedParams<fold_t<F, T>> p) {
  using A = fold_t<F, T>;
  const int lane = static_cast<int>(threadIdx.x & 31);
  const std::int64_t warp = (static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x) >> 5;
  const std::int64_t nwarps = (static_cast<std::int64_t>(gridDim.x) * blockDim.x) >> 5;
  const std::int64_t items = p.M * p.S;
  for (std::int64_t item = warp; item < items; item += nwarps) {
    const std::int64_t m = item / p.S, s = item - m * p.S;
    const char* x = p.x + offset_1(m, p.nk, p.kshape, p.kx);
    const std::int64_t j0 = s * p.seglen;
    const std::int64_t j1 = j0 + p.seglen < p.L ? j0 + p.seglen : p.L;
    A acc{};
    bool has = j0 + lane < j1;
    if (has) {
      acc = load_acc<T, A>(x + offset_1(j0 + lane, p.nr, p.rshape, p.rx));
      if (p.nr == 1) {
        const std::int64_t st = p.rx[0];
#pragma unroll 8
        for (std::int64_t j = j0 + lane + 32; j < j1; j += 32) {
          acc = f(acc, load_acc<T, A>(x + j * st));
        }
      } else {
        for (std::int64_t j = j0 + lane + 32; j < j1; j += 32) {
          acc = f(acc, load_acc<T, A>(x + offset_1(j, p.nr, p.rshape, p.rx)));
        }
      }
    }
    warp_fold(f, acc, has);
    if (lane == 0 && has) finish<T>(f, p, m, s, acc);
  }
}

// A block per (output, segment) of one contiguous reduced dim, rows 16-byte aligned: thread t
// folds vectors t, t + kThreads, ... of the segment into V accumulators (one per position in the
// vector) and joins them in order, threads t < V fold the scalar tail (fewer than V elements)
// after that; then each warp's fixed shuffle tree, then warp 0 over the warps in order. Each
// iteration of the block reads one contiguous 4 KiB, as CUB's tiles do.
template <class F, class T>
__global__ void __launch_bounds__(kThreads) red_block(F f, RedParams<fold_t<F, T>> p) {
  using A = fold_t<F, T>;
  constexpr int V = red_vec_width<T>();
  constexpr int kWarps = kThreads / 32;
  __shared__ A part[kWarps];
  __shared__ bool part_has[kWarps];
  const int t = static_cast<int>(threadIdx.x);
  const std::int64_t items = p.M * p.S;
  for (std::int64_t item = blockIdx.x; item < items; item += gridDim.x) {
    const std::int64_t m = item / p.S, s = item - m * p.S;
    const char* x = p.x + offset_1(m, p.nk, p.kshape, p.kx);
    const std::int64_t j0 = s * p.seglen;
    const std::int64_t j1 = j0 + p.seglen < p.L ? j0 + p.seglen : p.L;
    const auto* xv = reinterpret_cast<const RedPack<T, V>*>(x);
    const std::int64_t q0 = j0 / V, q1 = q0 + (j1 - j0) / V;
    A acc{};
    bool has = q0 + t < q1;
    if (has) {
      A a[V];
      const RedPack<T, V> first = xv[q0 + t];
#pragma unroll
      for (int l = 0; l < V; ++l) a[l] = as<A>(first.v[l]);
#pragma unroll 4
      for (std::int64_t q = q0 + t + kThreads; q < q1; q += kThreads) {
        const RedPack<T, V> w = xv[q];
#pragma unroll
        for (int l = 0; l < V; ++l) a[l] = f(a[l], as<A>(w.v[l]));
      }
      acc = a[0];
#pragma unroll
      for (int l = 1; l < V; ++l) acc = f(acc, a[l]);
    }
    const std::int64_t tail = q1 * V + t;
    if (t < V && tail < j1) {
      const A v = as<A>(reinterpret_cast<const T*>(x)[tail]);
      acc = has ? f(acc, v) : v;
      has = true;
    }
    if (block_fold(f, acc, has, part, part_has)) finish<T>(f, p, m, s, acc);
    __syncthreads();  // part[] is rewritten by the next item
  }
}

// The full reduction of one contiguous, 16-byte aligned run (one output): a block per segment,
// segments a whole number of kRedFullU * kThreads * V element tiles (the last one shorter). Per
// tile, thread t first loads its kRedFullU vectors (t, t + kThreads, ...: every warp load is one
// contiguous 512 bytes) and then folds them in order into its V accumulators, so that kRedFullU
// 16-byte loads per thread are in flight at once; the rest as red_block does. The segments'
// partials are folded by red_combine_full, one block.
inline constexpr int kRedFullU = 4;

template <class F, class T>
__global__ void __launch_bounds__(kThreads) red_full(F f, RedParams<fold_t<F, T>> p) {
  using A = fold_t<F, T>;
  constexpr int V = red_vec_width<T>();
  constexpr int U = kRedFullU;
  constexpr int kWarps = kThreads / 32;
  __shared__ A part[kWarps];
  __shared__ bool part_has[kWarps];
  const int t = static_cast<int>(threadIdx.x);
  const auto* __restrict__ xv = reinterpret_cast<const RedPack<T, V>*>(p.x);
  for (std::int64_t s = blockIdx.x; s < p.S; s += gridDim.x) {
    const std::int64_t j0 = s * p.seglen;
    const std::int64_t j1 = j0 + p.seglen < p.L ? j0 + p.seglen : p.L;
    const std::int64_t q0 = j0 / V, q1 = q0 + (j1 - j0) / V;
    const std::int64_t qfull = q0 + (q1 - q0) / (kThreads * U) * (kThreads * U);
    std::int64_t q = q0 + t;
    A a[V];
    bool has = false;
    if (q < qfull) {
      RedPack<T, V> w[U];
#pragma unroll
      for (int u = 0; u < U; ++u) w[u] = xv[q + u * kThreads];
#pragma unroll
      for (int l = 0; l < V; ++l) a[l] = as<A>(w[0].v[l]);
#pragma unroll
      for (int u = 1; u < U; ++u) {
#pragma unroll
        for (int l = 0; l < V; ++l) a[l] = f(a[l], as<A>(w[u].v[l]));
      }
      has = true;
      for (q += kThreads * U; q < qfull; q += kThreads * U) {
#pragma unroll
        for (int u = 0; u < U; ++u) w[u] = xv[q + u * kThreads];
#pragma unroll
        for (int u = 0; u < U; ++u) {
#pragma unroll
          for (int l = 0; l < V; ++l) a[l] = f(a[l], as<A>(w[u].v[l]));
        }
      }
    }
    for (; q < q1; q += kThreads) {
      const RedPack<T, V> w = xv[q];
#pragma unroll
      for (int l = 0; l < V; ++l) a[l] = has ? f(a[l], as<A>(w.v[l])) : as<A>(w.v[l]);
      has = true;
    }
    A acc{};
    if (has) {
      acc = a[0];
#pragma unroll
      for (int l = 1; l < V; ++l) acc = f(acc, a[l]);
    }
    const std::int64_t tail = q1 * V + t;
    if (t < V && tail < j1) {
      const A v = as<A>(reinterpret_cast<const T*>(p.x)[tail]);
      acc = has ? f(acc, v) : v;
      has = true;
    }
    if (block_fold(f, acc, has, part, part_has)) finish<T>(f, p, 0, s, acc);
    __syncthreads();  // part[] is rewritten by the next segment
  }
}

// One block folds red_full's S partials (thread t: partials t, t + kThreads, ... in order, then
// the fixed warp and block trees) and joins the pre-filled output.
template <class F, class T>
__global__ void __launch_bounds__(kThreads) red_combine_full(F f, RedParams<fold_t<F, T>> p) {
  using A = fold_t<F, T>;
  constexpr int kWarps = kThreads / 32;
  __shared__ A part[kWarps];
  __shared__ bool part_has[kWarps];
  const int t = static_cast<int>(threadIdx.x);
  A acc{};
  bool has = t < p.S;
  if (has) {
    acc = p.partial[t];
#pragma unroll 8
    for (std::int64_t s = t + kThreads; s < p.S; s += kThreads) acc = f(acc, p.partial[s]);
  }
  if (block_fold(f, acc, has, part, part_has)) {
    join_out<T>(f, p.out + offset_1(0, p.nk, p.kshape, p.kout), acc);
  }
}

// A thread per (output, segment), outputs fastest (neighbouring threads read neighbours when the
// innermost dim is kept); the segment is walked in C order with an odometer, no divisions. Also
// the whole of an ordered reduction (RedParams::ordered).
template <class F, class T>
__global__ void red_thread(F f, RedParams<fold_t<F, T>> p) {
  using A = fold_t<F, T>;
  const std::int64_t tid = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::int64_t nth = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  const std::int64_t items = p.M * p.S;
  for (std::int64_t item = tid; item < items; item += nth) {
    const std::int64_t s = item / p.M, m = item - s * p.M;
    std::int64_t xo, oo;
    offset_pair(m, p.nk, p.kshape, p.kx, p.kout, xo, oo);
    const char* x = p.x + xo;
    char* o = p.out + oo;
    const std::int64_t j0 = s * p.seglen;
    const std::int64_t j1 = j0 + p.seglen < p.L ? j0 + p.seglen : p.L;
    std::int64_t idx[kMaxDims];
    std::int64_t off = 0, rem = j0;
#pragma unroll 1
    for (int k = p.nr - 1; k >= 0; --k) {
      idx[k] = rem % p.rshape[k];
      rem /= p.rshape[k];
      off += idx[k] * p.rx[k];
    }
    A acc = load_acc<T, A>(x + off);
    if (p.ordered) acc = f(load_acc<T, A>(o), acc);
    const int last = p.nr - 1;
    const std::int64_t n_last = p.rshape[last], st_last = p.rx[last];
    for (std::int64_t j = j0 + 1; j < j1; ++j) {
      off += st_last;
      if (++idx[last] == n_last) {
        int k = last;
        while (k > 0 && idx[k] == p.rshape[k]) {
          off -= p.rshape[k] * p.rx[k];
          idx[k] = 0;
          --k;
          ++idx[k];
          off += p.rx[k];
        }
      }
      acc = f(acc, load_acc<T, A>(x + off));
    }
    if (p.partial) {
      p.partial[m * p.S + s] = acc;
    } else if (p.ordered) {
      *reinterpret_cast<T*>(o) = as<T>(acc);
    } else {
      join_out<T>(f, o, acc);
    }
  }
}

// A warp per output folds its segments' partials in order and joins the pre-filled output.
template <class F, class T>
__global__ void red_combine(F f, RedParams<fold_t<F, T>> p) {
  using A = fold_t<F, T>;
  const int lane = static_cast<int>(threadIdx.x & 31);
  const std::int64_t warp = (static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x) >> 5;
  const std::int64_t nwarps = (static_cast<std::int64_t>(gridDim.x) * blockDim.x) >> 5;
  for (std::int64_t m = warp; m < p.M; m += nwarps) {
    const A* part = p.partial + m * p.S;
    A acc{};
    bool has = lane < p.S;
    if (has) {
      acc = part[lane];
      for (std::int64_t s = lane + 32; s < p.S; s += 32) acc = f(acc, part[s]);
    }
    warp_fold(f, acc, has);
    if (lane == 0) join_out<T>(f, p.out + offset_1(m, p.nk, p.kshape, p.kout), acc);
  }
}

inline std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

// The call's geometry: kept dims (out strided) and reduced dims (out stride 0). False when there
// is nothing to do.
template <class T>
bool red_geometry(const ReduceCall& c, RedParams<T>& p) {
  const StridedIter& it = c.iter;
  if (it.nargs() != 2) {
    throw DeviceError("reduction CUDA loop: the call has " + std::to_string(it.nargs()) +
                      " operands, expected 2 (out, x)");
  }
  if (it.size() <= 0) return false;
  if (it.shape.size() > static_cast<std::size_t>(kMaxDims)) {
    throw DeviceError(dims_error(it, "reduction CUDA loop"));
  }
  p.out = it.base[0];
  p.x = it.base[1];
  p.M = 1;
  p.L = 1;
  const int nd = static_cast<int>(it.shape.size());
  for (int k = 0; k < nd; ++k) {
    if (it.strides[0][k] == 0) {
      p.rshape[p.nr] = it.shape[k];
      p.rx[p.nr++] = it.strides[1][k];
      p.L *= it.shape[k];
    } else {
      p.kshape[p.nk] = it.shape[k];
      p.kout[p.nk] = it.strides[0][k];
      p.kx[p.nk++] = it.strides[1][k];
      p.M *= it.shape[k];
    }
  }
  if (p.nr == 0) {  // nothing reduced (all reduced dims had size 1): out = f(out, x) elementwise
    p.rshape[0] = 1;
    p.rx[0] = 0;
    p.nr = 1;
  }
  return true;
}

// ---- lines in order (non-reorderable ops) ------------------------------------------------------

// Lines of `n` elements, one per index of the outer dims (C order), with out's and x's strides:
// an ordered reduction's outputs (out_step 0) or an accumulate's lines.
struct LineParams {
  char* out;
  const char* x;
  int nd;
  std::int64_t shape[kMaxDims];
  std::int64_t sout[kMaxDims];
  std::int64_t sx[kMaxDims];
  std::int64_t lines, n, out_step, x_step;
};

inline constexpr int kLineBytes = 8192;  // one staging buffer of ordered_lines

// A block per line, lines spread over blocks: warps 1.. stream the line through two shared
// buffers (neighbouring threads on neighbouring elements) while thread 0 folds the buffer loaded
// before strictly in order, ((x0 (op) x1) (op) x2) ...: one dependent op per element from shared
// memory instead of a global load's latency, for lines too few or too long for a thread each.
// scan: out[i] = the fold up to x[i], from x[0]; else the fold starts from out's value and only
// the result is written (an ordered reduction).
// A is the fold type of a reduction (fold_t); a scan passes A = T (accumulate rounds every step).
template <class F, class T, class A = T>
__global__ void __launch_bounds__(kThreads) ordered_lines(F f, LineParams p, bool scan) {
  constexpr int C = sizeof(T) < kLineBytes ? static_cast<int>(kLineBytes / sizeof(T)) : 1;
  constexpr int kLoaders = kThreads - 32;
  __shared__ alignas(16) unsigned char raw[2][C * sizeof(T)];
  // Indexed from raw itself, so that the compiler keeps shared-memory accesses (no generic ones).
  auto bufs = [&](std::int64_t k) { return reinterpret_cast<T*>(raw[k & 1]); };
  const int tid = static_cast<int>(threadIdx.x);
  const int loader = tid - 32;
  const std::int64_t n = p.n;
  const std::int64_t chunks = (n + C - 1) / C;
  for (std::int64_t line = blockIdx.x; line < p.lines; line += gridDim.x) {
    std::int64_t xo, oo;
    offset_pair(line, p.nd, p.shape, p.sx, p.sout, xo, oo);
    const char* x = p.x + xo;
    char* o = p.out + oo;
    if (loader >= 0) {
      const int len = n < C ? static_cast<int>(n) : C;
#pragma unroll 1
      for (int i = loader; i < len; i += kLoaders) {
        bufs(0)[i] = *reinterpret_cast<const T*>(x + i * p.x_step);
      }
    }
    __syncthreads();
    A acc{};
    bool has = false;
    if (tid == 0 && !scan) {
      acc = load_acc<T, A>(o);
      has = true;
    }
    for (std::int64_t c = 0; c < chunks; ++c) {
      T* cur = bufs(c);
      T* other = bufs(c + 1);  // chunk c - 1 (scanned), then chunk c + 1
      if (loader >= 0) {
        // Each slot is read and then written by the same thread: no barrier between.
        if (scan && c > 0) {
          char* oc = o + (c - 1) * C * p.out_step;
#pragma unroll 1
          for (int i = loader; i < C; i += kLoaders)
            *reinterpret_cast<T*>(oc + i * p.out_step) = other[i];
        }
        const std::int64_t next = (c + 1) * C;
        const int len = n - next < C ? static_cast<int>(n - next) : C;  // <= 0 after the last
        const char* xc = x + next * p.x_step;
#pragma unroll 1
        for (int i = loader; i < len; i += kLoaders) {
          other[i] = *reinterpret_cast<const T*>(xc + i * p.x_step);
        }
      } else if (tid == 0) {
        const int len = n - c * C < C ? static_cast<int>(n - c * C) : C;
        int i = 0;
        if (!has) {
          acc = as<A>(cur[0]);
          has = true;
          i = 1;
        }
        if (scan) {  // cur[0] of the first chunk is x[0], which is out[0]
#pragma unroll 4
          for (; i < len; ++i) cur[i] = as<T>(acc = f(acc, as<A>(cur[i])));
        } else {
#pragma unroll 4
          for (; i < len; ++i) acc = f(acc, as<A>(cur[i]));
        }
      }
      __syncthreads();
    }
    if (scan && loader >= 0) {  // the last chunk
      const std::int64_t last = (chunks - 1) * C;
      const int len = static_cast<int>(n - last);
      const T* buf = bufs(chunks - 1);
      char* oc = o + last * p.out_step;
      for (int i = loader; i < len; i += kLoaders)
        *reinterpret_cast<T*>(oc + i * p.out_step) = buf[i];
    }
    if (!scan && tid == 0) *reinterpret_cast<T*>(o) = as<T>(acc);
    __syncthreads();  // the buffers are refilled for the next line
  }
}

// Whether ordered_lines beats a thread per line: lines long enough to stream, and either the
// line dim is x's innermost (threads read neighbours) or too few lines to fill the GPU a thread
// each.
inline bool lines_by_block(const LineParams& p) {
  if (p.n < 512) return false;
  const std::int64_t step = p.x_step < 0 ? -p.x_step : p.x_step;
  bool innermost = true;
  for (int k = 0; k < p.nd; ++k) {
    if (p.shape[k] > 1 && (p.sx[k] < 0 ? -p.sx[k] : p.sx[k]) < step) innermost = false;
  }
  return innermost || p.lines < 8192;
}

template <class F, class T, class A = T>
void ordered_lines_launch(const F& f, const LineParams& p, bool scan, cudaStream_t stream) {
  constexpr auto kernel = &ordered_lines<F, T, A>;
  kernel<<<grid_for<kernel>(p.lines * kThreads), kThreads, 0, stream>>>(f, p, scan);
  check_launch(scan ? "accumulate kernel launch" : "ordered reduction kernel launch");
}

// The loop of a non-reorderable op: every call folds in order.
template <class F, class T>
void red_ordered_launch(const ReduceCall& c, const void* data) {
  using A = fold_t<F, T>;
  const F& f = *static_cast<const F*>(data);
  RedParams<A> p{};
  if (!red_geometry(c, p)) return;
  if (p.nr == 1) {  // one reduced dim (always, from the core): lines of it
    LineParams l{};
    l.out = p.out;
    l.x = p.x;
    l.nd = p.nk;
    for (int k = 0; k < p.nk; ++k) {
      l.shape[k] = p.kshape[k];
      l.sout[k] = p.kout[k];
      l.sx[k] = p.kx[k];
    }
    l.lines = p.M;
    l.n = p.L;
    l.x_step = p.rx[0];
    if (lines_by_block(l)) {
      return ordered_lines_launch<F, T, A>(f, l, false, stream_of(c.stream));
    }
  }
  p.S = 1;
  p.seglen = p.L;
  p.ordered = true;
  constexpr auto kernel = &red_thread<F, T>;
  kernel<<<grid_for<kernel>(p.M), kThreads, 0, stream_of(c.stream)>>>(f, p);
  check_launch("ordered reduction kernel launch");
}

// The loop of a reorderable op: fixed trees (ordered calls, which such an op's calls are not, fold
// in order).
template <class F, class T>
void red_launch(const ReduceCall& c, const void* data) {
  if (c.ordered) return red_ordered_launch<F, T>(c, data);
  using A = fold_t<F, T>;
  const F& f = *static_cast<const F*>(data);
  RedParams<A> p{};
  if (!red_geometry(c, p)) return;
  const StridedIter& it = c.iter;
  const int nd = static_cast<int>(it.shape.size());
  const cudaStream_t stream = stream_of(c.stream);
  // Segments from the shape alone (never from the device), so the bits never depend on it.
  const bool warp_kernel = it.strides[0][nd - 1] == 0;
  constexpr int V = red_vec_width<T>();
  if (warp_kernel && V > 1 && p.nr == 1 && p.rx[0] == static_cast<std::int64_t>(sizeof(T))) {
    bool al = reinterpret_cast<std::uintptr_t>(p.x) % 16 == 0;
    for (int k = 0; k < p.nk; ++k) al = al && p.kx[k] % 16 == 0;
    p.vec = al;
  }
  // One output of one contiguous run: segments of whole red_full tiles, at most kFullSegs.
  const bool full = p.vec && p.M == 1;
  if (full) {
    constexpr std::int64_t kTile = std::int64_t{kRedFullU} * kThreads * V;
    constexpr std::int64_t kFullSegs = 2048;
    const std::int64_t tiles = ceil_div(p.L, kTile);
    p.seglen = ceil_div(tiles, kFullSegs) * kTile;
  } else if (p.vec) {
    const std::int64_t S =
        std::max<std::int64_t>(1, std::min(ceil_div(8192, p.M), ceil_div(p.L, 8192)));
    p.seglen = ceil_div(ceil_div(p.L, S), kThreads * V) * (kThreads * V);
  } else if (warp_kernel) {
    std::int64_t S = std::max<std::int64_t>(1, std::min(ceil_div(8192, p.M), ceil_div(p.L, 2048)));
    p.seglen = ceil_div(ceil_div(p.L, S), 32) * 32;
  } else {
    std::int64_t S = std::max<std::int64_t>(
        1, std::min(ceil_div(std::int64_t{1} << 18, p.M), ceil_div(p.L, 256)));
    p.seglen = ceil_div(p.L, S);
  }
  p.S = ceil_div(p.L, p.seglen);
  if (p.S > 1) {
    void* tmp = nullptr;
    check(cudaMallocAsync(&tmp, static_cast<std::size_t>(p.M * p.S) * sizeof(A), stream),
          "cudaMallocAsync (reduction partials)");
    p.partial = static_cast<A*>(tmp);
  }
  if (full) {
    if constexpr (V > 1) {
      constexpr auto kernel = &red_full<F, T>;
      kernel<<<grid_for<kernel>(p.S * kThreads), kThreads, 0, stream>>>(f, p);
    }
  } else if (p.vec) {
    if constexpr (V > 1) {
      constexpr auto kernel = &red_block<F, T>;
      kernel<<<grid_for<kernel>(p.M * p.S * kThreads), kThreads, 0, stream>>>(f, p);
    }
  } else if (warp_kernel) {
    constexpr auto kernel = &red_warp<F, T>;
    kernel<<<grid_for<kernel>(p.M * p.S * 32), kThreads, 0, stream>>>(f, p);
  } else {
    constexpr auto kernel = &red_thread<F, T>;
    kernel<<<grid_for<kernel>(p.M * p.S), kThreads, 0, stream>>>(f, p);
  }
  cudaError_t err = cudaGetLastError();
  if (err == cudaSuccess && p.partial && full) {
    if constexpr (V > 1) {
      red_combine_full<F, T><<<1, kThreads, 0, stream>>>(f, p);
      err = cudaGetLastError();
    }
  } else if (err == cudaSuccess && p.partial) {
    constexpr auto kernel = &red_combine<F, T>;
    kernel<<<grid_for<kernel>(p.M * 32), kThreads, 0, stream>>>(f, p);
    err = cudaGetLastError();
  }
  if (p.partial) (void)cudaFreeAsync(p.partial, stream);
  check(err, "reduction kernel launch");
}

template <class F, class Sig>
struct red_of;
template <class F, class T>
struct red_of<F, T(T, T)> {
  static constexpr DeviceReduceLoop value = &red_launch<F, T>;
};

}  // namespace cu

// The registration functions' own namespace (inline: still loom::def::reduce): a program that
// defines ops for both families links this and the host twin into one executable, where two
// definitions of one mangled name would be an ODR violation (the linker keeps one of them).
inline namespace cuda_family {

template <class F, class... Sigs>
void reduce(Registrar& reg, std::string name, ReduceTraits traits, std::string doc) {
  reg.add(
      reduce_desc<F, Sigs...>(std::move(name), traits, std::move(doc), [](LoopImpl* impl, auto s) {
        using S = typename decltype(s)::type;
        impl[static_cast<int>(Family::cuda)].device_reduce = cu::red_of<F, S>::value;
        impl[static_cast<int>(Family::cuda)].data = cu::instance<F>();
      }));
}

}  // namespace cuda_family

}  // namespace loom::def
