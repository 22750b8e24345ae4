// The kernels of a reorderable reduction (reduce.cuh's red_launch): a warp, a block or a thread per
// (output, segment), the full reduction of one contiguous run, and the kernels that fold the
// segments' partials in order; red_geometry splits a ReduceCall into kept and reduced dims. Only
// included by .cu files.
#pragma once
#include <cstdint>
#include <type_traits>

#include "loom/def/device_fold.cuh"
#include "loom/def/launch.cuh"
#include "loom/def/signature_of.hpp"
#include "loom/registry.hpp"

namespace loom::def::cu {

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
  // With ordered: round to T after every step (the reduced dim is not the innermost; the host
  // loops then step elementwise, rounding each, as NumPy's).
  bool steps;
};

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
    const bool steps = round_steps<T, A>(p.ordered && p.steps);
    A acc = load_acc<T, A>(x + off);
    if (p.ordered) acc = f(load_acc<T, A>(o), acc);
    if (steps) acc = as<A>(as<T>(acc));
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
      if (steps) acc = as<A>(as<T>(acc));
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

}  // namespace loom::def::cu
