// def::reduce<F, Sigs...>(reg, name, identity, doc): a reduction from a binary functor. The fold
// loop sums contiguous runs pairwise with 16 independent accumulators (NumPy's pairwise sum, wider
// so that it vectorizes): the association order is fixed by the code, so results are the same
// bits on every run and every machine.
#pragma once
#include <cstring>
#include <optional>
#include <string>

#include "loom/def/ufunc.hpp"

namespace loom::def {

namespace detail {

inline constexpr std::int64_t kFoldLanes = 16;
inline constexpr std::int64_t kFoldBlock = 512;

template <class F, class T>
T pairwise(const F& f, const T* x, std::int64_t n) {
  if (n < kFoldLanes) {
    T r = x[0];
    for (std::int64_t i = 1; i < n; ++i) r = f(r, x[i]);
    return r;
  }
  if (n <= kFoldBlock) {
    T r[kFoldLanes];
    std::int64_t i = kFoldLanes;
    if constexpr (simd_functor<F> && simd_type<T>) {
      // Lane j of the batches holds accumulator j: the same order as the scalar loop below, so
      // the bits do not depend on the SIMD width (GCC cannot vectorize NaN-aware max/min itself).
      using B = xsimd::batch<T>;
      constexpr std::int64_t L = B::size, M = kFoldLanes / B::size;
      static_assert(kFoldLanes % B::size == 0);
      B acc[M];
      for (std::int64_t m = 0; m < M; ++m) acc[m] = B::load_unaligned(x + m * L);
      for (; i + kFoldLanes <= n; i += kFoldLanes) {
        for (std::int64_t m = 0; m < M; ++m) acc[m] = f(acc[m], B::load_unaligned(x + i + m * L));
      }
      for (std::int64_t m = 0; m < M; ++m) acc[m].store_unaligned(r + m * L);
    } else {
      for (std::int64_t j = 0; j < kFoldLanes; ++j) r[j] = x[j];
      for (; i + kFoldLanes <= n; i += kFoldLanes) {
        for (std::int64_t j = 0; j < kFoldLanes; ++j) r[j] = f(r[j], x[i + j]);
      }
    }
    for (std::int64_t w = kFoldLanes / 2; w > 0; w /= 2) {  // tree over the lanes
      for (std::int64_t j = 0; j < w; ++j) r[j] = f(r[j], r[j + w]);
    }
    T s = r[0];
    for (; i < n; ++i) s = f(s, x[i]);
    return s;
  }
  std::int64_t half = n / 2;
  half -= half % kFoldLanes;
  return f(pairwise(f, x, half), pairwise(f, x + half, n - half));
}

template <class F, class T>
void fold_loop(char* acc, const char* x, std::int64_t n, std::int64_t stride, const void* data) {
  const F& f = *static_cast<const F*>(data);
  if (n <= 0) return;
  T a;
  std::memcpy(&a, acc, sizeof(T));
  if (stride == static_cast<std::int64_t>(sizeof(T))) {
    a = f(a, pairwise(f, reinterpret_cast<const T*>(x), n));
  } else {
    for (std::int64_t i = 0; i < n; ++i) a = f(a, *reinterpret_cast<const T*>(x + i * stride));
  }
  std::memcpy(acc, &a, sizeof(T));
}

template <class F, class Sig>
struct fold_of;
template <class F, class T>
struct fold_of<F, T(T, T)> {
  static constexpr FoldLoop value = &fold_loop<F, T>;
};

}  // namespace detail

template <class F, class... Sigs>
void reduce(Registrar& reg, std::string name, std::optional<double> identity, std::string doc) {
  reg.add(
      reduce_desc<Sigs...>(std::move(name), identity, std::move(doc), [](LoopImpl* impl, auto s) {
        using S = typename decltype(s)::type;
        auto& host = impl[static_cast<int>(Family::host)];
        host.host = detail::loop_of<F, S>::value;
        host.fold = detail::fold_of<F, S>::value;
        host.data = detail::instance<F>();
      }));
}

}  // namespace loom::def
