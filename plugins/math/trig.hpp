// sin and cos of xsimd batches, lane by lane. xsimd 8.1's own pick one argument reduction for the
// whole batch (a cheap one only when every lane is <= 20 pi), so a lane's bits depended on its
// neighbours, and the cheap one is up to 25,533 ulp off near cos's zeros. Here every lane takes
// the same steps whatever its neighbours are, with no branch:
// - float64: k = round(x * 2/pi), r = x - k*pi/2 as rh + rl (Cody-Waite, pi/2 = C1 + C2 + C3 + C4;
//   C1..C3 have 33 significant bits, so k*C1..k*C3 are exact for |k| < 2^20 with or without FMA,
//   and x - k*C1 is exact), then fdlibm's __kernel_sin / __kernel_cos (FreeBSD k_sin.c, k_cos.c)
//   on rh + rl, the quadrant k mod 4 picking sin or cos and the sign.
// - float32: widened to float64, x = q*pi/2 + r with |r| <= pi/2 and q even (sin) or odd (cos),
//   and one polynomial for sin(r) accurate to 2^-33, rounded once to float. detail.hpp uses it
//   where the target has no FMA, and for the lanes beyond f32_trig_exp.hpp's float kernel's range.
// Lanes with |x| > kMax, inf or NaN come out wrong here: the caller recomputes them with libm.
// nvcc compiles the scalar functors only: for it this header declares sincos and nothing more.
#pragma once
#include <cmath>
#include <cstddef>
#include <type_traits>
#include <utility>
#if (defined(__AVX512F__) || defined(__FMA__)) && !defined(__CUDACC__)
#include <immintrin.h>  // fused multiply-adds; float <-> double conversions of 512-bit registers
#endif

namespace loom::math::detail::trig {

// Largest |x| reduced here: |k| <= 1,001,317 < 2^20.
inline constexpr double kMax = 0x1.8p20;  // 1,572,864

#if defined(__CUDACC__)
template <bool Cos, class B>
B sincos(B x);  // host batches only: never instantiated by nvcc
#else

// pi/2 = kC1 + kC2 + kC3 + kC4 + 7e-49 = kC1 + kC2f + 4e-27.
inline constexpr double kC1 = 0x1.921fb544p0, kC2 = 0x1.0b4611a6p-34, kC3 = 0x1.3198a2ep-69;
inline constexpr double kC4 = 0x1.b839a252049c1p-104, kC2f = 0x1.0b4611a626331p-34;
inline constexpr double kTwoOverPi = 0x1.45f306dc9c883p-1, kOneOverPi = 0x1.45f306dc9c883p-2;
inline constexpr double kRound = 0x1.8p52;  // (t + kRound) - kRound: t rounded, +0 for t = -0

// True when batch B is T lanes in a Bytes-wide register. Not is_same<register_type, __m512>:
// GCC drops the vector types' attributes on a template argument and warns (-Wignored-attributes).
template <class B, class T, std::size_t Bytes>
inline constexpr bool reg_is =
    std::is_same_v<typename B::value_type, T> && sizeof(typename B::register_type) == Bytes;

// a*b + c, rounded once where the target has FMA: xsimd 8.1's fma on AVX-512 is a multiply and an
// add. The intrinsics, not a loop over the lanes: GCC vectorizes such a loop at its preferred
// width, 256 bits for -march=icelake-server and the like, and split every 512-bit fma into
// halves, shuffles and spills (float32 sin was 3.5x slower with AVX-512 than with AVX2).
template <class B>
[[gnu::always_inline]] inline B fmadd(B a, B b, B c) {
#if defined(__FMA__)
  using V = typename B::register_type;
#if defined(__AVX512F__)
  if constexpr (reg_is<B, double, 64>) return B(_mm512_fmadd_pd(a, b, c));
  if constexpr (reg_is<B, float, 64>) return B(_mm512_fmadd_ps(a, b, c));
#endif
  if constexpr (reg_is<B, double, 32>) return B(_mm256_fmadd_pd(a, b, c));
  if constexpr (reg_is<B, float, 32>) return B(_mm256_fmadd_ps(a, b, c));
  if constexpr (reg_is<B, double, 16>) return B(_mm_fmadd_pd(a, b, c));
  if constexpr (reg_is<B, float, 16>) return B(_mm_fmadd_ps(a, b, c));
  const V va = a, vb = b, vc = c;
  V r;
  for (std::size_t i = 0; i < B::size; ++i) r[i] = std::fma(va[i], vb[i], vc[i]);
  return B(r);
#else
  return fma(a, b, c);
#endif
}

// v with its sign flipped where bit `bit` of t is set: t = kRound + k holds the integer k in its
// last bits. GCC vector operators on the double registers; not -v: xsimd 8.1 negates AVX-512
// batches as 0 - v, so -(+0) is +0.
template <int bit, class B>
[[gnu::always_inline]] inline B flip_sign(B v, B t) {
  using V = typename B::register_type;
  typedef long long VI __attribute__((vector_size(sizeof(V))));
  return B(V((VI)V(v) ^ (((VI)V(t) >> bit) << 63)));
}

// float64 lanes, |x| <= kMax.
template <bool Cos, class B>
[[gnu::always_inline]] inline B sincos_f64(B x) {
  const B t = x * B(kTwoOverPi) + B(kRound), k = t - B(kRound);
  const B r1 = fmadd(k, B(-kC1), x);  // exact; -kC1, not -k: keeps the sign of x = -0
  // k*(C2 + C3 + C4) as th + tl (|tl| <= 2^-66), then rh + rl = r1 - th - tl with a two-sum, so
  // that |rl| stays within about ulp(rh), as the kernels' first-order tail correction needs.
  const B t2 = k * B(kC2), t3 = k * B(kC3);
  const B th = t2 + t3, tl = (t3 - (th - t2)) + k * B(kC4);
  const B rh = r1 - th, bv = rh - r1;
  const B rl = ((r1 - (rh - bv)) - (th + bv)) - tl;
  // __kernel_sin(rh, rl, 1) and __kernel_cos(rh, rl): polynomials within 2^-58 on [-pi/4, pi/4].
  const B z = rh * rh, w = z * z, v = z * rh;
  const B sr = fmadd(z, fmadd(z, B(0x1.71de357b1fe7dp-19), B(-0x1.a01a019c161d5p-13)),
                     B(0x1.111111110f8a6p-7)) +
               z * w * fmadd(z, B(0x1.5d93a5acfd57cp-33), B(-0x1.ae5e68a2b9cebp-26));
  const B s = rh - ((z * (B(0.5) * rl - v * sr) - rl) - v * B(-0x1.5555555555549p-3));
  const B cr = z * fmadd(z, fmadd(z, B(0x1.a01a019cb1590p-16), B(-0x1.6c16c16c15177p-10)),
                         B(0x1.555555555554cp-5)) +
               w * w *
                   fmadd(z, fmadd(z, B(-0x1.8fae9be8838d4p-37), B(0x1.1ee9ebdb4b1c4p-29)),
                         B(-0x1.27e4f809c52adp-22));
  const B hz = B(0.5) * z, wc = B(1) - hz;
  const B c = wc + (((B(1) - wc) - hz) + (z * cr - rh * rl));
  // sin(x) is s, c, -s, -c for k mod 4 = 0..3; cos(x) is sin(x + pi/2), quadrant k + 1.
  const B tq = Cos ? t + B(1) : t, h = tq * B(0.5);
  return flip_sign<1>(select(floor(h) != h, c, s), tq);
}

// float32 lanes widened to float64, |x| <= kMax. sin: k = round(x/pi), q = 2k; cos: k =
// floor(x/pi), q = 2k + 1. Then r = x - q*pi/2 is within [-1.58, 1.58] with a relative error near
// 2^-53, sin(x) = (-1)^k sin(r) and cos(x) = (-1)^(k+1) sin(r), and sin(r) = r * (1 + z*p(z))
// with |sin(r)/r - 1 - z*p(z)| < 2^-33 (Chebyshev fit; r * (...) keeps sin(-0) = -0).
template <bool Cos, class B>
[[gnu::always_inline]] inline B sincos_f32(B x) {
  // sin: t from one fma and r = x - k*pi with pi/2's parts doubled (exact): two operations fewer
  // than through q = 2k, the same r for a given k.
  B r, t;
  if constexpr (Cos) {
    t = floor(x * B(kOneOverPi)) + B(kRound + 1);
    const B q = fmadd(t - B(kRound + 1), B(2), B(1));
    r = fmadd(q, B(-kC2f), fmadd(q, B(-kC1), x));
  } else {
    t = fmadd(x, B(kOneOverPi), B(kRound));
    const B k = t - B(kRound);
    r = fmadd(k, B(-2 * kC2f), fmadd(k, B(-2 * kC1), x));
  }
  const B z = r * r;
  B p = fmadd(z, B(-0x1.9d808658e2ce7p-26), B(0x1.7194e54dbb814p-19));
  p = fmadd(z, p, B(-0x1.a018fcd3a4f10p-13));
  p = fmadd(z, p, B(0x1.11110fcbf243cp-7));
  p = fmadd(z, p, B(-0x1.5555555451ac8p-3));
  return flip_sign<0>(r * fmadd(z, p, B(1)), t);
}

template <class B>
struct widened;
template <template <class, class> class Batch, class A>
struct widened<Batch<float, A> > {
  using type = Batch<double, A>;
};

// sin or cos of a float batch as two batches of doubles through sincos_f32. 512-bit registers
// convert with AVX-512 intrinsics (GCC 12 splits __builtin_convertvector there into 128-bit
// steps, 15 % of the time of sin), others with GCC vector builtins: vcvtps2pd, vcvtpd2ps.
template <bool Cos, class BF, std::size_t... I>
[[gnu::always_inline]] inline BF sincos_halves(BF x, std::index_sequence<I...>) {
  using BD = typename widened<BF>::type;
  using VF = typename BF::register_type;
  using VD = typename BD::register_type;
  constexpr std::size_t h = sizeof...(I);
  static_assert(2 * h == BF::size && h == BD::size, "a float batch is two double batches");
  const VF v = x;
#if defined(__AVX512F__)
  if constexpr (sizeof(VF) == 64) {
    const __m256 hi = _mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(v), 1));
    const __m256 slo =
        _mm512_cvtpd_ps(sincos_f32<Cos>(BD(_mm512_cvtps_pd(_mm512_castps512_ps256(v)))));
    const __m256 shi = _mm512_cvtpd_ps(sincos_f32<Cos>(BD(_mm512_cvtps_pd(hi))));
    const __m512d s = _mm512_castps_pd(_mm512_castps256_ps512(slo));
    return BF(_mm512_castpd_ps(_mm512_insertf64x4(s, _mm256_castps_pd(shi), 1)));
  }
#endif
  typedef float Half __attribute__((vector_size(h * sizeof(float))));
  const Half lo = __builtin_shufflevector(v, v, I...), hi = __builtin_shufflevector(v, v, h + I...);
  const Half slo =
      __builtin_convertvector(VD(sincos_f32<Cos>(BD(__builtin_convertvector(lo, VD)))), Half);
  const Half shi =
      __builtin_convertvector(VD(sincos_f32<Cos>(BD(__builtin_convertvector(hi, VD)))), Half);
  return BF(VF(__builtin_shufflevector(slo, shi, I..., h + I...)));
}

// sin (Cos false) or cos of every lane of a float or double batch.
template <bool Cos, class B>
[[gnu::always_inline]] inline B sincos(B x) {
  if constexpr (sizeof(typename B::value_type) == 8) {
    return sincos_f64<Cos>(x);
  } else {
    return sincos_halves<Cos>(x, std::make_index_sequence<B::size / 2>{});
  }
}

#endif  // __CUDACC__

}  // namespace loom::math::detail::trig
