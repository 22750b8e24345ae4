// View<T, N>: what a gufunc or kernel functor sees of one array argument — a pointer, N sizes and
// N byte strides, indexable with N integers. Trivially copyable, usable in host and device code.
// Host code built with LOOM_BOUNDS_CHECK (the default when NDEBUG is not defined) checks every
// index against the shape and throws IndexError; device code never checks.
#pragma once
#include <cstdint>
#include <type_traits>

#include "loom/hd.hpp"

#ifndef LOOM_BOUNDS_CHECK
#ifdef NDEBUG
#define LOOM_BOUNDS_CHECK 0
#else
#define LOOM_BOUNDS_CHECK 1
#endif
#endif

namespace loom {

namespace detail {
// `base` is the View's data pointer: a kernel's host loop names the argument it belongs to.
[[noreturn]] void view_index_error(const void* base, int axis, std::int64_t index,
                                   std::int64_t extent, int ndim);
}  // namespace detail

template <class T, int N = 1>
struct View {
  T* data = nullptr;
  std::int64_t shape[N > 0 ? N : 1] = {};
  std::int64_t strides[N > 0 ? N : 1] = {};  // in bytes

  LOOM_HD std::int64_t size(int axis = 0) const { return shape[axis]; }
  template <class... I>
  LOOM_HD T& operator()(I... idx) const {
    static_assert(sizeof...(I) == N, "View: one index per dimension");
    const std::int64_t ix[] = {static_cast<std::int64_t>(idx)..., 0};
    std::int64_t off = 0;
#if LOOM_BOUNDS_CHECK && !defined(__CUDA_ARCH__)
    for (int k = 0; k < N; ++k)
      if (ix[k] < 0 || ix[k] >= shape[k]) detail::view_index_error(data, k, ix[k], shape[k], N);
#endif
    for (int k = 0; k < N; ++k) off += ix[k] * strides[k];
    using B = std::conditional_t<std::is_const_v<T>, const char, char>;
    return *reinterpret_cast<T*>(reinterpret_cast<B*>(data) + off);
  }
  // The view of row i (drops the first axis).
  LOOM_HD View<T, N - 1> operator[](std::int64_t i) const {
    static_assert(N > 0);
#if LOOM_BOUNDS_CHECK && !defined(__CUDA_ARCH__)
    if (i < 0 || i >= shape[0]) detail::view_index_error(data, 0, i, shape[0], N);
#endif
    View<T, N - 1> v;
    using B = std::conditional_t<std::is_const_v<T>, const char, char>;
    v.data = reinterpret_cast<T*>(reinterpret_cast<B*>(data) + i * strides[0]);
    for (int k = 1; k < N; ++k) {
      v.shape[k - 1] = shape[k];
      v.strides[k - 1] = strides[k];
    }
    return v;
  }
  LOOM_HD bool contiguous_last() const { return N == 0 || strides[N - 1] == sizeof(T); }
};

}  // namespace loom
