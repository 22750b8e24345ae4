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

// The float-lane kernels (atan2_f32, pow_f32, log_f32) split products exactly with fused
// multiply-adds; targets without FMA (x86-64 before v3) keep the float64 kernels and xsimd's log.
#if defined(__FMA__)
#define LOOM_F32_LANES 1
#else
#define LOOM_F32_LANES 0
#endif

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
  typedef std::make_unsigned_t<I> utype
      __attribute__((vector_size(sizeof(typename B::register_type))));
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
// a + b and a - b wrapping, as the hardware does: lanes whose results are thrown away (NaN,
// negative or edge inputs) may overflow, which is undefined for signed lanes (UBSan reports it).
template <class I>
[[gnu::always_inline]] inline I wrap_add(I a, I b) {
  typedef std::make_unsigned_t<std::remove_reference_t<decltype(a[0])>> E
      __attribute__((vector_size(sizeof(I))));
  return (I)((E)a + (E)b);
}
template <class I>
[[gnu::always_inline]] inline I wrap_sub(I a, I b) {
  typedef std::make_unsigned_t<std::remove_reference_t<decltype(a[0])>> E
      __attribute__((vector_size(sizeof(I))));
  return (I)((E)a - (E)b);
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
#if defined(__AVX512F__)
  if constexpr (trig::reg_is<B, float, 64>) return B(_mm512_rcp14_ps(v));
#endif
#if defined(__AVX__)
  if constexpr (trig::reg_is<B, float, 32>) return B(_mm256_rcp_ps(v));
#endif
#if defined(__SSE__)
  if constexpr (trig::reg_is<B, float, 16>) return B(_mm_rcp_ps(v));
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
template <class BF, class M>
[[gnu::always_inline]] inline BF atan2_f32(BF y, BF x, M& tiny) {
  using I = bits_t<BF>;
  const BF ax = abs(x), ay = abs(y);
  const auto swap = ay > ax;  // t = |x| / |y|: atan2 = pi/2 - atan(t) (x < 0: pi/2 + atan(t))
  const BF num = min(ax, ay);
  const BF den = max(max(ax, ay), BF(0x1p-149f));  // x = y = 0: t = 0 / 2^-149 = 0
  // Below 2^-100 the remainder below may not be exact (subnormal operands: 1.26 ulp): the caller
  // recomputes those lanes, rare, rather than every lane scaling its operands.
  tiny = tiny || (den < BF(0x1p-100f));
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
  // lo = c0 t^3 + x1, c0 = -0x1.55553ep-2, x1 = t^3 z q + tl / (1 + z): c0 t^3 (up to a third
  // of t) rounds only inside the last fma below.
  // t^3 = p3 + p3l: z and p3 round, each by up to 2^-24 of t^3 (0.67 ulp of atan2 near pi/4).
  const BF p3 = t * z, zl = trig::fmadd(t, t, BF(0) - z);
  const BF p3l = trig::fmadd(t, zl, trig::fmadd(t, z, BF(0) - p3));
  const BF x1 =
      trig::fmadd(p3 * z, q, trig::fmadd(p3l, BF(-0x1.55553ep-2f), tl * recip_approx(z + BF(1))));
  // Octants: x >= 0 (sign bit clear): atan(t), or pi/2 - atan(t) when swapped; x < 0 or -0:
  // pi - atan(t), or pi/2 + atan(t) when swapped. s = -1 where exactly one of the two holds.
  const I sign = I{} + (int)0x80000000u, xneg = bits(x) >> 31;  // all ones where x's sign is set
  const I flip = (bits(x) ^ bits(select(swap, BF(-0.0f), BF(0.0f)))) & sign;
  const BF off_hi =
      select(swap, BF(0x1.921fb6p+0f), from_bits<BF>(bits(BF(0x1.921fb6p+1f)) & xneg));
  const BF off_lo =
      select(swap, BF(-0x1.777a5cp-25f), from_bits<BF>(bits(BF(-0x1.777a5cp-24f)) & xneg));
  const BF st = from_bits<BF>(bits(t) ^ flip), sp3 = from_bits<BF>(bits(p3) ^ flip);
  const BF s = off_hi + st, e = (off_hi - s) + st;  // s + e = off_hi + st exactly
  const BF w = trig::fmadd(sp3, BF(-0x1.55553ep-2f), e + (off_lo + from_bits<BF>(bits(x1) ^ flip)));
  const BF m = s + w;  // in [0, pi], +0 for y = 0 <= x
  return from_bits<BF>(bits(m) | (bits(y) & sign));
}

// Integer lanes to float (vcvtdq2ps).
template <class BF>
[[gnu::always_inline]] inline BF int_to_float(bits_t<BF> k) {
  using V = typename BF::register_type;
#if defined(__AVX512F__)
  if constexpr (sizeof(V) == 64) return BF(_mm512_cvtepi32_ps((__m512i)k));
#endif
  return BF(__builtin_convertvector(k, V));
}

// table[i & 31] for each lane: one vpermt2ps with AVX-512 (32 floats in two registers); with AVX2
// four vpermps and three blends by bits 3 and 4 of i (a gather of 8 lanes took about as long as
// the rest of pow here).
template <class BF>
[[gnu::always_inline]] inline BF lookup32(const float (&table)[32], bits_t<BF> i) {
  using V = typename BF::register_type;
#if defined(__AVX512F__)
  if constexpr (sizeof(V) == 64) {
    return BF(
        _mm512_permutex2var_ps(_mm512_loadu_ps(table), (__m512i)i, _mm512_loadu_ps(table + 16)));
  }
#endif
#if defined(__AVX2__)
  if constexpr (sizeof(V) == 32) {
    const __m256i j = (__m256i)i;
    auto perm = [&](int o) { return _mm256_permutevar8x32_ps(_mm256_loadu_ps(table + o), j); };
    const __m256 b3 = (__m256)(i << 28), b4 = (__m256)(i << 27);  // the bits in the sign bit
    return BF(_mm256_blendv_ps(_mm256_blendv_ps(perm(0), perm(8), b3),
                               _mm256_blendv_ps(perm(16), perm(24), b3), b4));
  }
#endif
  i &= 31;
  V r;
  for (std::size_t l = 0; l < BF::size; ++l) r[l] = table[i[l]];
  return BF(r);
}

// a b - c, rounded once.
template <class B>
[[gnu::always_inline]] inline B fmsub(B a, B b, B c) {
#if defined(__FMA__)
#if defined(__AVX512F__)
  if constexpr (trig::reg_is<B, float, 64>) return B(_mm512_fmsub_ps(a, b, c));
#endif
  if constexpr (trig::reg_is<B, float, 32>) return B(_mm256_fmsub_ps(a, b, c));
  if constexpr (trig::reg_is<B, float, 16>) return B(_mm_fmsub_ps(a, b, c));
#endif
  return trig::fmadd(a, b, B(0) - c);
}

// x = 2^k z, z in [0.7421875, 1.484375) (32 intervals of equal bit width, the one holding 1
// centred on it), z = c (1 + r) with 1/c from a table (c = 1 around 1), |r| <= 2^-6; r = z/c - 1
// exactly as rh + rl (the product's rounding error by an fma). log_f32 takes 1/c = the float
// nearest 1/midpoint (kPowInvC); pow_f32 takes a float within 3000 ulp of it (kPowLnInvC) whose ln
// c is within 2^-29 of a multiple of 2^-17 (kPowLnCHi): k ln2hi + that is exact, and the low part
// (kPowLnCLo) is small next to every ln x outside the interval holding 1. The three kPowLn tables
// are printed by plugins/math/tools/gen_pow_tables.py, pow's polynomials fitted by fit_pow_polys.py.
inline constexpr int kPowOff = 0x3f3e0000;
alignas(64) inline constexpr float kPowInvC[32] = {
    0x1.5555560000000p+0f, 0x1.4e5e0c0000000p+0f, 0x1.47ae160000000p+0f, 0x1.4141420000000p+0f,
    0x1.3b13b20000000p+0f, 0x1.3521d00000000p+0f, 0x1.2f684c0000000p+0f, 0x1.29e4140000000p+0f,
    0x1.24924a0000000p+0f, 0x1.1f70480000000p+0f, 0x1.1a7b960000000p+0f, 0x1.15b1e60000000p+0f,
    0x1.1111120000000p+0f, 0x1.0c97160000000p+0f, 0x1.0842120000000p+0f, 0x1.0410420000000p+0f,
    0x1.0000000000000p+0f, 0x1.f07c200000000p-1f, 0x1.e1e1e40000000p-1f, 0x1.d41d440000000p-1f,
    0x1.c71c740000000p-1f, 0x1.bacf920000000p-1f, 0x1.af286e0000000p-1f, 0x1.a41a420000000p-1f,
    0x1.99999a0000000p-1f, 0x1.8f9c1a0000000p-1f, 0x1.8618620000000p-1f, 0x1.7d05f60000000p-1f,
    0x1.745d180000000p-1f, 0x1.6c16c20000000p-1f, 0x1.642c860000000p-1f, 0x1.5c98840000000p-1f};
alignas(64) inline constexpr float kPowLnInvC[32] = {
    0x1.5564a0p+0f, 0x1.4e46e4p+0f, 0x1.47b4d6p+0f, 0x1.412d42p+0f, 0x1.3b20ccp+0f, 0x1.35121ap+0f,
    0x1.2f725ep+0f, 0x1.29ddb4p+0f, 0x1.249628p+0f, 0x1.1f84e2p+0f, 0x1.1a6a14p+0f, 0x1.15b25ep+0f,
    0x1.1123a2p+0f, 0x1.0c9396p+0f, 0x1.084896p+0f, 0x1.041b58p+0f, 0x1.000000p+0f, 0x1.f091c0p-1f,
    0x1.e1de4cp-1f, 0x1.d40d64p-1f, 0x1.c712b8p-1f, 0x1.bac2dap-1f, 0x1.af1402p-1f, 0x1.a427bap-1f,
    0x1.99a7e6p-1f, 0x1.8faa72p-1f, 0x1.86147ep-1f, 0x1.7cf36ap-1f, 0x1.744d5cp-1f, 0x1.6c087cp-1f,
    0x1.6434b2p-1f, 0x1.5c9af8p-1f};
alignas(64) inline constexpr float kPowLnCHi[32] = {
    -0x1.26c400p-2f, -0x1.113200p-2f, -0x1.f9bc00p-3f, -0x1.d08400p-3f, -0x1.a99400p-3f,
    -0x1.81d400p-3f, -0x1.5c3800p-3f, -0x1.363400p-3f, -0x1.119400p-3f, -0x1.db9800p-4f,
    -0x1.923800p-4f, -0x1.4d3800p-4f, -0x1.097000p-4f, -0x1.88e000p-5f, -0x1.04e000p-5f,
    -0x1.04c000p-6f, 0x0.0p+0f,       0x1.f56000p-6f,  0x1.f0e000p-5f,  0x1.6f9800p-4f,
    0x1.e2c800p-4f,  0x1.299000p-3f,  0x1.605400p-3f,  0x1.94e400p-3f,  0x1.c8b800p-3f,
    0x1.fb4800p-3f,  0x1.168000p-2f,  0x1.2ec000p-2f,  0x1.464400p-2f,  0x1.5d4400p-2f,
    0x1.738600p-2f,  0x1.899c00p-2f};
alignas(64) inline constexpr float kPowLnCLo[32] = {
    -0x1.88a288p-31f, 0x1.1ed202p-30f,  0x1.218f78p-30f,  0x1.18c8e2p-31f, -0x1.a0763cp-34f,
    0x1.ffb19cp-32f,  -0x1.478fd4p-31f, -0x1.2f9b22p-32f, 0x1.6c4e96p-32f, -0x1.9ad7eap-31f,
    0x1.1860eap-33f,  -0x1.422514p-30f, 0x1.d5db94p-32f,  0x1.9eb4eep-31f, -0x1.fe58a2p-33f,
    0x1.5bcf32p-30f,  0x0.0p+0f,        0x1.cc36f4p-32f,  0x1.d91cb2p-32f, 0x1.16df62p-33f,
    -0x1.6efd32p-31f, 0x1.a302f4p-31f,  -0x1.4ebb04p-30f, 0x1.cc21eep-31f, -0x1.1baeb2p-29f,
    -0x1.83463ap-31f, 0x1.f03e5ep-32f,  0x1.1afc00p-32f,  0x1.77de8ap-31f, -0x1.1904bap-34f,
    -0x1.e7b0bcp-31f, -0x1.acee64p-31f};
// 2^(j/32) as hi + lo, j = 0..31.
alignas(64) inline constexpr float kExp2Hi[32] = {
    0x1.0000000000000p+0f, 0x1.059b0e0000000p+0f, 0x1.0b55860000000p+0f, 0x1.11301e0000000p+0f,
    0x1.172b840000000p+0f, 0x1.1d48740000000p+0f, 0x1.2387a60000000p+0f, 0x1.29e9e00000000p+0f,
    0x1.306fe00000000p+0f, 0x1.371a740000000p+0f, 0x1.3dea640000000p+0f, 0x1.44e0860000000p+0f,
    0x1.4bfdae0000000p+0f, 0x1.5342b60000000p+0f, 0x1.5ab07e0000000p+0f, 0x1.6247ec0000000p+0f,
    0x1.6a09e60000000p+0f, 0x1.71f75e0000000p+0f, 0x1.7a11480000000p+0f, 0x1.82589a0000000p+0f,
    0x1.8ace540000000p+0f, 0x1.93737c0000000p+0f, 0x1.9c49180000000p+0f, 0x1.a5503c0000000p+0f,
    0x1.ae89fa0000000p+0f, 0x1.b7f7700000000p+0f, 0x1.c199be0000000p+0f, 0x1.cb720e0000000p+0f,
    0x1.d5818e0000000p+0f, 0x1.dfc9740000000p+0f, 0x1.ea4afa0000000p+0f, 0x1.f507660000000p+0f};
alignas(64) inline constexpr float kExp2Lo[32] = {0x0.0p+0f,
                                                  -0x1.9d4f520000000p-25f,
                                                  0x1.9f31220000000p-25f,
                                                  -0x1.fdb4960000000p-25f,
                                                  -0x1.c157420000000p-27f,
                                                  -0x1.d2e8ca0000000p-25f,
                                                  0x1.ceac480000000p-25f,
                                                  -0x1.5c04240000000p-25f,
                                                  0x1.4636e20000000p-25f,
                                                  -0x1.18aac60000000p-25f,
                                                  0x1.8246840000000p-25f,
                                                  0x1.8624b40000000p-30f,
                                                  -0x1.593abc0000000p-25f,
                                                  -0x1.2c56100000000p-25f,
                                                  -0x1.5bd5ec0000000p-27f,
                                                  -0x1.f8b5500000000p-25f,
                                                  0x1.9fcef40000000p-26f,
                                                  0x1.1d8bee0000000p-25f,
                                                  -0x1.829fd00000000p-25f,
                                                  -0x1.accc7c0000000p-26f,
                                                  0x1.15506e0000000p-27f,
                                                  -0x1.e647440000000p-25f,
                                                  0x1.51f8480000000p-27f,
                                                  -0x1.b83b540000000p-25f,
                                                  -0x1.a94b140000000p-26f,
                                                  -0x1.a094380000000p-25f,
                                                  -0x1.3d56b20000000p-27f,
                                                  -0x1.8837cc0000000p-27f,
                                                  -0x1.822dbc0000000p-27f,
                                                  -0x1.908c940000000p-25f,
                                                  0x1.52486c0000000p-27f,
                                                  -0x1.246eb00000000p-26f};

// |x|^y for float lanes with x normal (positive or negative: pow_sign finishes negative x) and y
// finite, evaluated in float (16 lanes a 512-bit register), in natural-log units: ln |x| = k ln2 +
// ln c + ln(1 + r) as a float pair s2 + lo with a relative error near 2^-35, where k ln2hi + ln c
// hi is exact (the table) and its sums with rh and -rh^2/2 (split exactly) are Fast2Sums; the rest
// (rl's terms, r^3 P(r), the low parts) is below 2^-12 of s2, so t = y ln |x| = t0 + t0l is not
// renormalized: t0l only widens the exponential's interval. e^t = 2^(n/32) (table, hi + lo) e^v,
// v = t - n ln2/32 in two fmas (the first exact) plus t0l, |v| <= 0.018, e^v - 1 of degree 3
// (2^-30), the exponent added to the bits. Lanes with |t0| > 86.5 (overflow, underflow, subnormal
// results; NaN from y = +-inf or NaN) are set in `far` for the caller to recompute.
template <class BF, class M>
[[gnu::always_inline]] inline BF pow_f32(BF x, BF y, M& far) {
  using I = bits_t<BF>;
  const I ix = bits(abs(x)), tmp = wrap_sub(ix, I{} + kPowOff);
  const I i = tmp >> 18;  // lookup32 takes its last 5 bits
  const BF k = int_to_float<BF>(tmp >> 23);
  const BF z = from_bits<BF>(wrap_sub(ix, tmp & (int)0xff800000u));
  const BF invc = lookup32<BF>(kPowLnInvC, i);
  const BF pr = z * invc, rl = fmsub(z, invc, pr), rh = pr - BF(1);  // r = rh + rl
  // h = k ln2hi + ln c hi, exact (multiples of 2^-17 below 2^7); h + rh - s/2 = s2 + e1 - ne2
  // exactly by two Fast2Sums (|h| >= |rh| but where h = 0; |s1| >= s/2).
  const BF h = trig::fmadd(k, BF(0x1.62e4p-1f), lookup32<BF>(kPowLnCHi, i));
  const BF s1 = h + rh, e1 = rh - (s1 - h);
  const BF s = rh * rh, sl = fmsub(rh, rh, s);  // rh^2 = s + sl
  const BF s2 = trig::fmadd(s, BF(-0.5f), s1), ne2 = trig::fmadd(s, BF(0.5f), s2 - s1);
  // ln(1 + r) - rh + rh^2/2 = s (rh P(rh) + rl) + rl (1 - rh) - sl/2 (P of degree 2: 2^-35 of ln
  // x near 1).
  BF p = trig::fmadd(rh, BF(0x1.9931a6p-3f), BF(-0x1.0008fap-2f));
  p = trig::fmadd(rh, p, BF(0x1.555558p-2f));
  const BF lr = trig::fmadd(s, trig::fmadd(rh, p, rl),
                            trig::fmadd(sl, BF(-0.5f), trig::fmadd(BF(0) - rh, rl, rl)));
  const BF lo = (trig::fmadd(k, BF(0x1.7f7d1cp-20f), lookup32<BF>(kPowLnCLo, i)) + (e1 - ne2)) + lr;
  const BF t0 = y * s2, t0l = trig::fmadd(y, lo, fmsub(y, s2, t0));
  far = !(abs(t0) <= BF(86.5f));  // NaN too: y = +-inf or NaN, or inf times s2 = 0
  // n = round(32 t0 / ln2) in the last bits of tq; v = t0 - n ln2/32 + t0l (ln2 = L1 + L2: n/32
  // L1 exact, t0 - n/32 L1 too).
  const BF tq = trig::fmadd(t0, BF(0x1.715476p+0f), BF(0x1.8p18f)), kf = tq - BF(0x1.8p18f);
  const BF v = trig::fmadd(kf, BF(-0x1.62e430p-1f), t0) + trig::fmadd(kf, BF(0x1.05c610p-29f), t0l);
  const BF q = trig::fmadd(v * v, trig::fmadd(v, BF(0x1.5556a6p-3f), BF(0x1.000178p-1f)), v);
  const I n = bits(tq);
  const BF th = lookup32<BF>(kExp2Hi, n);
  const BF m = th + trig::fmadd(th, q, lookup32<BF>(kExp2Lo, n));
  return from_bits<BF>(wrap_add(bits(m), (I)((typename bits_of<BF>::utype)n << 18 & 0xff800000u)));
}

// pow_f32's result r (of |x|) for negative normal x: integer y gives the sign of y's parity (|y| >=
// 2^24 is even), others NaN.
template <class BF>
[[gnu::always_inline]] inline BF pow_sign(BF r, BF x, BF y) {
  const BF fy = floor(y), hy = fy * BF(0.5f);
  const BF neg = from_bits<BF>(bits(r) ^ bits(select(floor(hy) != hy, BF(-0.0f), BF(0.0f))));
  return select(x < BF(0), select(fy == y, neg, BF(std::numeric_limits<float>::quiet_NaN())), r);
}

// Lanes of x that are zero, subnormal, inf or NaN, or (Negative) negative (one vfpclassps with
// AVX512DQ).
template <bool Negative, class BF>
[[gnu::always_inline]] inline auto not_normal(BF x) {
#if defined(__AVX512DQ__)
  if constexpr (sizeof(typename BF::register_type) == 64)
    return typename BF::batch_bool_type(_mm512_fpclass_ps_mask(x, Negative ? 0xff : 0xbf));
#endif
  const BF a = Negative ? x : abs(x);
  return !(a >= BF(std::numeric_limits<float>::min())) ||
         !(a <= BF(std::numeric_limits<float>::max()));
}

// -ln(1/c) = ln c for kPowInvC's entries, as hi + lo.
alignas(64) inline constexpr float kLogCHi[32] = {-0x1.2696240000000p-2f,
                                                  -0x1.1178ec0000000p-2f,
                                                  -0x1.f991d00000000p-3f,
                                                  -0x1.d103840000000p-3f,
                                                  -0x1.a93ed80000000p-3f,
                                                  -0x1.823c180000000p-3f,
                                                  -0x1.5bf4080000000p-3f,
                                                  -0x1.365fd40000000p-3f,
                                                  -0x1.1178ee0000000p-3f,
                                                  -0x1.da72780000000p-4f,
                                                  -0x1.9335e40000000p-4f,
                                                  -0x1.4d31160000000p-4f,
                                                  -0x1.08599a0000000p-4f,
                                                  -0x1.894ac00000000p-5f,
                                                  -0x1.0416060000000p-5f,
                                                  -0x1.0205a40000000p-6f,
                                                  0x0.0p+0f,
                                                  0x1.f829900000000p-6f,
                                                  0x1.f0a2e80000000p-5f,
                                                  0x1.6f0d160000000p-4f,
                                                  0x1.e270620000000p-4f,
                                                  0x1.29552c0000000p-3f,
                                                  0x1.5ff2fc0000000p-3f,
                                                  0x1.9525a80000000p-3f,
                                                  0x1.c8ff7a0000000p-3f,
                                                  0x1.fb91820000000p-3f,
                                                  0x1.1675ca0000000p-2f,
                                                  0x1.2e8e260000000p-2f,
                                                  0x1.4618ba0000000p-2f,
                                                  0x1.5d1bda0000000p-2f,
                                                  0x1.739d7e0000000p-2f,
                                                  0x1.89a3340000000p-2f};
alignas(64) inline constexpr float kLogCLo[32] = {0x1.d9648e0000000p-27f,
                                                  -0x1.c4fc8a0000000p-27f,
                                                  -0x1.2cecc80000000p-29f,
                                                  0x1.9aa19c0000000p-31f,
                                                  -0x1.915b3a0000000p-28f,
                                                  -0x1.5468f00000000p-29f,
                                                  0x1.2af0940000000p-29f,
                                                  -0x1.02b1f80000000p-28f,
                                                  -0x1.13f22c0000000p-30f,
                                                  -0x1.c223500000000p-31f,
                                                  -0x1.ab29320000000p-29f,
                                                  -0x1.481fac0000000p-30f,
                                                  0x1.4c38cc0000000p-29f,
                                                  -0x1.27ec940000000p-31f,
                                                  -0x1.3ce8460000000p-30f,
                                                  0x1.db2a660000000p-32f,
                                                  0x0.0p+0f,
                                                  0x1.cf06700000000p-31f,
                                                  0x1.163ea60000000p-37f,
                                                  -0x1.46a5000000000p-30f,
                                                  0x1.c55e760000000p-29f,
                                                  0x1.07fd4c0000000p-29f,
                                                  0x1.14f2880000000p-28f,
                                                  0x1.e8ad700000000p-32f,
                                                  0x1.e6a68a0000000p-29f,
                                                  -0x1.a8706e0000000p-29f,
                                                  -0x1.0a8b3e0000000p-27f,
                                                  0x1.1c23ac0000000p-27f,
                                                  0x1.0e2f660000000p-29f,
                                                  0x1.5602740000000p-28f,
                                                  0x1.5de8040000000p-29f,
                                                  0x1.58284e0000000p-27f};

// ln x for float lanes with x positive, normal and finite, evaluated in float (xsimd 8.1's float
// log: one polynomial of degree 8 and selects for the special values in every batch). x = 2^k z,
// z = c (1 + r) as pow_f32's (r = rh + rl exactly, |r| <= 2^-6); ln x = (k ln2hi + ln c) + rh
// + (rl (1 - rh) + k ln2lo + rh^2 P(rh)), ln2hi with 16 bits (k ln2hi exact), P of degree 2
// (log1p's relative error below 2^-28); the first two sums are Fast2Sums, so that the result rounds
// about once even where ln c and rh cancel (x near 1 - 2^-7 and 1 + 2^-6).
template <class BF>
[[gnu::always_inline]] inline BF log_f32(BF x) {
  using I = bits_t<BF>;
  const I ix = bits(x), tmp = wrap_sub(ix, I{} + kPowOff);
  const I i = tmp >> 18;
  const BF k = int_to_float<BF>(tmp >> 23);
  const BF z = from_bits<BF>(wrap_sub(ix, tmp & (int)0xff800000u));
  const BF invc = lookup32<BF>(kPowInvC, i);
  const BF pr = z * invc, rl = trig::fmadd(z, invc, BF(0) - pr), rh = pr - BF(1);
  // (k ln2hi + ln c) + rh as s + e0 + e1: |k ln2hi| >= ln 2 > |ln c| >= |rh| but where the larger
  // is 0.
  const BF kl = k * BF(0x1.62e4p-1f), lch = lookup32<BF>(kLogCHi, i);
  const BF a = kl + lch, e0 = lch - (a - kl);
  const BF s = a + rh, e1 = rh - (s - a);
  BF p = trig::fmadd(rh, BF(-0x1.0009aep-2f), BF(0x1.55602cp-2f));
  p = trig::fmadd(rh, p, BF(-0.5f));
  const BF lo = trig::fmadd(k, BF(0x1.7f7d1cp-20f), lookup32<BF>(kLogCLo, i)) + (e0 + e1);
  return s + trig::fmadd(rh * rh, p, lo + trig::fmadd(BF(0) - rh, rl, rl));  // rl / (1 + rh)
}

}  // namespace f32

}  // namespace loom::math::detail::simd
#endif  // __CUDACC__
