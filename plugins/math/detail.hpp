// Helpers the math plugin's functors share: wrapping integer arithmetic, NaN tests and selects
// that work on scalars and xsimd batches alike, and libm-exact exp / log / sin / cos of batches
// (edge lanes recomputed with the scalar function). No xsimd or CUDA header here: batch overloads
// are found by argument-dependent lookup.
#pragma once
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "f32_kernels.hpp"
#include "f32_trig_exp.hpp"
#include "loom/hd.hpp"
#include "trig.hpp"

namespace loom::math {

namespace detail {

// Integer +, -, * wrap modulo 2^bits as NumPy's do (signed overflow is undefined in C++); the
// `1u *` promotes types narrower than int to unsigned int rather than to int. bool: + is `or`,
// * is `and` (NumPy's ?? loops of add and multiply); bool has no subtract.
#define LOOM_MATH_WRAPPING(name, op, bool_op)                                             \
  template <class T>                                                                      \
  LOOM_HD T name(T x, T y) {                                                              \
    if constexpr (std::is_same_v<T, bool>) {                                              \
      return x bool_op y;                                                                 \
    } else if constexpr (std::is_integral_v<T>) {                                         \
      using U = std::make_unsigned_t<T>;                                                  \
      return static_cast<T>(static_cast<U>(1u * static_cast<U>(x) op static_cast<U>(y))); \
    } else {                                                                              \
      return x op y;                                                                      \
    }                                                                                     \
  }
LOOM_MATH_WRAPPING(add, +, ||)
LOOM_MATH_WRAPPING(sub, -, !=)
LOOM_MATH_WRAPPING(mul, *, &&)
#undef LOOM_MATH_WRAPPING

// An integer dtype other than bool.
template <class T>
inline constexpr bool is_int = std::is_integral_v<T> && !std::is_same_v<T, bool>;

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
// wrong for subnormal x. Those lanes are recomputed with std::exp / std::log. float exp and log
// are f32_trig_exp.hpp's and f32_kernels.hpp's where the target has FMA (faster than xsimd's,
// within 0.55 and 0.54 ulp over every float).
template <class T>
LOOM_HD T exp_ieee(T x) {
  using std::exp;
  if constexpr (std::is_arithmetic_v<T>) {
    return exp(x);
  } else {
    using S = typename T::value_type;
    auto c_exp = [](S v) { return std::exp(v); };
#if !defined(__CUDACC__) && LOOM_F32_LANES  // batches exist in host builds only
    if constexpr (sizeof(S) == 4) {
      // [-87, 88] in float; beyond (overflow, subnormal results) and NaN: std::exp.
      const auto far = !(x >= T(simd::f32::kExpMin) && x <= T(simd::f32::kExpMax));
      return patch_lanes(simd::f32::exp_f32(x), x, far, c_exp);
    }
#endif
    const T lo(sizeof(S) == 8 ? -708.0 : -87.0), hi(sizeof(S) == 8 ? 709.0 : 88.0);
    return patch_lanes(exp(x), x, (x < lo) || (x > hi), c_exp);
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
    auto c_log = [](S v) { return std::log(v); };
#if !defined(__CUDACC__) && LOOM_F32_LANES  // batches exist in host builds only
    if constexpr (sizeof(S) == 4) {
      // f32_kernels.hpp's, in float: positive normal finite lanes; 0, negative, subnormal, inf
      // and NaN take std::log.
      const auto edge = !(x >= tiny && x <= T(std::numeric_limits<S>::max()));
      return patch_lanes(simd::f32::log_f32(x), x, edge, c_log);
    }
#endif
    return patch_lanes(log(x), x, (x > T(0)) && (x < tiny), c_log);
  }
}

// trig.hpp's sin / cos of a batch (float lanes widened to float64), with the lanes it does not
// reduce (|x| > trig::kMax, inf, NaN) recomputed with std::sin / std::cos.
template <bool Cos, class T>
__attribute__((always_inline)) inline T sincos_wide(T x) {
  using S = typename T::value_type;
  return patch_lanes(trig::sincos<Cos>(x), x, !(abs(x) <= T(trig::kMax)),
                     [](S v) { return Cos ? std::cos(v) : std::sin(v); });
}
// r with the lanes where `far` holds taken from sincos_wide: out of line, as patch_edge_lanes.
template <bool Cos, class T, class M>
__attribute__((noinline, cold)) T sincos_far(T r, T x, M far) {
  return select(far, sincos_wide<Cos>(x), r);
}

// sin (Cos false) and cos: libm's for scalars; for batches f32_trig_exp.hpp's (float lanes, where
// the target has FMA) or trig.hpp's, lane by lane.
template <bool Cos, class T>
__attribute__((always_inline)) inline LOOM_HD T sincos_ieee(T x) {
  using std::cos;
  using std::sin;
  if constexpr (std::is_arithmetic_v<T>) {
    return Cos ? cos(x) : sin(x);
  } else {
    using S = typename T::value_type;
#if !defined(__CUDACC__) && LOOM_F32_LANES  // batches exist in host builds only
    if constexpr (sizeof(S) == 4) {
      // f32_trig_exp.hpp's in float for |x| <= 2^17; the others (rare) as below.
      const auto far = !(abs(x) <= T(simd::f32::kSinCosMax));
      const T r = simd::f32::sincos_f32<Cos>(x);
      return any(far) ? sincos_far<Cos>(r, x, far) : r;
    }
#endif
    return sincos_wide<Cos>(x);
  }
}

}  // namespace detail

}  // namespace loom::math
