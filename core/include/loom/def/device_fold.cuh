// The device building blocks of the fold loops (reduce.cuh, ordered_lines.cuh, scan.cuh, at.cuh):
// the warp and block shuffle trees whose order is fixed by the lane and thread numbers, the
// operands' offsets of a flat index, 16-byte packs and the conversions to and from the fold type.
// Only included by .cu files.
#pragma once
#include <cstdint>
#include <type_traits>

#include "loom/def/launch.cuh"
#include "loom/float16.hpp"

namespace loom::def::cu {

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

// Whether an ordered fold rounds to T after every step (only where A is wider than T).
template <class T, class A>
__device__ __forceinline__ bool round_steps(bool steps) {
  if constexpr (std::is_same_v<T, A>) {
    return false;
  } else {
    return steps;
  }
}

inline std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

}  // namespace loom::def::cu
