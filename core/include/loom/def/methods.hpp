// The host loops of a binary op T(T,T) beyond the elementwise one: the reduction fold (pairwise
// for reorderable ops, strictly in order otherwise), accumulate's scan and at's updates. def::ufunc
// and def::reduce attach them to every T(T,T) loop.
#pragma once
#include <atomic>
#include <cstring>
#include <type_traits>

// GCC 12 warns "may be used uninitialized" inside its own AVX-512 intrinsics wherever xsimd's
// math is inlined (GCC bug 105593); the warning is attributed to the intrinsics header.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#if !defined(__clang__)  // clang has no such group and warns about the pragma itself
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <xsimd/xsimd.hpp>
#pragma GCC diagnostic pop

#include "loom/def/signature_of.hpp"
#include "loom/op.hpp"

namespace loom::def::detail {

template <class T>
constexpr bool simd_type = std::is_same_v<T, float> || std::is_same_v<T, double>;

inline constexpr std::int64_t kFoldLanes = 16;
inline constexpr std::int64_t kFoldBlock = 512;

// NumPy's pairwise sum, wider (16 accumulators) so that it vectorizes: the association order is
// fixed by n alone, so results are the same bits on every run and every machine.
// Callers pass n >= 1 (an empty reduction never reaches a fold); GCC 12 cannot see that and
// reports pairwise_strided's buffer as maybe read uninitialized (x[0] for n = 0).
#if defined(__GNUC__) && !defined(__clang__) && !defined(__CUDACC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
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

// The same tree over strided data: blocks are gathered into a buffer, so a strided, reversed or
// transposed input gives the contiguous input's bits (and its O(log n) error bound). A, the fold
// type (fold_t), may be wider than the element type T: each element is converted as it is
// gathered.
template <class F, class T, class A = T>
A pairwise_strided(const F& f, const char* x, std::int64_t n, std::int64_t stride) {
  if constexpr (std::is_same_v<T, A>) {
    if (stride == static_cast<std::int64_t>(sizeof(T))) {
      return pairwise(f, reinterpret_cast<const T*>(x), n);
    }
  }
  if (n <= kFoldBlock) {
    A buf[kFoldBlock];
    for (std::int64_t i = 0; i < n; ++i) {
      T v;
      std::memcpy(&v, x + i * stride, sizeof(T));
      buf[i] = static_cast<A>(v);
    }
    return pairwise(f, buf, n);
  }
  std::int64_t half = n / 2;
  half -= half % kFoldLanes;
  return f(pairwise_strided<F, T, A>(f, x, half, stride),
           pairwise_strided<F, T, A>(f, x + half * stride, n - half, stride));
}
#if defined(__GNUC__) && !defined(__clang__) && !defined(__CUDACC__)
#pragma GCC diagnostic pop
#endif

// acc = fold(acc, x...), in the fold type A (fold_t: T unless F declares a wider one) from acc's
// value, rounded to T once at the end.
template <class F, class T, bool Reorderable>
void fold_loop(char* acc, const char* x, std::int64_t n, std::int64_t stride, const void* data) {
  using A = fold_t<F, T>;
  static_assert(
      std::is_same_v<T, A> || std::is_convertible_v<std::invoke_result_t<const F&, A, A>, A>,
      "the functor's fold_type<T> must be a type its operator() takes and returns");
  const F& f = *static_cast<const F*>(data);
  if (n <= 0) return;
  T t;
  std::memcpy(&t, acc, sizeof(T));
  A a = static_cast<A>(t);
  if constexpr (Reorderable) {
    a = f(a, pairwise_strided<F, T, A>(f, x, n, stride));
  } else {  // strictly left to right: (((a - x0) - x1) - ...)
    for (std::int64_t i = 0; i < n; ++i) {
      T v;
      std::memcpy(&v, x + i * stride, sizeof(T));
      a = f(a, static_cast<A>(v));
    }
  }
  t = static_cast<T>(a);
  std::memcpy(acc, &t, sizeof(T));
}

template <class F, class T>
void scan_loop(char* out, const char* x, std::int64_t n, std::int64_t out_step, std::int64_t x_step,
               const char* carry, const void* data) {
  const F& f = *static_cast<const F*>(data);
  if (n <= 0) return;
  T a, v;
  std::memcpy(&a, x, sizeof(T));
  if (carry) {
    T c;
    std::memcpy(&c, carry, sizeof(T));
    a = f(c, a);
  }
  std::memcpy(out, &a, sizeof(T));
  for (std::int64_t i = 1; i < n; ++i) {
    std::memcpy(&v, x + i * x_step, sizeof(T));
    a = f(a, v);
    std::memcpy(out + i * out_step, &a, sizeof(T));
  }
}

template <class F, class T>
void at_loop(char* a, std::int64_t a_step, const std::int64_t* idx, std::int64_t m, const char* b,
             std::int64_t b_step, const void* data) {
  const F& f = *static_cast<const F*>(data);
  for (std::int64_t j = 0; j < m; ++j) {
    T* p = reinterpret_cast<T*>(a + idx[j] * a_step);
    T v;
    std::memcpy(&v, b + j * b_step, sizeof(T));
    *p = f(*p, v);
  }
}

// Integer dtypes of reorderable ops: any order of the updates gives the same bits, so threads
// may update one element together (compare-and-swap of f's result).
template <class F, class T>
void at_atomic_loop(char* a, std::int64_t a_step, const std::int64_t* idx, std::int64_t m,
                    const char* b, std::int64_t b_step, const void* data) {
  const F& f = *static_cast<const F*>(data);
  for (std::int64_t j = 0; j < m; ++j) {
    std::atomic_ref<T> p(*reinterpret_cast<T*>(a + idx[j] * a_step));
    const T v = *reinterpret_cast<const T*>(b + j * b_step);
    T old = p.load(std::memory_order_relaxed);
    while (!p.compare_exchange_weak(old, f(old, v), std::memory_order_relaxed)) {
    }
  }
}

// Fills the method loops of `impl` (family host) for signature S when S is T(T,T).
template <class F, class S>
void set_methods(LoopImpl& impl, bool reorderable) {
  using T = typename binary_type<S>::type;
  if constexpr (!std::is_void_v<T>) {
    impl.fold = reorderable ? &fold_loop<F, T, true> : &fold_loop<F, T, false>;
    impl.scan = &scan_loop<F, T>;
    impl.at = &at_loop<F, T>;
    if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool> &&
                  std::atomic_ref<T>::is_always_lock_free) {
      if (reorderable) impl.at_atomic = &at_atomic_loop<F, T>;
    }
  }
}

// The same for an op that declares no traits: only the ordered fold (set_methods with
// reorderable false), without instantiating the pairwise one.
template <class F, class S>
void set_ordered_methods(LoopImpl& impl) {
  using T = typename binary_type<S>::type;
  if constexpr (!std::is_void_v<T>) {
    impl.fold = &fold_loop<F, T, false>;
    impl.scan = &scan_loop<F, T>;
    impl.at = &at_loop<F, T>;
  }
}

}  // namespace loom::def::detail
