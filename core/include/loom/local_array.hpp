// local_array<T, Dims...>: a per-thread array of compile-time shape (Numba's cuda.local.array),
// the same type in host and device code. It lives where the thread's locals live: registers or
// local memory on a GPU, the thread's stack (its fiber's stack for uses_syncthreads kernels) on
// the host. Uninitialized like any local array; `local_array<float, 8> a{};` zeroes it.
#pragma once
#include <cstdint>

#include "loom/hd.hpp"
#include "loom/view.hpp"

namespace loom {

template <class T, std::int64_t... Dims>
struct local_array {
  static_assert(sizeof...(Dims) >= 1 && sizeof...(Dims) <= 3,
                "local_array: 1, 2 or 3 extents, as a View has");
  static_assert(((Dims > 0) && ...), "local_array: every extent must be at least 1");
  static constexpr int ndim = sizeof...(Dims);
  static constexpr std::int64_t count = (Dims * ...);

  // Public so that the type stays an aggregate (brace-initializable, trivially copyable).
  T data[count];

  LOOM_HD static constexpr std::int64_t size(int axis = 0) {
    constexpr std::int64_t shape[] = {Dims...};
    return shape[axis];
  }
  // A C-order View of the array, valid while the array lives.
  LOOM_HD View<T, ndim> view() { return make_view<T>(data); }
  LOOM_HD View<const T, ndim> view() const { return make_view<const T>(data); }

  // a(i, j): indexed through the View, so host builds with LOOM_BOUNDS_CHECK check it the same way.
  template <class... I>
  LOOM_HD T& operator()(I... idx) {
    return view()(idx...);
  }
  template <class... I>
  LOOM_HD const T& operator()(I... idx) const {
    return view()(idx...);
  }

 private:
  template <class U>
  LOOM_HD static View<U, ndim> make_view(U* p) {
    View<U, ndim> v;
    v.data = p;
    const std::int64_t shape[] = {Dims...};
    std::int64_t stride = sizeof(T);
    for (int k = ndim - 1; k >= 0; --k) {
      v.shape[k] = shape[k];
      v.strides[k] = stride;
      stride *= shape[k];
    }
    return v;
  }
};

}  // namespace loom
