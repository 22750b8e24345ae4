// Batch versions of the C library functions that the math plugin's functors call (exp2 ... atanh,
// tan, arctan2, power, logaddexp), for the host SIMD loops. Each takes the same steps in every lane
// whatever its neighbours hold, so a lane's bits do not depend on how the data is chunked.
// - float32 lanes are widened to float64, computed with xsimd 8.1's float64 function and rounded
//   once to float: within about 0.5 ulp of float, where xsimd's float32 functions are 1-4 ulp off.
//   atan2 and pow: f32_kernels.hpp's own kernels, in float lanes where the target has FMA.
// - float64 lanes use xsimd's float64 function where it is within a few ulp (bounds measured in
//   tests/parity/tolerances.hpp), else the C library lane by lane (pow).
// - tan is sin / cos from trig.hpp: xsimd's tan picks one argument reduction for the whole batch.
// - Lanes whose inputs xsimd treats otherwise than the C library (special values, listed at each
//   function) are recomputed with the scalar function (detail::patch_lanes).
// The functors call these for batches only; scalars (and nvcc) keep calling std::f.
#pragma once
#include <cmath>
#include <cstddef>
#include <limits>
#include <type_traits>
#include <utility>

#include "detail.hpp"
#include "f32_kernels.hpp"
#include "trig.hpp"

namespace loom::math::detail {

// xsimd::batch<float or double>; false for scalars, float16_t included.
template <class T>
inline constexpr bool is_batch = !std::is_same_v<typename scalar_of<T>::type, T>;

namespace simd {

#if defined(__CUDACC__)
// nvcc compiles the scalar functors only: declarations, never instantiated.
#define LOOM_SIMD_DECL1(name) \
  template <class B>          \
  B name(B x);
#define LOOM_SIMD_DECL2(name) \
  template <class B>          \
  B name(B x, B y);
LOOM_SIMD_DECL1(exp2)
LOOM_SIMD_DECL1(expm1)
LOOM_SIMD_DECL1(log2)
LOOM_SIMD_DECL1(log10)
LOOM_SIMD_DECL1(log1p)
LOOM_SIMD_DECL1(cbrt)
LOOM_SIMD_DECL1(tan)
LOOM_SIMD_DECL1(asin)
LOOM_SIMD_DECL1(acos)
LOOM_SIMD_DECL1(atan)
LOOM_SIMD_DECL1(sinh)
LOOM_SIMD_DECL1(cosh)
LOOM_SIMD_DECL1(tanh)
LOOM_SIMD_DECL1(asinh)
LOOM_SIMD_DECL1(acosh)
LOOM_SIMD_DECL1(atanh)
LOOM_SIMD_DECL2(atan2)
LOOM_SIMD_DECL2(pow)
LOOM_SIMD_DECL2(logaddexp)
LOOM_SIMD_DECL2(logaddexp2)
#undef LOOM_SIMD_DECL1
#undef LOOM_SIMD_DECL2
#else

// xsimd's functions of a batch, found by argument-dependent lookup as elsewhere in the plugin
// (no xsimd header here); a namespace of their own so that simd::f below does not hide them.
namespace adl {
#define LOOM_SIMD_ADL(name)      \
  template <class B, class... X> \
  B name##_of(B v, X... w) {     \
    return name(v, w...);        \
  }
LOOM_SIMD_ADL(exp)
LOOM_SIMD_ADL(exp2)
LOOM_SIMD_ADL(expm1)
LOOM_SIMD_ADL(log2)
LOOM_SIMD_ADL(log10)
LOOM_SIMD_ADL(log1p)
LOOM_SIMD_ADL(cbrt)
LOOM_SIMD_ADL(asin)
LOOM_SIMD_ADL(acos)
LOOM_SIMD_ADL(atan)
LOOM_SIMD_ADL(sinh)
LOOM_SIMD_ADL(cosh)
LOOM_SIMD_ADL(tanh)
LOOM_SIMD_ADL(asinh)
LOOM_SIMD_ADL(acosh)
LOOM_SIMD_ADL(atanh)
LOOM_SIMD_ADL(atan2)
#undef LOOM_SIMD_ADL
}  // namespace adl

// Two-operand patch_lanes: lanes where `edge` holds take fn(x, y) of the scalars.
template <class B, class M, class Fn>
__attribute__((noinline, cold)) B patch_edge_lanes2(B r, B x, B y, M edge, Fn fn) {
  alignas(64) typename B::value_type bx[B::size], by[B::size];
  x.store_aligned(bx);
  y.store_aligned(by);
  for (std::size_t i = 0; i < B::size; ++i) bx[i] = fn(bx[i], by[i]);
  return select(edge, B::load_aligned(bx), r);
}
template <class B, class M, class Fn>
[[gnu::always_inline]] inline B patch_lanes2(B r, B x, B y, M edge, Fn fn) {
  return any(edge) ? patch_edge_lanes2(r, x, y, edge, fn) : r;
}

// Every lane through the scalar function: for float64 ops that xsimd has no accurate batch of.
template <class B, class Fn>
B each_lane2(B x, B y, Fn fn) {
  alignas(64) typename B::value_type bx[B::size], by[B::size];
  x.store_aligned(bx);
  y.store_aligned(by);
  for (std::size_t i = 0; i < B::size; ++i) bx[i] = fn(bx[i], by[i]);
  return B::load_aligned(bx);
}

template <class B>
[[gnu::always_inline]] inline auto non_finite(B x) {
  return !(abs(x) <= B(std::numeric_limits<typename B::value_type>::max()));  // inf, NaN
}

// f(x) with xsimd's float64 f, in double for float lanes; lanes where `edge` holds get the C
// library's f of the lane's own type; `fix` adjusts r first (lanes of x = ±0 that are cheap to
// fix).
#define LOOM_SIMD_UNARY(name, edge, fix)                              \
  template <class B>                                                  \
  B name(B x) {                                                       \
    using S = typename B::value_type;                                 \
    [[maybe_unused]] const B tiny(std::numeric_limits<S>::min());     \
    B r = in_double([](auto v) { return adl::name##_of(v); }, x);     \
    r = fix;                                                          \
    return patch_lanes(r, x, edge, [](S v) { return std::name(v); }); \
  }

// The lanes where xsimd 8.1's float64 function differs from glibc's, as measured over special
// values and 2^20-point sweeps (tolerances.hpp): exp2 flushes subnormal results to 0 and overflows
// from 1023.9; expm1 overflows from 709.4 and, as log1p, gives +0 for -0; log2, log10 and cbrt are
// wrong for subnormal x; the others' domain errors and infinities are left to the C library.
LOOM_SIMD_UNARY(exp2, non_finite(x) || abs(x) > B(1022), r)
LOOM_SIMD_UNARY(expm1, non_finite(x) || x > B(709), select(x == B(0), x, r))
LOOM_SIMD_UNARY(log2, non_finite(x) || x < tiny, r)
LOOM_SIMD_UNARY(log10, non_finite(x) || x < tiny, r)
LOOM_SIMD_UNARY(log1p, non_finite(x) || x <= B(-1), select(x == B(0), x, r))
LOOM_SIMD_UNARY(cbrt, non_finite(x) || abs(x) < tiny, r)
LOOM_SIMD_UNARY(asin, non_finite(x) || !(abs(x) < B(1)), r)
LOOM_SIMD_UNARY(acos, non_finite(x) || !(abs(x) < B(1)), r)
LOOM_SIMD_UNARY(atan, non_finite(x), r)
LOOM_SIMD_UNARY(sinh, non_finite(x), r)
LOOM_SIMD_UNARY(cosh, non_finite(x), r)
LOOM_SIMD_UNARY(tanh, non_finite(x), r)
LOOM_SIMD_UNARY(asinh, non_finite(x), r)
LOOM_SIMD_UNARY(acosh, non_finite(x) || !(x > B(1)), r)
LOOM_SIMD_UNARY(atanh, non_finite(x) || !(abs(x) < B(1)), r)
#undef LOOM_SIMD_UNARY

// tan = sin / cos, both from trig.hpp (one reduction per lane); float lanes in double through
// sincos_f32 (each within 2^-33), double lanes through fdlibm's kernels. Lanes trig.hpp does not
// reduce (|x| > kMax, inf, NaN) take std::tan.
template <class B>
B tan(B x) {
  using S = typename B::value_type;
  B r;
  if constexpr (sizeof(S) == 8) {
    r = trig::sincos_f64<false>(x) / trig::sincos_f64<true>(x);
  } else {
    r = in_double([](auto v) { return trig::sincos_f32<false>(v) / trig::sincos_f32<true>(v); }, x);
  }
  return patch_lanes(r, x, !(abs(x) <= B(trig::kMax)), [](S v) { return std::tan(v); });
}

// float32: f32_kernels.hpp's atan2 in float (with FMA; in double without), lanes with an infinite
// or NaN operand through std::atan2. float64: xsimd's, zeros, infinities and NaN through
// std::atan2.
template <class B>
B atan2(B y, B x) {
  using S = typename B::value_type;
  auto c_atan2 = [](S a, S b) { return std::atan2(a, b); };
  if constexpr (sizeof(S) == 4) {
    auto edge = non_finite(x) || non_finite(y);
#if LOOM_F32_LANES
    const B r = f32::atan2_f32(y, x, edge);  // |x|, |y| < 2^-100 join the edge lanes
#else
    const B r = in_double([](auto a, auto b) { return f32::atan2_finite(a, b); }, y, x);
#endif
    // The edge lanes through double's atan2, rounded once: the same special values as atan2f,
    // within 0.5 ulp where glibc's atan2f is 1.4 ulp off for subnormal operands.
    return patch_lanes2(r, y, x, edge, [](S a, S b) {
      return static_cast<S>(std::atan2(static_cast<double>(a), static_cast<double>(b)));
    });
  } else {
    const B r = adl::atan2_of(y, x);
    return patch_lanes2(r, y, x, non_finite(x) || non_finite(y) || x == B(0) || y == B(0), c_atan2);
  }
}

#if LOOM_F32_LANES
// The lanes of pow_f32's r (the power of |x|) that need more: negative x, and the edge lanes (x
// zero, subnormal, inf or NaN; `far`) through double's pow, rounded once: the same special values
// as powf, within 0.5 ulp where glibc's powf is up to 0.82 ulp off (seen near float's range).
template <class B, class M>
__attribute__((noinline)) B pow_f32_fix(B r, B x, B y, M far) {
  using S = typename B::value_type;
  return patch_lanes2(f32::pow_sign(r, x, y), x, y, far || f32::not_normal<false>(x), [](S a, S b) {
    return static_cast<S>(std::pow(static_cast<double>(a), static_cast<double>(b)));
  });
}
#endif

// float32: f32_kernels.hpp's pow in float (within 0.57 ulp; with FMA) or in double (within 2^-37
// before the rounding to float; without), the sign and NaN of negative x from y's parity, as C99's
// pow. Lanes with x = 0, x or y inf or NaN take std::pow (pow(x, 0) = 1 and pow(1, y) = 1 even for
// NaN); in float, subnormal x and |y ln x| > 86.5 too (results near or past float's range).
// float64: std::pow lane by lane, as xsimd's exp(y * log x) loses about |y log x| ulp.
template <class B>
B pow(B x, B y) {
  using S = typename B::value_type;
  auto c_pow = [](S a, S b) { return std::pow(a, b); };
  if constexpr (sizeof(S) == 8) {
    return each_lane2(x, y, c_pow);
  } else {
#if LOOM_F32_LANES
    typename B::batch_bool_type far;
    const B r = f32::pow_f32(x, y, far);
    // One test for the rare lanes: negative x (the sign from y's parity) and the edge lanes.
    return any(far || f32::not_normal<true>(x)) ? pow_f32_fix(r, x, y, far) : r;
#else
    const auto edge = non_finite(x) || non_finite(y) || x == B(0);
    const B r = in_double([](auto a, auto b) { return f32::pow_finite(a, b); }, x, y);
    return patch_lanes2(r, x, y, edge, c_pow);
#endif
  }
}

// NumPy's npy_logaddexp(2) steps (exp2.hpp's scalar functors), in double for float lanes: equal
// inputs (±inf included) give x + log 2 (x + 1), else the larger plus log1p(exp(-|x - y|)); NaN
// stays NaN.
template <bool Two, class B>
B logaddexp_(B x, B y) {
  return in_double(
      [](auto a, auto b) {
        using BD = decltype(a);
        const BD d = a - b;
        const BD big = select(d > BD(0), a, b);
        // xsimd's float64 exp and exp2 flush subnormal results to 0: those lanes take libm's.
        const BD e = -abs(d);
        const BD p = Two ? patch_lanes(adl::exp2_of(e), e, e < BD(-1022),
                                       [](double v) { return std::exp2(v); })
                         : exp_ieee(e);
        const BD t =
            Two ? BD(1.442695040888963407359924681001892137) * adl::log1p_of(p) : adl::log1p_of(p);
        const BD same = a + BD(Two ? 1.0 : 0.693147180559945309417232121458176568);
        return select(a == b, same, select(d == d, big + t, d));
      },
      x, y);
}
template <class B>
B logaddexp(B x, B y) {
  return logaddexp_<false>(x, y);
}
template <class B>
B logaddexp2(B x, B y) {
  return logaddexp_<true>(x, y);
}

#endif  // __CUDACC__

}  // namespace simd

}  // namespace loom::math::detail
