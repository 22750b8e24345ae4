// The math plugin's exponential and logarithm functors (exp ... logaddexp2, and the sinexp
// example op). All run on batches in the host loops: exp and log through detail.hpp, the others
// through simd_libm.hpp; scalars (and nvcc's loops) call the C library's function of the scalar
// type (float or double), which nvcc maps to CUDA's.
#pragma once
#include <cmath>
#include <cstdint>
#include <type_traits>

#include "detail.hpp"
#include "loom/hd.hpp"
#include "simd_libm.hpp"

namespace loom::math {

struct Exp {
  static constexpr bool vectorize = true;
  template <class T>
  LOOM_HD T operator()(T x) const {
    return detail::exp_ieee(x);
  }
};

struct Log {
  static constexpr bool vectorize = true;
  template <class T>
  LOOM_HD T operator()(T x) const {
    return detail::log_ieee(x);
  }
};

struct SinExp {
  static constexpr bool vectorize = true;
  template <class T>
  LOOM_HD T operator()(T x, T y) const {
    return detail::sincos_ieee<false>(x) * detail::exp_ieee(y);
  }
};

// Batches take simd_libm.hpp's version, scalars (nvcc's included) the C library's.
#define LOOM_MATH_LIBM(Name, fn)            \
  struct Name {                             \
    static constexpr bool vectorize = true; \
    template <class T>                      \
    LOOM_HD T operator()(T x) const {       \
      if constexpr (detail::is_batch<T>) {  \
        return detail::simd::fn(x);         \
      } else {                              \
        using std::fn;                      \
        return fn(x);                       \
      }                                     \
    }                                       \
  };
LOOM_MATH_LIBM(Exp2, exp2)
LOOM_MATH_LIBM(Expm1, expm1)
LOOM_MATH_LIBM(Log2, log2)
LOOM_MATH_LIBM(Log10, log10)
LOOM_MATH_LIBM(Log1p, log1p)
#undef LOOM_MATH_LIBM

// log(exp(x) + exp(y)) without overflow, step for step as NumPy's npy_logaddexp: equal inputs
// (±inf included) give x + log 2, else the larger plus log1p(exp(-|x - y|)); NaN stays NaN.
// Batches: simd_libm.hpp's logaddexp, the same steps in double for float lanes.
struct LogAddExp {
  static constexpr bool vectorize = true;
  template <class T>
  LOOM_HD T operator()(T x, T y) const {
    if constexpr (detail::is_batch<T>) {
      return detail::simd::logaddexp(x, y);
    } else {
      using std::exp;
      using std::log1p;
      if (x == y) return x + T(0.693147180559945309417232121458176568);
      const T d = x - y;
      if (d > 0) return x + log1p(exp(-d));
      if (d <= 0) return y + log1p(exp(d));
      return d;
    }
  }
};
// log2(2^x + 2^y), as npy_logaddexp2: log2(1 + t) as log1p(t) / ln 2.
struct LogAddExp2 {
  static constexpr bool vectorize = true;
  template <class T>
  LOOM_HD T operator()(T x, T y) const {
    if constexpr (detail::is_batch<T>) {
      return detail::simd::logaddexp2(x, y);
    } else {
      using std::exp2;
      using std::log1p;
      constexpr T kLog2e = T(1.442695040888963407359924681001892137);
      if (x == y) return x + T(1);
      const T d = x - y;
      if (d > 0) return x + kLog2e * log1p(exp2(-d));
      if (d <= 0) return y + kLog2e * log1p(exp2(d));
      return d;
    }
  }
};

}  // namespace loom::math
