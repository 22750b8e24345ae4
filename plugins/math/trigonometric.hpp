// The math plugin's trigonometric and hyperbolic functors (sin ... arctanh, arctan2, hypot,
// deg2rad, rad2deg). All run on batches in the host loops (sin, cos: detail.hpp; tan ... arctan2:
// simd_libm.hpp); scalars (and nvcc's loops) call the C library's function of the scalar type,
// which nvcc maps to CUDA's.
#pragma once
#include <cmath>
#include <cstdint>
#include <type_traits>

#include "detail.hpp"
#include "loom/hd.hpp"
#include "simd_libm.hpp"

namespace loom::math {

struct Sin {
  static constexpr bool vectorize = true;
  template <class T>
  LOOM_HD T operator()(T x) const {
    return detail::sincos_ieee<false>(x);
  }
};

struct Cos {
  static constexpr bool vectorize = true;
  template <class T>
  LOOM_HD T operator()(T x) const {
    return detail::sincos_ieee<true>(x);
  }
};

// sqrt(x*x + y*y) without overflow or underflow: operands are scaled by a power of two (exact)
// when the larger is outside a safe range. xsimd's own hypot squares unscaled (1e200 -> inf).
// hypot(±inf, NaN) is inf, as IEEE 754 and NumPy say.
struct Hypot {
  static constexpr bool vectorize = true;
  template <class T>
  LOOM_HD T operator()(T x, T y) const {
    using S = typename detail::scalar_of<T>::type;
    using detail::select;
    using std::abs;
    using std::sqrt;
    constexpr bool f64 = sizeof(S) == 8;
    const T hi(f64 ? 0x1p500 : 0x1p60), lo(f64 ? 0x1p-500 : 0x1p-60);
    const T down(f64 ? 0x1p-600 : 0x1p-70), up(f64 ? 0x1p600 : 0x1p90);
    const T inf(static_cast<S>(HUGE_VAL));  // not numeric_limits: host-only under nvcc
    const T ax = abs(x), ay = abs(y);
    const T big = select(ax > ay, ax, ay);
    const T scale = select(big > hi, down, select(big < lo, up, T(1)));
    const T sx = ax * scale, sy = ay * scale;
    const T h = sqrt(detail::fma1(sx, sx, sy * sy)) / scale;
    return select((ax == inf) || (ay == inf), inf, h);
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
LOOM_MATH_LIBM(Tan, tan)
LOOM_MATH_LIBM(Arcsin, asin)
LOOM_MATH_LIBM(Arccos, acos)
LOOM_MATH_LIBM(Arctan, atan)
LOOM_MATH_LIBM(Sinh, sinh)
LOOM_MATH_LIBM(Cosh, cosh)
LOOM_MATH_LIBM(Tanh, tanh)
LOOM_MATH_LIBM(Arcsinh, asinh)
LOOM_MATH_LIBM(Arccosh, acosh)
LOOM_MATH_LIBM(Arctanh, atanh)
#undef LOOM_MATH_LIBM

struct Arctan2 {
  static constexpr bool vectorize = true;
  template <class T>
  LOOM_HD T operator()(T y, T x) const {
    if constexpr (detail::is_batch<T>) {
      return detail::simd::atan2(y, x);
    } else {
      using std::atan2;
      return atan2(y, x);
    }
  }
};

// x * (pi / 180) and x * (180 / pi), the constant computed in the dtype as NumPy's loops do
// (NPY_PIf / 180.0f for float32).
struct Deg2rad {
  static constexpr bool vectorize = true;
  template <class T>
  LOOM_HD T operator()(T x) const {
    using S = typename detail::scalar_of<T>::type;
    return x * T(static_cast<S>(3.141592653589793238462643383279502884) / S(180));
  }
};
struct Rad2deg {
  static constexpr bool vectorize = true;
  template <class T>
  LOOM_HD T operator()(T x) const {
    using S = typename detail::scalar_of<T>::type;
    return x * T(S(180) / static_cast<S>(3.141592653589793238462643383279502884));
  }
};

}  // namespace loom::math
