// The math plugin's operations as functors, one per op: compiled by g++ for the host loops (and,
// where `vectorize` is set, for xsimd::batch<T>) and by nvcc for the CUDA loops. No xsimd or CUDA
// header here: batch overloads are found by argument-dependent lookup (`using std::sqrt;`); sin
// and cos of batches are loom's own (trig.hpp). Reductions reuse the binary ones (sum is Add); the
// gufuncs are in gufuncs.hpp.
#pragma once
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "loom/hd.hpp"
#include "trig.hpp"

namespace loom::math {

namespace detail {

// Integer +, -, * wrap modulo 2^bits as NumPy's do (signed overflow is undefined in C++); the
// `1u *` promotes types narrower than int to unsigned int rather than to int.
#define LOOM_MATH_WRAPPING(name, op)                                                      \
  template <class T>                                                                      \
  LOOM_HD T name(T x, T y) {                                                              \
    if constexpr (std::is_integral_v<T>) {                                                \
      using U = std::make_unsigned_t<T>;                                                  \
      return static_cast<T>(static_cast<U>(1u * static_cast<U>(x) op static_cast<U>(y))); \
    } else {                                                                              \
      return x op y;                                                                      \
    }                                                                                     \
  }
LOOM_MATH_WRAPPING(add, +)
LOOM_MATH_WRAPPING(sub, -)
LOOM_MATH_WRAPPING(mul, *)
#undef LOOM_MATH_WRAPPING

// NaN test: `bool` for scalars, a mask for batches. Not `x != x`: xsimd 8.1 compares batches with
// the ordered predicate (_CMP_NEQ_OQ on AVX), so NaN != NaN is false there.
template <class T>
LOOM_HD auto is_nan(T x) {
  if constexpr (std::is_integral_v<T>) {
    return false;
  } else {
    using std::isnan;
    return isnan(x);
  }
}

// cond ? a : b for scalars; batches reach xsimd::select through argument-dependent lookup.
template <class T>
LOOM_HD T select(bool cond, T a, T b) {
  return cond ? a : b;
}

template <class T, class = void>
struct scalar_of {
  using type = T;
};
template <class T>
struct scalar_of<T, std::void_t<typename T::value_type>> {
  using type = typename T::value_type;  // xsimd::batch<T>
};

// a*b + c rounded once for scalars and batches alike (xsimd 8.1's batch fma on AVX-512 rounds
// twice), so that a SIMD loop gives the scalar functor's bits: the CUDA loop's and a kernel's.
template <class T>
LOOM_HD inline T fma1(T a, T b, T c) {
  if constexpr (std::is_arithmetic_v<T>) {
    using std::fma;
    return fma(a, b, c);
  } else {
#if !defined(__CUDACC__)  // batches exist in host builds only
    return trig::fmadd(a, b, c);
#endif
  }
}

// Batches only: lanes where `edge` holds take the scalar function's result, the others keep r, so a
// lane's value depends on that lane alone however the data is chunked. Edge lanes are rare: their
// calls stay out of line, so that the functor itself inlines into the loop.
template <class B, class M, class Fn>
__attribute__((noinline, cold)) B patch_edge_lanes(B r, B x, M edge, Fn fn) {
  alignas(64) typename B::value_type buf[B::size];
  x.store_unaligned(buf);
  for (auto& v : buf) v = fn(v);
  return select(edge, B::load_unaligned(buf), r);
}
template <class B, class M, class Fn>
B patch_lanes(B r, B x, M edge, Fn fn) {
  return any(edge) ? patch_edge_lanes(r, x, edge, fn) : r;
}

// exp and log as libm gives them. xsimd 8.1's batch exp returns 0 where the result is subnormal
// and inf from x = 88.38 (float) / 709.44 (double) where it is still finite; its double log is
// wrong for subnormal x. Those lanes are recomputed with std::exp / std::log.
template <class T>
LOOM_HD T exp_ieee(T x) {
  using std::exp;
  if constexpr (std::is_arithmetic_v<T>) {
    return exp(x);
  } else {
    using S = typename T::value_type;
    const T lo(sizeof(S) == 8 ? -708.0 : -87.0), hi(sizeof(S) == 8 ? 709.0 : 88.0);
    return patch_lanes(exp(x), x, (x < lo) || (x > hi), [](S v) { return std::exp(v); });
  }
}
template <class T>
LOOM_HD T log_ieee(T x) {
  using std::log;
  if constexpr (std::is_arithmetic_v<T>) {
    return log(x);
  } else {
    using S = typename T::value_type;
    const T tiny(std::numeric_limits<S>::min());
    return patch_lanes(log(x), x, (x > T(0)) && (x < tiny), [](S v) { return std::log(v); });
  }
}

// sin (Cos false) and cos: libm's for scalars; for batches trig.hpp's, lane by lane, with the lanes
// it does not reduce (|x| > trig::kMax, inf, NaN) recomputed with std::sin / std::cos.
template <bool Cos, class T>
__attribute__((always_inline)) inline LOOM_HD T sincos_ieee(T x) {
  using std::cos;
  using std::sin;
  if constexpr (std::is_arithmetic_v<T>) {
    return Cos ? cos(x) : sin(x);
  } else {
    using S = typename T::value_type;
    return patch_lanes(trig::sincos<Cos>(x), x, !(abs(x) <= T(trig::kMax)),
                       [](S v) { return Cos ? std::cos(v) : std::sin(v); });
  }
}

}  // namespace detail

// ---- ufuncs ----------------------------------------------------------------------------------

#define LOOM_MATH_BINARY(Name, expr)        \
  struct Name {                             \
    static constexpr bool vectorize = true; \
    template <class T>                      \
    LOOM_HD T operator()(T x, T y) const {  \
      return expr;                          \
    }                                       \
  };
LOOM_MATH_BINARY(Add, detail::add(x, y))
LOOM_MATH_BINARY(Subtract, detail::sub(x, y))
LOOM_MATH_BINARY(Multiply, detail::mul(x, y))
LOOM_MATH_BINARY(Divide, x / y)
#undef LOOM_MATH_BINARY

struct Square {
  static constexpr bool vectorize = true;
  template <class T>
  LOOM_HD T operator()(T x) const {
    return detail::mul(x, x);
  }
};

struct Negative {
  static constexpr bool vectorize = true;
  template <class T>
  LOOM_HD T operator()(T x) const {
    if constexpr (std::is_integral_v<T>) {
      return detail::sub(T(0), x);  // -INT_MIN wraps to INT_MIN, as in NumPy
    } else {
      return x * T(-1);  // not -x: xsimd 8.1 negates AVX-512 batches as 0 - x, so -(0.0) == +0.0
    }
  }
};

struct Abs {
  static constexpr bool vectorize = true;
  template <class T>
  LOOM_HD T operator()(T x) const {
    if constexpr (std::is_integral_v<T>) {
      return x < 0 ? detail::sub(T(0), x) : x;  // abs(INT_MIN) wraps to INT_MIN, as in NumPy
    } else {
      using std::abs;
      return abs(x);  // clears the sign bit: abs(-0.0) == +0.0, abs(-NaN) == NaN
    }
  }
};

#define LOOM_MATH_UNARY(Name, expr)         \
  struct Name {                             \
    static constexpr bool vectorize = true; \
    template <class T>                      \
    LOOM_HD T operator()(T x) const {       \
      using std::sqrt;                      \
      return expr;                          \
    }                                       \
  };
LOOM_MATH_UNARY(Sqrt, sqrt(x))
LOOM_MATH_UNARY(Sin, detail::sincos_ieee<false>(x))
LOOM_MATH_UNARY(Cos, detail::sincos_ieee<true>(x))
LOOM_MATH_UNARY(Exp, detail::exp_ieee(x))
LOOM_MATH_UNARY(Log, detail::log_ieee(x))
#undef LOOM_MATH_UNARY

struct SinExp {
  static constexpr bool vectorize = true;
  template <class T>
  LOOM_HD T operator()(T x, T y) const {
    return detail::sincos_ieee<false>(x) * detail::exp_ieee(y);
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

// NaN-propagating, as np.maximum: x if x > y or x is NaN, else y (NaN when y is). Equal values
// give y, as NumPy's own SIMD loops do: maximum(-0.0, 0.0) is 0.0, maximum(0.0, -0.0) is -0.0.
struct Maximum {
  static constexpr bool vectorize = true;
  template <class T>
  LOOM_HD T operator()(T x, T y) const {
    using detail::select;
    return select((x > y) | detail::is_nan(x), x, y);
  }
};
struct Minimum {
  static constexpr bool vectorize = true;
  template <class T>
  LOOM_HD T operator()(T x, T y) const {
    using detail::select;
    return select((x < y) | detail::is_nan(x), x, y);
  }
};

// np.divmod: floor quotient and a remainder with the sign of the divisor. Integers: x // 0 and
// x % 0 are 0 (NumPy warns; loom does not), INT_MIN // -1 wraps to INT_MIN. Floats: NumPy's
// npy_divmod, step for step.
struct DivMod {
  template <class T>
  LOOM_HD void operator()(T x, T y, T& q, T& r) const {
    if constexpr (std::is_integral_v<T>) {
      if (y == 0 || y == -1) {  // -1: x / -1 traps for INT_MIN
        q = y == 0 ? T(0) : detail::sub(T(0), x);
        r = 0;
        return;
      }
      T d = x / y, m = x % y;
      if (m != 0 && ((m < 0) != (y < 0))) {
        d -= 1;
        m += y;
      }
      q = d;
      r = m;
    } else {
      T m = std::fmod(x, y);
      if (y == 0) {  // fmod gives NaN; x / 0 gives ±inf or NaN
        q = x / y;
        r = m;
        return;
      }
      T d = (x - m) / y;  // very nearly an integer
      if (m != 0) {       // true for NaN, as in NumPy
        if ((y < 0) != (m < 0)) {
          m += y;
          d -= T(1);
        }
      } else {
        m = std::copysign(T(0), y);
      }
      T fd;
      if (d != 0) {
        fd = std::floor(d);
        if (d - fd > T(0.5)) fd += T(1);
      } else {
        fd = std::copysign(T(0), x / y);
      }
      q = fd;
      r = m;
    }
  }
};

// np.modf: (fractional part, integral part), both with the sign of x; modf(±inf) = (±0, ±inf).
struct Modf {
  template <class T>
  LOOM_HD void operator()(T x, T& frac, T& whole) const {
    frac = std::modf(x, &whole);
  }
};

}  // namespace loom::math
