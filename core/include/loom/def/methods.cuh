// The CUDA loops of a binary op T(T,T) beyond the elementwise one, the twin of methods.hpp:
// accumulate's scan (ScanCall) and at's updates (AtCall); reduce is reduce.cuh's red_launch.
// def::ufunc (ufunc.cuh) attaches them to every T(T,T) loop.
//
// accumulate. Non-reorderable ops: a thread per line, lines spread over threads, strictly in
// order (the cpu result, bit for bit). Reorderable ops: a few long lines go through
// cub::DeviceScan::InclusiveScan with the functor, one call per line (strided lines gathered into
// a scratch line and scattered back); many lines take a warp per line (32 elements at a time: a
// fixed shuffle tree, then the carry of the previous 32), or a thread per line when the lines are
// short or the line dim is not the input's innermost. Every path fixes its association order by
// the shape alone (CUB's tiles by the shape and the GPU), so a call gives the same bits on every
// run.
//
// at. Reorderable ops on 4- and 8-byte types: one atomic update per (index, trailing element), a
// compare-and-swap loop applying the functor, or the native atomicAdd where the functor is
// declared an add (device_add<F>) and the type's native add rounds as the functor does (not
// float32: its atomic add flushes subnormals). Integer results do not depend on the order, so
// they equal cpu's bit for bit. Everything else (non-reorderable ops, other sizes) is ordered: the
// indices are sorted stably (cub::DeviceRadixSort, one instantiation for every op and type), then
// one thread per distinct index and trailing element applies its updates in their original order
// (the cpu result, bit for bit).
//
// Only included by .cu files.
#pragma once
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>

#include "loom/def/launch.cuh"
#include "loom/def/reduce.cuh"

namespace loom::def::cu {

// Declares a functor an add (f(a, b) == a + b with the type's own +): at() may then use the
// native atomicAdd for float64 and the integer types. Specialize it in the .cu file that
// registers the op, before the op table is instantiated:
//   template <> struct loom::def::cu::device_add<MyAdd> : std::true_type {};
template <class F>
struct device_add : std::false_type {};

template <class Sig>
struct binary_of {
  using type = void;  // not T(T,T): no methods
};
template <class T>
struct binary_of<T(T, T)> {
  using type = T;
};

template <class T>
__device__ __forceinline__ T load_as(const char* p) {
  return *reinterpret_cast<const T*>(p);
}
template <class T>
__device__ __forceinline__ void store_as(char* p, T v) {
  *reinterpret_cast<T*>(p) = v;
}

template <class T>
__device__ __forceinline__ T shfl_up(T v, int off) {
  if constexpr (std::is_same_v<T, bool>) {
    return __shfl_up_sync(0xffffffffu, static_cast<int>(v), off) != 0;
  } else if constexpr (std::is_arithmetic_v<T> && (sizeof(T) == 4 || sizeof(T) == 8)) {
    return __shfl_up_sync(0xffffffffu, v, off);
  } else {
    constexpr int kWords = (sizeof(T) + 3) / 4;
    union {
      T t;
      int w[kWords];
    } u{v};
#pragma unroll
    for (int k = 0; k < kWords; ++k) u.w[k] = __shfl_up_sync(0xffffffffu, u.w[k], off);
    return u.t;
  }
}

// Lane src's value (__shfl_sync has no overload for every type).
template <class T>
__device__ __forceinline__ T shfl_idx(T v, int src) {
  if constexpr (std::is_arithmetic_v<T> && !std::is_same_v<T, bool> &&
                (sizeof(T) == 4 || sizeof(T) == 8)) {
    return __shfl_sync(0xffffffffu, v, src);
  } else {
    constexpr int kWords = (sizeof(T) + 3) / 4;
    union {
      T t;
      int w[kWords];
    } u{v};
#pragma unroll
    for (int k = 0; k < kWords; ++k) u.w[k] = __shfl_sync(0xffffffffu, u.w[k], src);
    return u.t;
  }
}

// ---- accumulate -------------------------------------------------------------------------------

// A ScanCall's lines: the outer dims (C order) with out's and x's strides.
struct ScanParams {
  char* out;
  const char* x;
  int nd;
  std::int64_t shape[kMaxDims];
  std::int64_t sout[kMaxDims];
  std::int64_t sx[kMaxDims];
  std::int64_t lines, n, out_step, x_step;
};

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
    const char* x = p.x + offset_1(l, p.nd, p.shape, p.sx);
    char* o = p.out + offset_1(l, p.nd, p.shape, p.sout);
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

// A warp per line (reorderable ops): per 32 elements, an inclusive shuffle scan (Kogge-Stone,
// fixed by the lane numbers), then the carry of the elements before them on the left. U chunks of
// 32 are loaded before the first is scanned.
template <class F, class T>
__global__ void scan_warp(F f, ScanParams p) {
  constexpr int U = 4;
  const int lane = static_cast<int>(threadIdx.x & 31);
  const std::int64_t warp = (static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x) >> 5;
  const std::int64_t nwarps = (static_cast<std::int64_t>(gridDim.x) * blockDim.x) >> 5;
  for (std::int64_t l = warp; l < p.lines; l += nwarps) {
    const char* x = p.x + offset_1(l, p.nd, p.shape, p.sx);
    char* o = p.out + offset_1(l, p.nd, p.shape, p.sout);
    T carry{};
    bool has = false;
    for (std::int64_t i0 = 0; i0 < p.n; i0 += 32 * U) {
      T v[U];
#pragma unroll
      for (int u = 0; u < U; ++u) {
        const std::int64_t i = i0 + u * 32 + lane;
        v[u] = i < p.n ? load_as<T>(x + i * p.x_step) : T{};
      }
#pragma unroll
      for (int u = 0; u < U; ++u) {
        const std::int64_t i = i0 + u * 32 + lane;
        const bool in = i < p.n;  // lanes in the line are a prefix of the warp
#pragma unroll
        for (int off = 1; off < 32; off <<= 1) {
          const T w = shfl_up(v[u], off);
          if (in && lane >= off) v[u] = f(w, v[u]);
        }
        if (has && in) v[u] = f(carry, v[u]);
        if (in) store_as(o + i * p.out_step, v[u]);
        // The next chunk exists only if this one was full, so lane 31 holds the running value.
        carry = shfl_idx(v[u], 31);
        has = true;
      }
    }
  }
}

// Elements of a strided line to and from a contiguous scratch line (for CUB's scan).
template <class T>
__global__ void gather_line(T* dst, const char* src, std::int64_t n, std::int64_t step) {
  const std::int64_t nth = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += nth) {
    dst[i] = load_as<T>(src + i * step);
  }
}
template <class T>
__global__ void scatter_line(char* dst, std::int64_t step, const T* src, std::int64_t n) {
  const std::int64_t nth = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += nth) {
    store_as(dst + i * step, src[i]);
  }
}

// Host-side offset of line l (the kernels' offset_1).
inline std::int64_t line_offset(std::int64_t l, const ScanParams& p, const std::int64_t* strides) {
  std::int64_t off = 0;
  for (int k = p.nd - 1; k >= 0; --k) {
    off += (l % p.shape[k]) * strides[k];
    l /= p.shape[k];
  }
  return off;
}

// Lines for which one CUB scan per line beats the warp kernel: few and long (CUB's host dispatch
// costs tens of microseconds a call).
inline constexpr std::int64_t kCubScanLines = 8;
inline constexpr std::int64_t kCubScanMin = std::int64_t{1} << 16;

template <class F, class T>
void scan_cub(const F& f, const ScanParams& p, cudaStream_t stream) {
  constexpr auto sz = static_cast<std::int64_t>(sizeof(T));
  const bool xc = p.x_step == sz, oc = p.out_step == sz;
  std::size_t bytes = 0;
  check(cub::DeviceScan::InclusiveScan(nullptr, bytes, static_cast<const T*>(nullptr),
                                       static_cast<T*>(nullptr), f, p.n, stream),
        "cub::DeviceScan::InclusiveScan (temporary storage size)");
  // One allocation: CUB's storage, then a scratch line (in-place scan) when a line is strided.
  const std::size_t head = (bytes + 255) / 256 * 256;
  const bool scratch = !xc || !oc;
  void* tmp = nullptr;
  check(cudaMallocAsync(&tmp, head + (scratch ? static_cast<std::size_t>(p.n * sz) : 0), stream),
        "cudaMallocAsync (accumulate scratch)");
  T* line = reinterpret_cast<T*>(static_cast<char*>(tmp) + head);
  cudaError_t err = cudaSuccess;
  for (std::int64_t l = 0; l < p.lines && err == cudaSuccess; ++l) {
    const char* x = p.x + line_offset(l, p, p.sx);
    char* o = p.out + line_offset(l, p, p.sout);
    if (!scratch) {
      err = cub::DeviceScan::InclusiveScan(tmp, bytes, reinterpret_cast<const T*>(x),
                                           reinterpret_cast<T*>(o), f, p.n, stream);
      continue;
    }
    if (xc) {
      err = cub::DeviceScan::InclusiveScan(tmp, bytes, reinterpret_cast<const T*>(x), line, f, p.n,
                                           stream);
    } else {
      constexpr auto g = &gather_line<T>;
      g<<<grid_for<g>(p.n), kThreads, 0, stream>>>(line, x, p.n, p.x_step);
      err = cudaGetLastError();
      if (err == cudaSuccess) {
        err = cub::DeviceScan::InclusiveScan(tmp, bytes, line, line, f, p.n, stream);
      }
    }
    if (err == cudaSuccess) {
      constexpr auto s = &scatter_line<T>;
      s<<<grid_for<s>(p.n), kThreads, 0, stream>>>(o, p.out_step, line, p.n);
      err = cudaGetLastError();
    }
  }
  (void)cudaFreeAsync(tmp, stream);
  check(err, "accumulate (cub::DeviceScan::InclusiveScan)");
}

// The loop of a non-reorderable op: every line in order, a thread per line.
template <class F, class T>
void scan_ordered_launch(const ScanCall& c, const void* data) {
  const F& f = *static_cast<const F*>(data);
  if (c.n <= 0) return;
  const ScanParams p = scan_params(c);
  if (p.lines <= 0) return;
  constexpr auto kernel = &scan_thread<F, T>;
  kernel<<<grid_for<kernel>(p.lines), kThreads, 0, stream_of(c.stream)>>>(f, p);
  check_launch("accumulate kernel launch");
}

// The loop of a reorderable op (a call that says otherwise runs in order).
template <class F, class T>
void scan_launch(const ScanCall& c, const void* data) {
  if (!c.reorderable) return scan_ordered_launch<F, T>(c, data);
  const F& f = *static_cast<const F*>(data);
  if (c.n <= 0) return;
  const ScanParams p = scan_params(c);
  if (p.lines <= 0) return;
  const cudaStream_t stream = stream_of(c.stream);
#ifndef NOCUBSCAN
  if (p.lines <= kCubScanLines && p.n >= kCubScanMin) return scan_cub<F, T>(f, p, stream);
#endif
  // A warp per line when the line is the input's innermost dim (a warp reads 32 neighbours) or
  // when there are too few lines for a thread each to fill the GPU.
  bool innermost = true;
  for (int k = 0; k < p.nd; ++k) {
    const std::int64_t s = p.sx[k] < 0 ? -p.sx[k] : p.sx[k];
    if (p.shape[k] > 1 && s < (p.x_step < 0 ? -p.x_step : p.x_step)) innermost = false;
  }
  if (p.n >= 32 && (innermost || p.lines < 8192)) {
    constexpr auto kernel = &scan_warp<F, T>;
    kernel<<<grid_for<kernel>(p.lines * 32), kThreads, 0, stream>>>(f, p);
  } else {
    constexpr auto kernel = &scan_thread<F, T>;
    kernel<<<grid_for<kernel>(p.lines), kThreads, 0, stream>>>(f, p);
  }
  check_launch("accumulate kernel launch");
}

// ---- at ---------------------------------------------------------------------------------------

struct AtParams {
  char* a;
  std::int64_t a_step;
  const std::int64_t* idx;
  std::int64_t m;
  const char* b;
  std::int64_t b_step;
  int nr;  // trailing dims (a's after the first), C order
  std::int64_t rshape[kMaxDims];
  std::int64_t ra[kMaxDims];
  std::int64_t rb[kMaxDims];
  std::int64_t R;  // trailing elements per index
};

inline AtParams at_params(const AtCall& c) {
  if (c.rest.size() > static_cast<std::size_t>(kMaxDims)) {
    throw DeviceError("at CUDA loop: the array has " + std::to_string(c.rest.size() + 1) +
                      " dimensions; the CUDA loops take at most " + std::to_string(kMaxDims + 1));
  }
  AtParams p{};
  p.a = c.a;
  p.a_step = c.a_step;
  p.idx = c.idx;
  p.m = c.m;
  p.b = c.b;
  p.b_step = c.b_step;
  p.nr = static_cast<int>(c.rest.size());
  p.R = 1;
  for (int k = 0; k < p.nr; ++k) {
    p.rshape[k] = c.rest[k];
    p.ra[k] = c.a_rest_strides[k];
    p.rb[k] = c.b_rest_strides[k];
    p.R *= c.rest[k];
  }
  return p;
}

template <class T>
using cas_word = std::conditional_t<sizeof(T) == 4, unsigned, unsigned long long>;

// *p = f(*p, v) as one atomic step.
template <class F, class T>
__device__ __forceinline__ void atomic_apply(const F& f, T* p, T v) {
  if constexpr (device_add<F>::value && std::is_same_v<T, double>) {
    atomicAdd(p, v);
  } else if constexpr (device_add<F>::value && std::is_integral_v<T> && !std::is_same_v<T, bool>) {
    // Two's complement: the unsigned add wraps to the signed sum's bits.
    atomicAdd(reinterpret_cast<cas_word<T>*>(p), static_cast<cas_word<T>>(v));
  } else {
    using W = cas_word<T>;
    W* q = reinterpret_cast<W*>(p);
    W old = *reinterpret_cast<volatile W*>(q);
    while (true) {
      T cur;
      memcpy(&cur, &old, sizeof(T));
      const T next = f(cur, v);
      W nw;
      memcpy(&nw, &next, sizeof(T));
      const W seen = atomicCAS(q, old, nw);
      if (seen == old) break;
      old = seen;
    }
  }
}

template <class F, class T>
__global__ void at_atomic(F f, AtParams p) {
  const std::int64_t tid = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::int64_t nth = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  const std::int64_t items = p.m * p.R;
  for (std::int64_t item = tid; item < items; item += nth) {
    std::int64_t j = item, r = 0;
    if (p.R != 1) {
      j = item / p.R;
      r = item - j * p.R;
    }
    char* dst = p.a + p.idx[j] * p.a_step + (p.R != 1 ? offset_1(r, p.nr, p.rshape, p.ra) : 0);
    const char* src = p.b + j * p.b_step + (p.R != 1 ? offset_1(r, p.nr, p.rshape, p.rb) : 0);
    atomic_apply(f, reinterpret_cast<T*>(dst), load_as<T>(src));
  }
}

// After a stable sort of the indices (keys, with perm the original positions): a thread per
// (first occurrence of an index, trailing element) applies that index's updates in their original
// order.
template <class F, class T>
__global__ void at_sorted(F f, AtParams p, const std::uint64_t* keys, const std::int64_t* perm) {
  const std::int64_t tid = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::int64_t nth = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  const std::int64_t items = p.m * p.R;
  for (std::int64_t item = tid; item < items; item += nth) {
    const std::int64_t r = item / p.m, k = item - r * p.m;
    const std::uint64_t key = keys[k];
    if (k > 0 && keys[k - 1] == key) continue;
    const std::int64_t ra = offset_1(r, p.nr, p.rshape, p.ra);
    const std::int64_t rb = offset_1(r, p.nr, p.rshape, p.rb);
    T* dst = reinterpret_cast<T*>(p.a + static_cast<std::int64_t>(key) * p.a_step + ra);
    T acc = *dst;
    for (std::int64_t kk = k; kk < p.m && keys[kk] == key; ++kk) {
      acc = f(acc, load_as<T>(p.b + perm[kk] * p.b_step + rb));
    }
    *dst = acc;
  }
}

template <class I>
__global__ void iota_kernel(I* out, std::int64_t n) {
  const std::int64_t nth = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += nth) {
    out[i] = static_cast<I>(i);
  }
}

// The m indices sorted stably, with their original positions: keys and perm point into `block`
// (free it with cudaFreeAsync on the stream). The same code for every op and type. The indices are
// non-negative, so their unsigned order is their order.
struct SortedIndices {
  void* block = nullptr;
  const std::uint64_t* keys = nullptr;
  const std::int64_t* perm = nullptr;
};

template <class K = std::uint64_t>
SortedIndices sort_indices(const std::int64_t* idx, std::int64_t m, cudaStream_t stream) {
  const K* keys_in = reinterpret_cast<const K*>(idx);
  std::size_t bytes = 0;
  check(cub::DeviceRadixSort::SortPairs(nullptr, bytes, keys_in, static_cast<K*>(nullptr),
                                        static_cast<const std::int64_t*>(nullptr),
                                        static_cast<std::int64_t*>(nullptr), m, 0, 63, stream),
        "cub::DeviceRadixSort::SortPairs (temporary storage size)");
  const std::size_t line = (static_cast<std::size_t>(m) * 8 + 255) / 256 * 256;
  SortedIndices s;
  check(cudaMallocAsync(&s.block, 3 * line + bytes, stream), "cudaMallocAsync (at: sort scratch)");
  char* base = static_cast<char*>(s.block);
  auto* keys = reinterpret_cast<K*>(base);
  auto* perm_in = reinterpret_cast<std::int64_t*>(base + line);
  auto* perm = reinterpret_cast<std::int64_t*>(base + 2 * line);
  constexpr auto io = &iota_kernel<std::int64_t>;
  io<<<grid_for<io>(m), kThreads, 0, stream>>>(perm_in, m);
  cudaError_t err = cudaGetLastError();
  if (err == cudaSuccess) {
    err = cub::DeviceRadixSort::SortPairs(base + 3 * line, bytes, keys_in, keys, perm_in, perm, m, 0,
                                          63, stream);
  }
  if (err != cudaSuccess) {
    (void)cudaFreeAsync(s.block, stream);
    check(err, "at: sorting the indices (cub::DeviceRadixSort::SortPairs)");
  }
  s.keys = keys;
  s.perm = perm;
  return s;
}

// The loop of a non-reorderable op: ordered per index.
template <class F, class T>
void at_ordered_launch(const AtCall& c, const void* data) {
  const F& f = *static_cast<const F*>(data);
  const AtParams p = at_params(c);
  if (p.m <= 0 || p.R <= 0) return;
  const cudaStream_t stream = stream_of(c.stream);
#ifndef NOSORT
  const SortedIndices s = sort_indices(c.idx, p.m, stream);
#else
  SortedIndices s;
#endif
  constexpr auto kernel = &at_sorted<F, T>;
  kernel<<<grid_for<kernel>(p.m * p.R), kThreads, 0, stream>>>(f, p, s.keys, s.perm);
  const cudaError_t err = cudaGetLastError();
  (void)cudaFreeAsync(s.block, stream);
  check(err, "at kernel launch");
}

// The loop of a reorderable op: atomics on 4- and 8-byte types, else ordered.
template <class F, class T>
void at_launch(const AtCall& c, const void* data) {
  if constexpr (sizeof(T) == 4 || sizeof(T) == 8) {
    if (c.reorderable) {
      const F& f = *static_cast<const F*>(data);
      const AtParams p = at_params(c);
      if (p.m <= 0 || p.R <= 0) return;
      constexpr auto kernel = &at_atomic<F, T>;
      kernel<<<grid_for<kernel>(p.m * p.R), kThreads, 0, stream_of(c.stream)>>>(f, p);
      check_launch("at kernel launch");
      return;
    }
  }
  at_ordered_launch<F, T>(c, data);
}

// Fills the cuda loops of `impl` for signature S when S is T(T,T): the reduce, accumulate and at
// methods. Reorderable: loops that use trees, scans and atomics when the call allows (they run in
// order for a call that says the op is not reorderable); not: only the ordered loops, so that a
// non-reorderable op instantiates no tree, CUB scan or atomic kernel.
template <class F, class S>
void set_device_methods(LoopImpl& impl, bool reorderable) {
  using T = typename binary_of<S>::type;
  if constexpr (!std::is_void_v<T>) {
    if (reorderable) {
      
#ifndef NORED
      impl.device_reduce = &red_launch<F, T>;
#endif
      
#ifndef NOSCAN
      impl.device_scan = &scan_launch<F, T>;
#endif
      
#ifndef NOAT
      impl.device_at = &at_launch<F, T>;
#endif
    } else {
      
#ifndef NORED
      impl.device_reduce = &red_ordered_launch<F, T>;
#endif
      
#ifndef NOSCAN
      impl.device_scan = &scan_ordered_launch<F, T>;
#endif
      
#ifndef NOAT
      impl.device_at = &at_ordered_launch<F, T>;
#endif
    }
  }
}
template <class F, class S>
void set_ordered_device_methods(LoopImpl& impl) {
  using T = typename binary_of<S>::type;
  if constexpr (!std::is_void_v<T>) {
    
#ifndef NORED
    impl.device_reduce = &red_ordered_launch<F, T>;
#endif
    
#ifndef NOSCAN
    impl.device_scan = &scan_ordered_launch<F, T>;
#endif
    
#ifndef NOAT
    impl.device_at = &at_ordered_launch<F, T>;
#endif
  }
}

}  // namespace loom::def::cu
