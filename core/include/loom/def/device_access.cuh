// Typed loads and stores through the loops' byte pointers, and warp shuffles of any type (the
// shuffle intrinsics have no overload for bool, float16 or complex): used by accumulate's scans
// (scan.cuh) and at's updates (at.cuh). Only included by .cu files.
#pragma once
#include <type_traits>

namespace loom::def::cu {

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

}  // namespace loom::def::cu
