// float32 sin, cos and exp of xsimd batches evaluated in float lanes (16 a 512-bit register),
// where the target has FMA (LOOM_F32_LANES): trig.hpp's float32 sin / cos widen each lane to
// float64 (8 lanes a register, plus the conversions) and xsimd's float exp is 1.5 ulp off. Every
// lane takes the same steps whatever its neighbours hold; lanes these kernels do not cover (inf,
// NaN and those listed at each) come out wrong, for the caller to recompute.
// - sin, cos: k = round(x 2/pi), x = k pi/2 + rh + rl with pi/2 = P1 + P2 + P3 (P1 x k exact in
//   one fma, k P2 rounded then its error recovered by another fma, the difference summed by a
//   Fast2Sum that is exact here), then sin or cos of r = rh + rl on |r| <= pi/4 + 0.006 by the
//   quadrant k mod 4. sin r = rh + c, c = rl (1 - r^2/2) + r^3 S(r^2) with rh^3 split exactly
//   (its two roundings would cost up to 0.17 ulp) and S(r^2) = S0 + r^2 S1(r^2); cos r = h + (e
//   - zl/2 - rh rl + r^4 C(r^2)), 1 - rh^2/2 = h + e and rh^2 = z + zl exactly. Each rounds about
//   once: c is at most 0.12 of sin r (its rounding: 0.06 ulp at most). Worst over every float:
//   0.584 ulp (sin), 0.583 (cos). Covered: |x| <= kSinCosMax.
// - exp: n = round(16 x log2 e), r = x - n ln2/16 (ln2/16 in two parts; the first product is
//   exact), exp x = 2^(n >> 4) 2^((n & 15)/16) (1 + q), 2^(j/16) from a 16-entry hi + lo table
//   (register permutes, no gathers) and q = e^r - 1 of degree 4 (2^-37), the exponent added in
//   the bits. Worst over every float: 0.544 ulp. Covered: x in [-87, 88] (beyond: overflow,
//   subnormal results).
#pragma once
#include <type_traits>

#include "f32_kernels.hpp"

#if !defined(__CUDACC__) && LOOM_F32_LANES
namespace loom::math::detail::simd::f32 {

// Lanes of a where bit 0 of n is set, b elsewhere.
template <class BF>
[[gnu::always_inline]] inline BF select_odd(bits_t<BF> n, BF a, BF b) {
#if defined(__AVX512F__)
  if constexpr (trig::reg_is<BF, float, 64>)
    return BF(_mm512_mask_blend_ps(_mm512_test_epi32_mask((__m512i)n, _mm512_set1_epi32(1)), b, a));
#endif
  if constexpr (trig::reg_is<BF, float, 32>) return BF(_mm256_blendv_ps(b, a, (__m256)(n << 31)));
  if constexpr (trig::reg_is<BF, float, 16>) return BF(_mm_blendv_ps(b, a, (__m128)(n << 31)));
  const bits_t<BF> m = (n << 31) >> 31;
  return from_bits<BF>((bits(a) & m) | (bits(b) & ~m));
}

// Largest |x| sincos_f32 reduces: |k| < 2^16.4, so |k P2| < 2^-6 and x - k P1 is exact; the
// rounding of x 2/pi (2/pi as a float) leaves |r| <= pi/4 + 0.0052.
inline constexpr float kSinCosMax = 0x1p17f;

// sin (Cos false) or cos of float lanes with |x| <= kSinCosMax (others: wrong values).
template <bool Cos, class BF>
[[gnu::always_inline]] inline BF sincos_f32(BF x) {
  using I = bits_t<BF>;
  // pi/2 = P1 + P2 + P3 + 1e-23; P1 below pi/2, so that P2 > 0 and k P2 = +0 for x = -0.
  constexpr float P1 = 0x1.921fb4p+0f, P2 = 0x1.4442d2p-24f, P3 = -0x1.ee59dap-50f;
  const BF t = trig::fmadd(x, BF(0x1.45f306p-1f), BF(0x1.8p23f));  // k in its last bits
  const BF k = t - BF(0x1.8p23f);
  const BF r1 = trig::fmadd(k, BF(-P1), x);  // exact (a multiple of 2^-24 below 1)
  // rh = r1 - k P2 rounded; the Fast2Sum is exact (|r1| >= |th|, or r1 a multiple of ulp(th)),
  // so d - k P2 (one fma) is what rh left out. nrl = -rl, so that sin(-0) comes out -0 below.
  const BF th = k * BF(P2), rh = r1 - th, d = r1 - rh;
  const BF nrl = trig::fmadd(k, BF(P3), fmsub(k, BF(P2), d));
  const BF z = rh * rh, zl = fmsub(rh, rh, z);  // rh^2 = z + zl
  // sin: rh^3 = p3 + q; -c = -S0 r^3 - r^5 S1(z) - rl (1 - z/2); sin r = rh - (-c). -S0 r^3 is
  // up to 0.12 of sin r, so its factors are not rounded before the last fma (a rounded S(z) would
  // add up to 0.06 ulp).
  constexpr float S0 = -0x1.555556p-3f;
  const BF p3 = rh * z, q = trig::fmadd(rh, zl, fmsub(rh, z, p3));
  BF s = trig::fmadd(z, BF(-0x1.7b74b8p-19f), BF(0x1.a056dap-13f));
  s = trig::fmadd(z, s, BF(-0x1.111172p-7f));  // -S1(z)
  // -c's small terms: z (p3 (-S1) + rl/2) + (-S0 q - rl).
  const BF nc = trig::fmadd(z, trig::fmadd(p3, s, nrl * BF(-0.5f)), trig::fmadd(q, BF(-S0), nrl));
  const BF ys = rh - trig::fmadd(p3, BF(-S0), nc);
  // cos: 1 - z/2 = h + e exactly (1 - h is exact: h >= 0.69); cos r = h + (e - zl/2 - rh rl +
  // z^2 C(z)).
  const BF h = trig::fmadd(z, BF(-0.5f), BF(1)), e = trig::fmadd(z, BF(-0.5f), BF(1) - h);
  BF c = trig::fmadd(z, BF(0x1.99e154p-16f), BF(-0x1.6c0c1ap-10f));
  c = trig::fmadd(z, c, BF(0x1.55554ap-5f));
  const BF yc = h + trig::fmadd(z * z, c, trig::fmadd(rh, nrl, trig::fmadd(zl, BF(-0.5f), e)));
  // Quadrant k (cos: k + 1) mod 4: odd takes the cos branch, 2 and 3 flip the sign.
  const I n = Cos ? wrap_add(bits(t), I{} + 1) : bits(t);
  const BF y = select_odd<BF>(n, yc, ys);
  return from_bits<BF>(bits(y) ^ ((n << 30) & (int)0x80000000u));
}

// table[i & 15] for each lane: one vpermps with AVX-512, two and a blend with AVX2 (a gather of 8
// lanes took 2.6 times as long as the whole exp here), lane by lane otherwise.
template <class BF>
[[gnu::always_inline]] inline BF lookup16f(const float (&table)[16], bits_t<BF> i) {
  using V = typename BF::register_type;
#if defined(__AVX512F__)
  if constexpr (sizeof(V) == 64)
    return BF(_mm512_permutexvar_ps((__m512i)i, _mm512_loadu_ps(table)));
#endif
#if defined(__AVX2__)
  if constexpr (sizeof(V) == 32) {
    const __m256 lo = _mm256_permutevar8x32_ps(_mm256_loadu_ps(table), (__m256i)i);
    const __m256 hi = _mm256_permutevar8x32_ps(_mm256_loadu_ps(table + 8), (__m256i)i);
    return BF(_mm256_blendv_ps(lo, hi, (__m256)(i << 28)));  // bit 3 of i in the sign bit
  }
#endif
  V r;
  for (std::size_t l = 0; l < BF::size; ++l) r[l] = table[i[l] & 15];
  return BF(r);
}

// 2^(j/16) as hi + lo, j = 0..15 (kExp2Hi's and kExp2Lo's even entries).
alignas(64) inline constexpr float kExp2Hi16[16] = {
    0x1.000000p+0f, 0x1.0b5586p+0f, 0x1.172b84p+0f, 0x1.2387a6p+0f, 0x1.306fe0p+0f, 0x1.3dea64p+0f,
    0x1.4bfdaep+0f, 0x1.5ab07ep+0f, 0x1.6a09e6p+0f, 0x1.7a1148p+0f, 0x1.8ace54p+0f, 0x1.9c4918p+0f,
    0x1.ae89fap+0f, 0x1.c199bep+0f, 0x1.d5818ep+0f, 0x1.ea4afap+0f};
alignas(64) inline constexpr float kExp2Lo16[16] = {
    0x0.0p+0f,        0x1.9f3122p-25f,  -0x1.c15742p-27f, 0x1.ceac48p-25f,
    0x1.4636e2p-25f,  0x1.824684p-25f,  -0x1.593abcp-25f, -0x1.5bd5ecp-27f,
    0x1.9fcef4p-26f,  -0x1.829fd0p-25f, 0x1.15506ep-27f,  0x1.51f848p-27f,
    -0x1.a94b14p-26f, -0x1.3d56b2p-27f, -0x1.822dbcp-27f, 0x1.52486cp-27f};

// exp of float lanes in [kExpMin, kExpMax] (others and NaN: wrong values). Below -87.33 the result
// is subnormal, above 88.72 it overflows; the bounds keep 2^(n >> 4) and the result normal.
inline constexpr float kExpMin = -87.0f, kExpMax = 88.0f;
template <class BF>
[[gnu::always_inline]] inline BF exp_f32(BF x) {
  using I = bits_t<BF>;
  // t = x log2 e rounded to a multiple of 1/16 (|x log2 e| <= 127, ulp(1.5 2^19) = 2^-4): n = 16 t
  // in its last bits. Then r = x - t ln2: the first fma is exact (a multiple of 2^-29 below 2^-5).
  const BF t = trig::fmadd(x, BF(0x1.715476p+0f), BF(0x1.8p19f)), kf = t - BF(0x1.8p19f);
  const BF r = trig::fmadd(kf, BF(0x1.05c610p-29f), trig::fmadd(kf, BF(-0x1.62e430p-1f), x));
  // q = e^r - 1 on |r| <= ln2/32 + 3e-6 (relative error of e^r below 2^-37).
  const BF a = trig::fmadd(r, BF(0x1.555604p-5f), BF(0x1.55571ep-3f));
  const BF q = trig::fmadd(r * r, trig::fmadd(r, a, BF(0.5f)), r);
  const I n = bits(t);
  const BF hi = lookup16f<BF>(kExp2Hi16, n);
  const BF m = hi + trig::fmadd(hi, q, lookup16f<BF>(kExp2Lo16, n));  // 2^((n & 15)/16) e^r
  return from_bits<BF>(wrap_add(bits(m), (I)((typename bits_of<BF>::utype)n << 19 & 0xff800000u)));
}

}  // namespace loom::math::detail::simd::f32
#endif
