// float32 atan2 and pow of xsimd batches for the host loops, each lane computed in float64 and
// rounded once to float, with loom's own argument reduction and polynomials instead of xsimd's
// float64 atan2 / log2 and exp2 (4-6x slower than NumPy). Every lane takes the same steps
// whatever its neighbours hold, with no data-dependent branch; lanes these kernels do not cover
// (listed at each) are recomputed by the caller with the C library.
// - pow: |x| = 2^k z with z in [0.703125, 1.40625), z = c (1 + r) with 1/c from a 16-entry table
//   (c = 1 on the interval holding 1, so that log2 1 = 0 and r is exact near 1), |r| < 0.0313,
//   log2 |x| = k + log2 c + log2(1 + r) by a degree-6 polynomial (error below 2^-47), t = y log2
//   |x|, then 2^t as 2^(n/16) from a 16-entry table times a degree-4 polynomial on [-1/32, 1/32]
//   (2^-38), the exponent added in the bits; the sign or NaN of negative x from y's parity, as
//   C99's pow. The double result is within about 2^-37 of pow(x, y), so the float is within 0.501
//   ulp.
// - atan2: one division of the reduced ratio (|y| <= |x| tan(pi/8): y/x; beyond tan(3pi/8):
//   -x/y + pi/2; else (y - x)/(y + x) + pi/4, both exact in double for float inputs), atan by an
//   odd degree-13 polynomial on |t| <= tan(pi/8) (2^-40), then the quadrant from the signs.
// Tables are looked up with one vpermt2pd on AVX-512 (16 doubles in two registers), a gather with
// AVX2, and lane by lane otherwise.
#pragma once
#include <cstddef>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <utility>

#include "trig.hpp"

#if !defined(__CUDACC__)
#if defined(__SSE__)
#include <immintrin.h>  // reciprocal estimates
#endif
namespace loom::math::detail::simd {

// A float batch as two double batches (lanes 0..h-1, h..2h-1) and back; 512-bit registers with
// AVX-512 intrinsics (GCC 12 splits __builtin_convertvector there into 128-bit steps).
template <class BF>
struct halves {
  using BD = typename trig::widened<BF>::type;
  BD lo, hi;
};
template <class BF, std::size_t... I>
[[gnu::always_inline]] inline halves<BF> split(BF x, std::index_sequence<I...>) {
  using BD = typename halves<BF>::BD;
  using VF = typename BF::register_type;
  using VD = typename BD::register_type;
  const VF v = x;
#if defined(__AVX512F__)
  if constexpr (sizeof(VF) == 64) {
    const __m256 hi = _mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(v), 1));
    return {BD(_mm512_cvtps_pd(_mm512_castps512_ps256(v))), BD(_mm512_cvtps_pd(hi))};
  }
#endif
  constexpr std::size_t h = sizeof...(I);
  typedef float Half __attribute__((vector_size(h * sizeof(float))));
  const Half lo = __builtin_shufflevector(v, v, I...), hi = __builtin_shufflevector(v, v, h + I...);
  return {BD(__builtin_convertvector(lo, VD)), BD(__builtin_convertvector(hi, VD))};
}
template <class BF, class BD, std::size_t... I>
[[gnu::always_inline]] inline BF join(BD lo, BD hi, std::index_sequence<I...>) {
  using VF = typename BF::register_type;
  using VD = typename BD::register_type;
#if defined(__AVX512F__)
  if constexpr (sizeof(VF) == 64) {
    const __m512d s = _mm512_castps_pd(_mm512_castps256_ps512(_mm512_cvtpd_ps(lo)));
    return BF(_mm512_castpd_ps(_mm512_insertf64x4(s, _mm256_castps_pd(_mm512_cvtpd_ps(hi)), 1)));
  }
#endif
  constexpr std::size_t h = sizeof...(I);
  typedef float Half __attribute__((vector_size(h * sizeof(float))));
  const Half l = __builtin_convertvector(VD(lo), Half), u = __builtin_convertvector(VD(hi), Half);
  return BF(VF(__builtin_shufflevector(l, u, I..., h + I...)));
}

// fn (a generic lambda over batches) on double batches: float lanes widened, computed in double
// and rounded once; double batches as they are.
template <class B, class Fn, class... X>
[[gnu::always_inline]] inline B in_double(Fn fn, B x, X... y) {
  if constexpr (sizeof(typename B::value_type) == 8) {
    return fn(x, y...);
  } else {
    constexpr auto seq = std::make_index_sequence<B::size / 2>{};
    const auto hx = split(x, seq);
    const auto lo = fn(hx.lo, split(y, seq).lo...), hi = fn(hx.hi, split(y, seq).hi...);
    return join<B>(lo, hi, seq);
  }
}

namespace f32 {

// The bits of a batch as integers of its lane width (GCC vector operators: +, &, shifts) and back.
template <class B>
struct bits_of {
  using I = std::conditional_t<sizeof(typename B::value_type) == 8, long long, int>;
  typedef I type __attribute__((vector_size(sizeof(typename B::register_type))));
};
template <class BD>
using bits_t = typename bits_of<BD>::type;
template <class BD>
[[gnu::always_inline]] inline bits_t<BD> bits(BD v) {
  return (bits_t<BD>)typename BD::register_type(v);
}
template <class BD>
[[gnu::always_inline]] inline BD from_bits(bits_t<BD> v) {
  return BD(typename BD::register_type(v));
}

// table[i] for each lane's index i in 0..15.
template <class BD>
[[gnu::always_inline]] inline BD lookup16(const double (&table)[16], bits_t<BD> i) {
  using V = typename BD::register_type;
#if defined(__AVX512F__)
  if constexpr (sizeof(V) == 64) {
    return BD(
        _mm512_permutex2var_pd(_mm512_loadu_pd(table), (__m512i)i, _mm512_loadu_pd(table + 8)));
  }
#endif
#if defined(__AVX2__)
  if constexpr (sizeof(V) == 32) return BD(_mm256_i64gather_pd(table, (__m256i)i, 8));
#endif
  V r;
  for (std::size_t l = 0; l < BD::size; ++l) r[l] = table[i[l]];
  return BD(r);
}

// The integer k held in the last bits of a double batch's bits, as a double: (2^52 + 2^51 + k)
// - (2^52 + 2^51), exact for |k| < 2^51, without an int64 -> double conversion (AVX512DQ only).
template <class BD>
[[gnu::always_inline]] inline BD int_to_double(bits_t<BD> k) {
  return from_bits<BD>(k + 0x4338000000000000LL) - BD(0x1.8p52);
}

// z = x / 2^k in [0.703125, 1.40625) splits into 16 intervals of equal bit width; interval i has
// its 1/c (1/midpoint, 1 on the interval holding 1), and log2 c of that double.
inline constexpr long long kLogOff = 0x3fe6800000000000LL;  // 0.703125
alignas(64) inline constexpr double kInvC[16] = {
    0x1.642c8590b2164p+0, 0x1.5555555555555p+0, 0x1.47ae147ae147bp+0, 0x1.3b13b13b13b14p+0,
    0x1.2f684bda12f68p+0, 0x1.2492492492492p+0, 0x1.1a7b9611a7b96p+0, 0x1.1111111111111p+0,
    0x1.0842108421084p+0, 0x1.0000000000000p+0, 0x1.e1e1e1e1e1e1ep-1, 0x1.c71c71c71c71cp-1,
    0x1.af286bca1af28p-1, 0x1.999999999999ap-1, 0x1.8618618618618p-1, 0x1.745d1745d1746p-1};
alignas(64) inline constexpr double kLog2C[16] = {-0x1.e7df5fe538ab3p-2, -0x1.a8ff971810a5dp-2,
                                                  -0x1.6cb0f6865c8ebp-2, -0x1.32bfee370ee6ap-2,
                                                  -0x1.f5fd8a9063e32p-3, -0x1.8a8980abfbd30p-3,
                                                  -0x1.22dadc2ab3496p-3, -0x1.7d60496cfbb4bp-4,
                                                  -0x1.77394c9d958d0p-5, 0x0.0p+0,
                                                  0x1.663f6fac91318p-4,  0x1.5c01a39fbd68bp-3,
                                                  0x1.fbc16b902680dp-3,  0x1.49a784bcd1b8ap-2,
                                                  0x1.91bba891f170ap-2,  0x1.d6753e032ea0ep-2};

// x = 2^k c (1 + r) for a positive normal double x: returns r, sets k (as a double) and the
// table index.
template <class BD>
[[gnu::always_inline]] inline BD log_reduce(BD x, BD& k, bits_t<BD>& i) {
  const bits_t<BD> ix = bits(x), tmp = ix - kLogOff;
  i = (tmp >> 48) & 15;
  const bits_t<BD> top = tmp & (long long)0xfff0000000000000ULL;
  k = int_to_double<BD>(tmp >> 52);
  return trig::fmadd(from_bits<BD>(ix - top), lookup16<BD>(kInvC, i), BD(-1));
}

// log2 of positive normal doubles, to about 2^-47 (for pow: t = y log2 x).
template <class BD>
[[gnu::always_inline]] inline BD log2_pos(BD x) {
  BD k;
  bits_t<BD> i;
  const BD r = log_reduce(x, k, i);
  // log2(1 + r) = r p(r), |r| <= 0.0313 (Chebyshev fit, relative error below 2^-47).
  BD p = trig::fmadd(r, BD(-0x1.ecfbae5fe8690p-3), BD(0x1.27c63bc418408p-2));
  p = trig::fmadd(r, p, BD(-0x1.71546fc82d5f7p-2));
  p = trig::fmadd(r, p, BD(0x1.ec709649ec71fp-2));
  p = trig::fmadd(r, p, BD(-0x1.71547652c3da8p-1));
  p = trig::fmadd(r, p, BD(0x1.71547652beda8p+0));
  return trig::fmadd(r, p, k + lookup16<BD>(kLog2C, i));
}

// 2^(j/16), j = 0..15.
alignas(64) inline constexpr double kExp2J[16] = {
    0x1.0000000000000p+0, 0x1.0b5586cf9890fp+0, 0x1.172b83c7d517bp+0, 0x1.2387a6e756238p+0,
    0x1.306fe0a31b715p+0, 0x1.3dea64c123422p+0, 0x1.4bfdad5362a27p+0, 0x1.5ab07dd485429p+0,
    0x1.6a09e667f3bcdp+0, 0x1.7a11473eb0187p+0, 0x1.8ace5422aa0dbp+0, 0x1.9c49182a3f090p+0,
    0x1.ae89f995ad3adp+0, 0x1.c199bdd85529cp+0, 0x1.d5818dcfba487p+0, 0x1.ea4afa2a490dap+0};

// 2^t for any double t that is not NaN: t is clamped to [-300, 300], far outside float's range
// (2^300 rounds to inf, 2^-300 to 0), so the exponent added to the bits cannot wrap.
template <class BD>
[[gnu::always_inline]] inline BD exp2_wide(BD t) {
  t = min(max(t, BD(-300)), BD(300));
  // s = t rounded to a multiple of 1/16, n = 16 s in the last bits of s + 1.5 * 2^48.
  const BD s = t + BD(0x1.8p48);
  const bits_t<BD> n = bits(s);
  const BD r = t - (s - BD(0x1.8p48));  // exact, |r| <= 1/32
  // 2^r on [-1/32, 1/32] (Chebyshev fit, relative error below 2^-38).
  BD p = trig::fmadd(r, BD(0x1.3b2c4ac7da565p-7), BD(0x1.c6b3f746c5f99p-5));
  p = trig::fmadd(r, p, BD(0x1.ebfbdff6988c8p-3));
  p = trig::fmadd(r, p, BD(0x1.62e42fec39c7dp-1));
  p = trig::fmadd(r, p, BD(1));
  // 2^(n >> 4) by adding n >> 4 to the exponent of 2^((n & 15) / 16) (in [1, 2)).
  const BD scale = from_bits<BD>(bits(lookup16<BD>(kExp2J, n & 15)) + ((n >> 4) << 52));
  return scale * p;
}

// pow(x, y) for finite double x != 0 and finite y (float inputs widened).
template <class BD>
[[gnu::always_inline]] inline BD pow_finite(BD x, BD y) {
  const BD m = exp2_wide(y * log2_pos(abs(x)));
  if (!any(x < BD(0))) return m;  // the same bits as below for every lane: a uniform shortcut
  // Negative x: integer y gives the sign of y's parity (|y| >= 2^53 is even), others NaN.
  const BD fy = floor(y), h = fy * BD(0.5);
  const BD neg = select(floor(h) != h, BD(-1), BD(1)) * m;
  return select(x < BD(0), select(fy == y, neg, BD(std::numeric_limits<double>::quiet_NaN())), m);
}

// atan2(y, x) for double lanes that are not NaN or infinite (zeros of either sign included).
template <class BD>
[[gnu::always_inline]] inline BD atan2_finite(BD y, BD x) {
  const BD ax = abs(x), ay = abs(y);
  const auto small = ay <= ax * BD(0x1.a827999fcef32p-2);  // |y/x| <= tan(pi/8)
  const auto big = ay > ax * BD(0x1.3504f333f9de6p+1);     // |y/x| > tan(3 pi/8)
  const BD num = select(small, ay, select(big, BD(0) - ax, ay - ax));
  const BD den = select(small, ax, select(big, ay, ay + ax));
  const BD off =
      select(small, BD(0), select(big, BD(0x1.921fb54442d18p+0), BD(0x1.921fb54442d18p-1)));
  // den = 0 only for x = y = 0: atan2(+-0, +-0) is then 0 or pi by the signs below.
  const BD t = select(den == BD(0), BD(0), (num / den)), z = t * t;
  // atan(t) = t p(t^2), |t| <= tan(pi/8) (Chebyshev fit, relative error below 2^-40).
  BD p = trig::fmadd(z, BD(0x1.81a03ee69abf7p-5), BD(-0x1.5a5d9befb13e9p-4));
  p = trig::fmadd(z, p, BD(0x1.c437eb9a09f07p-4));
  p = trig::fmadd(z, p, BD(-0x1.247ca7f913deep-3));
  p = trig::fmadd(z, p, BD(0x1.9998fdb703d04p-3));
  p = trig::fmadd(z, p, BD(-0x1.55555481099e9p-2));
  p = trig::fmadd(z, p, BD(0x1.ffffffffd07f9p-1));
  const BD a = trig::fmadd(t, p, off);  // in [0, pi/2]
  // x < 0 or x = -0: pi - a; then the sign of y (-0 for y = -0).
  // A sign-bit test, not x < 0: -0 counts as negative here.
  const bits_t<BD> neg = bits(x) >> 63, sign = bits_t<BD>{} + (long long)0x8000000000000000ULL;
  const bits_t<BD> b = (bits(BD(0x1.921fb54442d18p+1) - a) & neg) | (bits(a) & ~neg);
  return from_bits<BD>(b | (bits(y) & sign));
}

// 1 / v to about 2^-12 (rcp14: 2^-14) for v in [1, 2], for corrections already near 2^-24 of the
// result; a division where the target has no reciprocal estimate.
template <class B>
[[gnu::always_inline]] inline B recip_approx(B v) {
  using V = typename B::register_type;
#if defined(__AVX512F__)
  if constexpr (std::is_same_v<V, __m512>) return B(_mm512_rcp14_ps(v));
#endif
#if defined(__AVX__)
  if constexpr (std::is_same_v<V, __m256>) return B(_mm256_rcp_ps(v));
#endif
#if defined(__SSE__)
  if constexpr (std::is_same_v<V, __m128>) return B(_mm_rcp_ps(v));
#endif
  return B(1) / v;
}

// atan2(y, x) for float lanes that are not NaN or infinite (zeros of either sign included),
// evaluated in float (16 lanes a 512-bit register, twice atan2_finite's). t = min / max of |x|,
// |y| is in [0, 1], rounded once, and its error tl (the division's remainder over max, so t + tl
// is within 2^-46 of the ratio) is carried separately; atan(t + tl) = t + lo, lo = t z Q(z) +
// tl / (1 + z), z = t^2, Q of degree 8 (relative error of atan below 2^-28, float coefficients).
// The result is off + s (t + lo), off = 0, pi/2 or pi and s = +-1 from the octant, summed as
// off + s t exactly (|off| >= t: Fast2Sum) plus the small terms, so that it rounds about once.
template <class BF>
[[gnu::always_inline]] inline BF atan2_f32(BF y, BF x) {
  using I = bits_t<BF>;
  const BF ax = abs(x), ay = abs(y);
  const auto swap = ay > ax;  // t = |x| / |y|: atan2 = pi/2 - atan(t) (x < 0: pi/2 + atan(t))
  const BF num = min(ax, ay);
  const BF den = max(max(ax, ay), BF(0x1p-149f));  // x = y = 0: t = 0 / 2^-149 = 0
  const BF t = num / den;
  const BF tl = trig::fmadd(BF(0) - t, den, num) / den;  // the remainder is exact
  const BF z = t * t;
  BF q = trig::fmadd(z, BF(-0x1.d32dbcp-10f), BF(0x1.6410e6p-7f));
  q = trig::fmadd(z, q, BF(-0x1.fd6fbcp-6f));
  q = trig::fmadd(z, q, BF(0x1.da24cap-5f));
  q = trig::fmadd(z, q, BF(-0x1.580814p-4f));
  q = trig::fmadd(z, q, BF(0x1.c08c1ap-4f));
  q = trig::fmadd(z, q, BF(-0x1.242084p-3f));
  q = trig::fmadd(z, q, BF(0x1.9991e4p-3f));
  q = trig::fmadd(z, q, BF(-0x1.55553ep-2f));
  const BF lo = trig::fmadd(t * z, q, tl * recip_approx(z + BF(1)));
  // Octants: x >= 0 (sign bit clear): atan(t), or pi/2 - atan(t) when swapped; x < 0 or -0:
  // pi - atan(t), or pi/2 + atan(t) when swapped. s = -1 where exactly one of the two holds.
  const I sign = I{} + (int)0x80000000u, xneg = bits(x) >> 31;  // all ones where x's sign is set
  const I flip = (bits(x) ^ bits(select(swap, BF(-0.0f), BF(0.0f)))) & sign;
  const BF off_hi =
      select(swap, BF(0x1.921fb6p+0f), from_bits<BF>(bits(BF(0x1.921fb6p+1f)) & xneg));
  const BF off_lo =
      select(swap, BF(-0x1.777a5cp-25f), from_bits<BF>(bits(BF(-0x1.777a5cp-24f)) & xneg));
  const BF st = from_bits<BF>(bits(t) ^ flip), slo = from_bits<BF>(bits(lo) ^ flip);
  const BF s = off_hi + st, e = (off_hi - s) + st;  // s + e = off_hi + st exactly
  const BF m = s + (e + (slo + off_lo));            // in [0, pi], +0 for y = 0 <= x
  return from_bits<BF>(bits(m) | (bits(y) & sign));
}

}  // namespace f32

}  // namespace loom::math::detail::simd
#endif  // __CUDACC__
