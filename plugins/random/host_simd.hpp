// The random plugin's host fast paths (plugins/random/kernels.hpp): Philox on kLanes blocks at
// once in SIMD registers, Box-Muller on many pairs at once, and the float32 uniforms' stores. Only
// the host compiles them; every step rounds as loom/random.hpp's scalar one does, so the bits are
// the element functions' (tests/random/test_generator.cpp, LongRunsEqualTheElementFunctions).
#pragma once
#include <bit>
#include <cmath>
#include <cstdint>

#include "loom/random.hpp"
#include "loom/thread_ctx.hpp"

#if !defined(__CUDA_ARCH__) && (defined(__AVX2__) || defined(__AVX512F__))
#include <immintrin.h>
#endif

namespace loom::random_plugin {

using loom::random::Philox;
#if !defined(__CUDA_ARCH__)
// GCC's unroll pragma; nvcc's host pass (random.cu) does not know it and needs no speed here.
#if defined(__GNUC__) && !defined(__CUDACC__) && !defined(__clang__)
#define LOOM_RANDOM_PRAGMA(x) _Pragma(#x)
#define LOOM_RANDOM_UNROLL(n) LOOM_RANDOM_PRAGMA(GCC unroll n)
#else
#define LOOM_RANDOM_UNROLL(n)
#endif

// The host's fast path: kLanes consecutive Philox blocks at once. One block at a time is bound by
// its 20 scalar 32x32->64 multiplies; with AVX2 (AVX-512), 8 (16) blocks sit in one register per
// counter word, vpmuludq multiplying the even and the odd 32-bit lanes, and several such groups
// interleave. The arithmetic is philox4x32<10>'s, so the words are Philox::block's bits
// (tests/random/test_generator.cpp, LongRunsEqualTheElementFunctions).
constexpr int kLanes = 32;

struct Lanes {
  alignas(64) std::uint32_t w[4][kLanes];  // word k of block b0 + l is w[k][l]
};

#if defined(__AVX512F__) || defined(__AVX2__)
namespace simd {
#if defined(__AVX512F__)
using V = __m512i;
constexpr int kWidth = 16;
inline V set1(std::uint32_t x) { return _mm512_set1_epi32(static_cast<int>(x)); }
inline V load(const std::uint32_t* p) { return _mm512_load_si512(p); }
inline void store(std::uint32_t* p, V v) { _mm512_store_si512(p, v); }
inline V mul_even(V a, V b) { return _mm512_mul_epu32(a, b); }
inline V shr32(V a) { return _mm512_srli_epi64(a, 32); }
inline V shl32(V a) { return _mm512_slli_epi64(a, 32); }
inline V odd_from(V a, V b) { return _mm512_mask_blend_epi32(0xAAAA, a, b); }
inline V xor3(V a, V b, V c) { return _mm512_xor_si512(_mm512_xor_si512(a, b), c); }
#else
using V = __m256i;
constexpr int kWidth = 8;
inline V set1(std::uint32_t x) { return _mm256_set1_epi32(static_cast<int>(x)); }
inline V load(const std::uint32_t* p) { return _mm256_load_si256(reinterpret_cast<const V*>(p)); }
inline void store(std::uint32_t* p, V v) { _mm256_store_si256(reinterpret_cast<V*>(p), v); }
inline V mul_even(V a, V b) { return _mm256_mul_epu32(a, b); }
inline V shr32(V a) { return _mm256_srli_epi64(a, 32); }
inline V shl32(V a) { return _mm256_slli_epi64(a, 32); }
inline V odd_from(V a, V b) { return _mm256_blend_epi32(a, b, 0xAA); }
inline V xor3(V a, V b, V c) { return _mm256_xor_si256(_mm256_xor_si256(a, b), c); }
#endif
// hi and lo halves of c * m in each 32-bit lane (m: a constant in every lane); mul_even
// multiplies the even lanes into 64-bit products, so the odd ones are shifted down first.
inline void mulhilo(V c, V m, V& hi, V& lo) {
  const V even = mul_even(c, m), odd = mul_even(shr32(c), m);
  hi = odd_from(shr32(even), odd);
  lo = odd_from(even, shl32(odd));
}
}  // namespace simd
#endif

inline void philox_lanes(std::uint64_t b0, std::uint64_t seed, std::uint32_t stream,
                         std::uint32_t call, Lanes& out) {
#if defined(__AVX512F__) || defined(__AVX2__)
  // Random123's multipliers and Weyl key bumps (loom/random.hpp's philox4x32).
  constexpr std::uint32_t M0 = 0xD2511F53u, M1 = 0xCD9E8D57u;
  constexpr std::uint32_t W0 = 0x9E3779B9u, W1 = 0xBB67AE85u;
  using simd::V;
  constexpr int G = kLanes / simd::kWidth;
  for (int l = 0; l < kLanes; ++l) {
    const std::uint64_t b = b0 + static_cast<std::uint64_t>(l);
    out.w[0][l] = static_cast<std::uint32_t>(b);
    out.w[1][l] = static_cast<std::uint32_t>(b >> 32);
  }
  V c0[G], c1[G], c2[G], c3[G];
  for (int j = 0; j < G; ++j) {
    c0[j] = simd::load(&out.w[0][simd::kWidth * j]);
    c1[j] = simd::load(&out.w[1][simd::kWidth * j]);
    c2[j] = simd::set1(call);
    c3[j] = simd::set1(stream);
  }
  const V m0 = simd::set1(M0), m1 = simd::set1(M1);
  std::uint32_t k0 = static_cast<std::uint32_t>(seed), k1 = static_cast<std::uint32_t>(seed >> 32);
  for (int r = 0; r < 10; ++r) {
    if (r > 0) {
      k0 += W0;
      k1 += W1;
    }
    const V vk0 = simd::set1(k0), vk1 = simd::set1(k1);
    for (int j = 0; j < G; ++j) {
      V hi0, lo0, hi1, lo1;
      simd::mulhilo(c0[j], m0, hi0, lo0);
      simd::mulhilo(c2[j], m1, hi1, lo1);
      c0[j] = simd::xor3(hi1, c1[j], vk0);
      c1[j] = lo1;
      c2[j] = simd::xor3(hi0, c3[j], vk1);
      c3[j] = lo0;
    }
  }
  for (int j = 0; j < G; ++j) {
    simd::store(&out.w[0][simd::kWidth * j], c0[j]);
    simd::store(&out.w[1][simd::kWidth * j], c1[j]);
    simd::store(&out.w[2][simd::kWidth * j], c2[j]);
    simd::store(&out.w[3][simd::kWidth * j], c3[j]);
  }
#else
  const Philox p(seed, stream, call);
  for (int l = 0; l < kLanes; ++l) {
    const loom::random::Words4 w = p.block(b0 + static_cast<std::uint64_t>(l));
    for (int k = 0; k < 4; ++k) out.w[k][l] = w.v[k];
  }
#endif
}

// Box-Muller on n (u1, u2) pairs at once: loom::random::box_muller's operations in the same
// order (loom/random.hpp, detail::log_unit and detail::sincos_2pi), written as branch-free loops
// over the pairs so that they vectorize: one pair at a time is bound by the latency of its
// chains of 13 and 8 fmas. frexp becomes bit arithmetic (u1 is a normal double in (0, 1]), the
// quadrant switch selects; every step rounds as the scalar one does, so the bits are the same
// (tests/random/test_generator.cpp, LongRunsEqualTheElementFunctions).
template <int n>
inline void box_muller_n(const double* u1, const double* u2, double* z0, double* z1) {
  double r[n], s[n], c[n];
  // log_unit(u1): u = m 2^e, m in [sqrt(1/2), sqrt(2)), log(m) = 2 atanh((m - 1) / (m + 1)).
  constexpr double inv_odd[13] = {1.0,      1.0 / 3,  1.0 / 5,  1.0 / 7,  1.0 / 9,
                                  1.0 / 11, 1.0 / 13, 1.0 / 15, 1.0 / 17, 1.0 / 19,
                                  1.0 / 21, 1.0 / 23, 1.0 / 25};
  constexpr double ln2_hi = 6.93147180369123816490e-01, ln2_lo = 1.90821492927058770002e-10;
  for (int i = 0; i < n; ++i) {
    const std::uint64_t bits = std::bit_cast<std::uint64_t>(u1[i]);
    // frexp: m in [0.5, 1) with u1's mantissa; e = biased exponent - 1022, made exactly as a
    // double (2^52 + field, minus 2^52).
    double m = std::bit_cast<double>((bits & 0x800FFFFFFFFFFFFFull) | 0x3FE0000000000000ull);
    double de =
        std::bit_cast<double>((bits >> 52) | 0x4330000000000000ull) - 4503599627370496.0 - 1022.0;
    // Selecting constants, not results: no FP operation is speculated, so AVX2 if-converts too.
    const bool low = m < 0.70710678118654752;
    m *= low ? 2.0 : 1.0;
    de -= low ? 1.0 : 0.0;
    const double q = (m - 1.0) / (m + 1.0), q2 = q * q;
    double pl = inv_odd[12];
    LOOM_RANDOM_UNROLL(12)  // unrolled, the pair loop around it vectorizes
    for (int k = 11; k >= 0; --k) pl = std::fma(pl, q2, inv_odd[k]);
    const double log_u1 = std::fma(de, ln2_hi, std::fma(2 * q, pl, de * ln2_lo));
    r[i] = -2.0 * log_u1;
  }
  for (int i = 0; i < n; ++i) r[i] = std::sqrt(r[i]);
  constexpr double fs[8] = {-1.0 / 6,
                            1.0 / 120,
                            -1.0 / 5040,
                            1.0 / 362880,
                            -1.0 / 39916800,
                            1.0 / 6227020800.0,
                            -1.0 / 1307674368000.0,
                            1.0 / 355687428096000.0};
  constexpr double fc[8] = {
      -1.0 / 2,       1.0 / 24,        -1.0 / 720,           1.0 / 40320,
      -1.0 / 3628800, 1.0 / 479001600, -1.0 / 87178291200.0, 1.0 / 20922789888000.0};
  for (int i = 0; i < n; ++i) {
    // sincos_2pi(u2): quarter turns q, f in [-1/2, 1/2] of one.
    const double t = u2[i] * 4;
    double q = static_cast<double>(static_cast<int>(t));  // floor: t in [0, 4)
    double f = t - q;
    const double up = f > 0.5 ? 1.0 : 0.0;
    f -= up;
    q += up;
    const double x = f * 1.57079632679489661923, x2 = x * x;
    double ps = fs[7], pc = fc[7];
    LOOM_RANDOM_UNROLL(7)
    for (int k = 6; k >= 0; --k) {
      ps = std::fma(ps, x2, fs[k]);
      pc = std::fma(pc, x2, fc[k]);
    }
    const double sx = std::fma(x * x2, ps, x), cx = std::fma(x2, pc, 1.0);
    // Quadrant q & 3 (q in 0..4): 1 and 3 swap sine and cosine, 2 and 3 negate the sine, 1 and
    // 2 the cosine.
    const int quad = static_cast<int>(q) & 3;
    const bool swap = quad & 1, neg_s = quad >> 1, neg_c = ((quad + 1) >> 1) & 1;
    const double sv = swap ? cx : sx, cv = swap ? sx : cx;
    s[i] = neg_s ? -sv : sv;
    c[i] = neg_c ? -cv : cv;
  }
  for (int i = 0; i < n; ++i) {
    z0[i] = r[i] * c[i];
    z1[i] = r[i] * s[i];
  }
}

// box_muller_n for the float32 normals: loom::random::box_muller_f's float operations in the
// same order (detail::log_unit_f, detail::sincos_2pi_f), branch-free over the pairs.
template <int n>
inline void box_muller_nf(const float* u1, const float* u2, float* z0, float* z1) {
  float r[n], s[n], c[n];
  constexpr float inv_odd[6] = {1.0f, 1.0f / 3, 1.0f / 5, 1.0f / 7, 1.0f / 9, 1.0f / 11};
  constexpr float ln2_hi = 0.693145751953125f, ln2_lo = 1.42860677e-06f;
  for (int i = 0; i < n; ++i) {
    // frexpf as bits: u1 is a normal float in (0, 1]; m in [0.5, 1), e = biased exponent - 126.
    const std::uint32_t bits = std::bit_cast<std::uint32_t>(u1[i]);
    float m = std::bit_cast<float>((bits & 0x807FFFFFu) | 0x3F000000u);
    float de = static_cast<float>(static_cast<int>(bits >> 23) - 126);
    const bool low = m < 0.707106781f;
    m *= low ? 2.0f : 1.0f;
    de -= low ? 1.0f : 0.0f;
    const float q = (m - 1.0f) / (m + 1.0f), q2 = q * q;
    float pl = inv_odd[5];
    LOOM_RANDOM_UNROLL(5)
    for (int k = 4; k >= 0; --k) pl = std::fma(pl, q2, inv_odd[k]);
    r[i] = -2.0f * std::fma(de, ln2_hi, std::fma(2 * q, pl, de * ln2_lo));
  }
  for (int i = 0; i < n; ++i) r[i] = std::sqrt(r[i]);
  constexpr float fs[4] = {-1.0f / 6, 1.0f / 120, -1.0f / 5040, 1.0f / 362880};
  constexpr float fc[5] = {-1.0f / 2, 1.0f / 24, -1.0f / 720, 1.0f / 40320, -1.0f / 3628800};
  for (int i = 0; i < n; ++i) {
    const float t = u2[i] * 4;
    float q = static_cast<float>(static_cast<int>(t));  // floor: t in [0, 4)
    float f = t - q;
    const float up = f > 0.5f ? 1.0f : 0.0f;
    f -= up;
    q += up;
    const float x = f * 1.57079632679f, x2 = x * x;
    float ps = fs[3], pc = fc[4];
    LOOM_RANDOM_UNROLL(3)
    for (int k = 2; k >= 0; --k) ps = std::fma(ps, x2, fs[k]);
    LOOM_RANDOM_UNROLL(4)
    for (int k = 3; k >= 0; --k) pc = std::fma(pc, x2, fc[k]);
    const float sx = std::fma(x * x2, ps, x), cx = std::fma(x2, pc, 1.0f);
    const int quad = static_cast<int>(q) & 3;
    const bool swap = quad & 1, neg_s = quad >> 1, neg_c = ((quad + 1) >> 1) & 1;
    const float sv = swap ? cx : sx, cv = swap ? sx : cx;
    s[i] = neg_s ? -sv : sv;
    c[i] = neg_c ? -cv : cv;
  }
  for (int i = 0; i < n; ++i) {
    z0[i] = r[i] * c[i];
    z1[i] = r[i] * s[i];
  }
}

// Out arrays of at least this many bytes get streaming stores (past a server's last-level
// cache; below it the user's next read would miss what a streaming store skipped).
constexpr std::int64_t kStreamBytes = std::int64_t{64} << 20;

#if defined(__AVX2__)
// A group's float32 uniforms into dst[0, 4 * kLanes): word k of block l is element 4 l + k.
// to_float32 per word in 8 lanes (w >> 8 < 2^24 converts exactly; the scale is a power of two),
// then a 4 x 8 transpose puts two blocks' four elements in each register.
inline void store_uniform32(const Lanes& lanes, float* dst, bool nt) {
  const __m256 scale = _mm256_set1_ps(1.0f / 16777216.0f);
  const bool aligned = reinterpret_cast<std::uintptr_t>(dst) % 32 == 0;
  for (int j = 0; j < kLanes / 8; ++j) {
    __m256 r[4];
    for (int k = 0; k < 4; ++k) {
      const __m256i w = _mm256_load_si256(reinterpret_cast<const __m256i*>(&lanes.w[k][8 * j]));
      r[k] = _mm256_mul_ps(_mm256_cvtepi32_ps(_mm256_srli_epi32(w, 8)), scale);
    }
    const __m256 t0 = _mm256_unpacklo_ps(r[0], r[1]), t1 = _mm256_unpackhi_ps(r[0], r[1]);
    const __m256 t2 = _mm256_unpacklo_ps(r[2], r[3]), t3 = _mm256_unpackhi_ps(r[2], r[3]);
    const __m256 u0 = _mm256_shuffle_ps(t0, t2, 0x44), u1 = _mm256_shuffle_ps(t0, t2, 0xEE);
    const __m256 u2 = _mm256_shuffle_ps(t1, t3, 0x44), u3 = _mm256_shuffle_ps(t1, t3, 0xEE);
    // u0: blocks 0 | 4, u1: 1 | 5, u2: 2 | 6, u3: 3 | 7 (of this 8).
    const __m256 o[4] = {_mm256_permute2f128_ps(u0, u1, 0x20), _mm256_permute2f128_ps(u2, u3, 0x20),
                         _mm256_permute2f128_ps(u0, u1, 0x31),
                         _mm256_permute2f128_ps(u2, u3, 0x31)};
    float* d = dst + 32 * j;
    for (int q = 0; q < 4; ++q) {
      if (nt && aligned) {
        _mm256_stream_ps(d + 8 * q, o[q]);
      } else {
        _mm256_storeu_ps(d + 8 * q, o[q]);
      }
    }
  }
}
#endif

// This host thread's run of the launch's `nblocks` blocks (grid_stride's contiguous run): the
// whole kLanes-groups inside [lo, hi), the blocks that lie wholly inside out, through
// `group(j0, lanes)`; every other block (a partial first or last one, a run's ends) through
// `one(j)`.
template <class G, class O>
void host_blocks(const loom::ThreadCtx& t, std::int64_t nblocks, std::int64_t lo, std::int64_t hi,
                 G&& group, O&& one) {
  const loom::GridStride r = t.grid_stride(nblocks);
  std::int64_t j = r.start;
  for (; j < r.stop && j < lo; ++j) one(j);
  Lanes lanes;
  for (; j + kLanes <= r.stop && j + kLanes <= hi; j += kLanes) group(j, lanes);
  for (; j < r.stop; ++j) one(j);
}
#endif

}  // namespace loom::random_plugin
