// Random numbers in kernels, the same bits on every target (docs/random.md). Header-only and
// LOOM_HD: host code, and device code under nvcc, with no CUDA header.
//
//   - Philox4x32-10, the counter-based generator of Random123 and cuRAND: a block of four 32-bit
//     words is a pure function of (key, counter), so element i draws the same number wherever
//     and in whatever chunk it runs. loom::random::Philox is what Generator's arrays are made of
//     (element i of call `call` of Generator(seed, stream)), for kernels to draw the same numbers.
//   - Numba's xoroshiro128p (numba.cuda.random) with Numba's bits, on states made by
//     create_xoroshiro128p_states (loom/random_arrays.hpp): a uint64 array of shape (n, 2).
#pragma once
#include <cmath>
#include <cstdint>
#include <cstring>

#include "loom/hd.hpp"
#include "loom/view.hpp"

namespace loom::random {

struct Words4 {  // a Philox counter or output block
  std::uint32_t v[4];
};
struct Key2 {
  std::uint32_t v[2];
};

namespace detail {
LOOM_HD inline void mulhilo32(std::uint32_t a, std::uint32_t b, std::uint32_t& hi,
                              std::uint32_t& lo) {
#if defined(__CUDA_ARCH__)
  hi = __umulhi(a, b);  // two 32-bit multiplies: 4 % faster on an H200 than one 64-bit product
  lo = a * b;
#else
  const std::uint64_t p = std::uint64_t{a} * b;
  hi = static_cast<std::uint32_t>(p >> 32);
  lo = static_cast<std::uint32_t>(p);
#endif
}
}  // namespace detail

// Philox4x32 with R rounds (Salmon et al., SC11; Random123's philox4x32_R). Random123 bumps the
// key by the Weyl constants before every round but the first; 10 rounds is cuRAND's
// curand_Philox4x32_10 and Random123's default.
template <int R = 10>
LOOM_HD inline Words4 philox4x32(Words4 c, Key2 k) {
  constexpr std::uint32_t M0 = 0xD2511F53u, M1 = 0xCD9E8D57u;  // multipliers
  constexpr std::uint32_t W0 = 0x9E3779B9u, W1 = 0xBB67AE85u;  // Weyl key bumps
  for (int r = 0; r < R; ++r) {
    if (r > 0) {
      k.v[0] += W0;
      k.v[1] += W1;
    }
    std::uint32_t hi0, lo0, hi1, lo1;
    detail::mulhilo32(M0, c.v[0], hi0, lo0);
    detail::mulhilo32(M1, c.v[2], hi1, lo1);
    c = Words4{{hi1 ^ c.v[1] ^ k.v[0], lo1, hi0 ^ c.v[3] ^ k.v[1], lo0}};
  }
  return c;
}

// Words to numbers. NumPy's conventions: a float32 in [0, 1) from the top 24 bits of a word, a
// float64 from the top 53 of two (hi, lo); both multiples of 2^-24 / 2^-53, never 1.
LOOM_HD inline float to_float32(std::uint32_t w) {
  return static_cast<float>(w >> 8) * (1.0f / 16777216.0f);
}
LOOM_HD inline double to_float64(std::uint32_t hi, std::uint32_t lo) {
  const std::uint64_t x = (std::uint64_t{hi} << 32) | lo;
  return static_cast<double>(x >> 11) * (1.0 / 9007199254740992.0);
}

namespace detail {
LOOM_HD inline std::uint64_t bits_of(double x) {
#if defined(__CUDA_ARCH__)
  return static_cast<std::uint64_t>(__double_as_longlong(x));
#else
  std::uint64_t b;
  std::memcpy(&b, &x, sizeof b);
  return b;
#endif
}
LOOM_HD inline double double_of(std::uint64_t b) {
#if defined(__CUDA_ARCH__)
  return __longlong_as_double(static_cast<long long>(b));
#else
  double x;
  std::memcpy(&x, &b, sizeof x);
  return x;
#endif
}
LOOM_HD inline std::uint32_t bits_of(float x) {
#if defined(__CUDA_ARCH__)
  return __float_as_uint(x);
#else
  std::uint32_t b;
  std::memcpy(&b, &x, sizeof b);
  return b;
#endif
}
LOOM_HD inline float float_of(std::uint32_t b) {
#if defined(__CUDA_ARCH__)
  return __uint_as_float(b);
#else
  float x;
  std::memcpy(&x, &b, sizeof x);
  return x;
#endif
}
// Quadrant q & 3 of a turn: 1 and 3 swap sine and cosine, 2 and 3 negate the sine, 1 and 2 the
// cosine. Selects, not a switch: on a GPU the lanes of a warp take different quadrants.
template <class T>
LOOM_HD inline void quadrant(int q, T sx, T cx, T& s, T& c) {
  const int quad = q & 3;
  const bool swap = quad & 1, neg_s = quad >> 1, neg_c = ((quad + 1) >> 1) & 1;
  const T sv = swap ? cx : sx, cv = swap ? sx : cx;
  s = neg_s ? -sv : sv;
  c = neg_c ? -cv : cv;
}

// log(u) for u in (0, 1] and (sin, cos)(2*pi*u) for u in [0, 1), written with IEEE operations
// that round the same way on every target (explicit fma, so no compiler contracts a*b+c
// differently), instead of each target's libm: the normal draws then have the same bits on the
// host and the GPU. Both are accurate to a few units in the last place of a double.
// u must be a normal number (the draws' smallest is 2^-53): frexp is then bit arithmetic, and
// every choice below is a select, so a warp's lanes do not diverge.
LOOM_HD inline double log_unit(double u) {
  const std::uint64_t bits = bits_of(u);
  // u = m * 2^e, m in [0.5, 1) with u's mantissa, e = biased exponent - 1022.
  double m = double_of((bits & 0x800FFFFFFFFFFFFFull) | 0x3FE0000000000000ull);
  int e = static_cast<int>(bits >> 52) - 1022;
  const bool low = m < 0.70710678118654752;
  m = low ? m * 2 : m;
  e = low ? e - 1 : e;  // m in [sqrt(1/2), sqrt(2))
  // log(m) = 2 atanh(s) = 2 s (1 + s^2/3 + s^4/5 + ...), |s| < 0.172: 13 terms reach 2^-60.
  const double s = (m - 1.0) / (m + 1.0), s2 = s * s;
  constexpr double inv_odd[13] = {1.0,      1.0 / 3,  1.0 / 5,  1.0 / 7,  1.0 / 9,
                                  1.0 / 11, 1.0 / 13, 1.0 / 15, 1.0 / 17, 1.0 / 19,
                                  1.0 / 21, 1.0 / 23, 1.0 / 25};
  double p = inv_odd[12];
  for (int k = 11; k >= 0; --k) p = fma(p, s2, inv_odd[k]);
  constexpr double ln2_hi = 6.93147180369123816490e-01, ln2_lo = 1.90821492927058770002e-10;
  const double de = static_cast<double>(e);  // ln2_hi has few bits: de * ln2_hi is exact
  return fma(de, ln2_hi, fma(2 * s, p, de * ln2_lo));
}
LOOM_HD inline void sincos_2pi(double u, double& s, double& c) {
  // Quarter turns are exact in binary: q quadrants plus f in [-1/2, 1/2] of one.
  const double t = u * 4;
  double q = floor(t);
  double f = t - q;
  const bool up = f > 0.5;
  f = up ? f - 1 : f;
  q = up ? q + 1 : q;
  const double x = f * 1.57079632679489661923, x2 = x * x;  // |x| <= pi/4
  // Taylor: sin x = x + x^3 (-1/3! + x^2/5! - ...), cos x = 1 + x^2 (-1/2! + x^2/4! - ...) to
  // 1/17! and 1/16! (the factorials are exact doubles, each coefficient rounded once).
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
  double ps = fs[7], pc = fc[7];
  for (int k = 6; k >= 0; --k) {
    ps = fma(ps, x2, fs[k]);
    pc = fma(pc, x2, fc[k]);
  }
  quadrant(static_cast<int>(q), fma(x * x2, ps, x), fma(x2, pc, 1.0), s, c);
}

// The same two in float, for the float32 normals: |s| < 0.172 needs 6 terms of the series for
// 2^-25, |x| <= pi/4 Taylor to 1/9! and 1/10!; a few units in the last place of a float. On a
// GPU these run in float units (the double ones cost the float32 normals 2.6x CuPy's time).
LOOM_HD inline float log_unit_f(float u) {  // u normal (the smallest draw is 2^-32)
  const std::uint32_t bits = bits_of(u);
  float m = float_of((bits & 0x807FFFFFu) | 0x3F000000u);  // frexp as log_unit's
  int e = static_cast<int>(bits >> 23) - 126;
  const bool low = m < 0.707106781f;
  m = low ? m * 2 : m;
  e = low ? e - 1 : e;  // m in [sqrt(1/2), sqrt(2))
  const float s = (m - 1.0f) / (m + 1.0f), s2 = s * s;
  constexpr float inv_odd[6] = {1.0f, 1.0f / 3, 1.0f / 5, 1.0f / 7, 1.0f / 9, 1.0f / 11};
  float p = inv_odd[5];
  for (int k = 4; k >= 0; --k) p = fmaf(p, s2, inv_odd[k]);
  constexpr float ln2_hi = 0.693145751953125f, ln2_lo = 1.42860677e-06f;  // hi: 16 bits
  const float de = static_cast<float>(e);
  return fmaf(de, ln2_hi, fmaf(2 * s, p, de * ln2_lo));
}
LOOM_HD inline void sincos_2pi_f(float u, float& s, float& c) {
  const float t = u * 4;
  float q = floorf(t);
  float f = t - q;
  const bool up = f > 0.5f;
  f = up ? f - 1 : f;
  q = up ? q + 1 : q;
  const float x = f * 1.57079632679f, x2 = x * x;
  constexpr float fs[4] = {-1.0f / 6, 1.0f / 120, -1.0f / 5040, 1.0f / 362880};
  constexpr float fc[5] = {-1.0f / 2, 1.0f / 24, -1.0f / 720, 1.0f / 40320, -1.0f / 3628800};
  float ps = fs[3], pc = fc[4];
  for (int k = 2; k >= 0; --k) ps = fmaf(ps, x2, fs[k]);
  for (int k = 3; k >= 0; --k) pc = fmaf(pc, x2, fc[k]);
  quadrant(static_cast<int>(q), fmaf(x * x2, ps, x), fmaf(x2, pc, 1.0f), s, c);
}
}  // namespace detail

// Box-Muller: two standard normals from u1 in (0, 1] (never 0, so the log is finite) and u2 in
// [0, 1): z0 = r cos(2 pi u2), z1 = r sin(2 pi u2), r = sqrt(-2 log u1).
LOOM_HD inline void box_muller(double u1, double u2, double& z0, double& z1) {
  const double r = sqrt(-2.0 * detail::log_unit(u1));
  double s, c;
  detail::sincos_2pi(u2, s, c);
  z0 = r * c;
  z1 = r * s;
}
// The float32 normals' Box-Muller, in float throughout.
LOOM_HD inline void box_muller_f(float u1, float u2, float& z0, float& z1) {
  const float r = sqrtf(-2.0f * detail::log_unit_f(u1));
  float s, c;
  detail::sincos_2pi_f(u2, s, c);
  z0 = r * c;
  z1 = r * s;
}
// float32 normals' uniforms from a pair of words: u1 = (w + 1) 2^-32 in (0, 1], rounded once to
// float (so its tail keeps 2^-32: |z| up to 6.66), u2 = top 24 bits of w * 2^-24 in [0, 1).
LOOM_HD inline float normal_u1_f(std::uint32_t w) {
  return static_cast<float>((static_cast<double>(w) + 1.0) * (1.0 / 4294967296.0));
}

namespace detail {
LOOM_HD inline std::uint64_t mulhi64(std::uint64_t a, std::uint64_t b) {
#if defined(__CUDA_ARCH__)
  return __umul64hi(a, b);
#else
  return static_cast<std::uint64_t>((static_cast<unsigned __int128>(a) * b) >> 64);
#endif
}
}  // namespace detail

// The element functions of Generator(seed, stream)'s call number `call` (docs/random.md, "How
// the bits are laid out"): key = seed, counter = (block lo, block hi, call, stream).
class Philox {
 public:
  LOOM_HD Philox(std::uint64_t seed, std::uint32_t stream = 0, std::uint32_t call = 0)
      : key_{{static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32)}},
        stream_(stream),
        call_(call) {}

  // The four words of block b (b < 2^56).
  LOOM_HD Words4 block(std::uint64_t b) const {
    return philox4x32<10>(Words4{{static_cast<std::uint32_t>(b),
                                  static_cast<std::uint32_t>(b >> 32), call_, stream_}},
                          key_);
  }

  // Element i of a uniform array in [0, 1): float32 from word i % 4 of block i / 4, float64
  // from words 2 (i % 2) and 2 (i % 2) + 1 of block i / 2.
  LOOM_HD float uniform_float32(std::int64_t i) const {
    const Words4 w = block(static_cast<std::uint64_t>(i) / 4);
    return to_float32(w.v[i % 4]);
  }
  LOOM_HD double uniform_float64(std::int64_t i) const {
    const Words4 w = block(static_cast<std::uint64_t>(i) / 2);
    const int k = static_cast<int>(i % 2) * 2;
    return to_float64(w.v[k], w.v[k + 1]);
  }
  // The normals of block b: float32 pairs (i % 4 / 2) from 32-bit words (box_muller_f);
  // float64 pairs from 53-bit halves of the block, in double.
  LOOM_HD void normal_pairs32(std::uint64_t b, float z[4]) const {
    const Words4 w = block(b);
    for (int p = 0; p < 2; ++p) {
      box_muller_f(normal_u1_f(w.v[2 * p]), to_float32(w.v[2 * p + 1]), z[2 * p], z[2 * p + 1]);
    }
  }
  LOOM_HD void normal_pair64(std::uint64_t b, double z[2]) const {
    const Words4 w = block(b);
    const double u1 = 1.0 - to_float64(w.v[0], w.v[1]);  // (0, 1]
    box_muller(u1, to_float64(w.v[2], w.v[3]), z[0], z[1]);
  }
  LOOM_HD float normal_float32(std::int64_t i) const {
    float z[4];
    normal_pairs32(static_cast<std::uint64_t>(i) / 4, z);
    return z[i % 4];
  }
  LOOM_HD double normal_float64(std::int64_t i) const {
    double z[2];
    normal_pair64(static_cast<std::uint64_t>(i) / 2, z);
    return z[i % 2];
  }

  // Element i of an integer array in [low, low + span], span = high - 1 - low as a uint64:
  // Lemire's nearly divisionless method (as NumPy's Generator.integers: 32-bit words for spans
  // below 2^32, 64-bit ones (hi, lo) above), drawing from the blocks (i, attempt a) with a in
  // bits 24..31 of the counter's second word, the element's own stream of words.
  LOOM_HD std::uint64_t integer_offset(std::int64_t i, std::uint64_t span) const {
    if (span == 0) return 0;
    const std::uint64_t n = static_cast<std::uint64_t>(i);
    Words4 w{};
    int used = 4;
    std::uint32_t a = 0;
    const auto next32 = [&]() -> std::uint32_t {
      if (used == 4) {
        w = block((n & 0x00FFFFFFFFFFFFFFull) | (std::uint64_t{a++ & 0xFFu} << 56));
        used = 0;
      }
      return w.v[used++];
    };
    if (span <= 0xFFFFFFFFull) {
      if (span == 0xFFFFFFFFull) return next32();
      const std::uint32_t excl = static_cast<std::uint32_t>(span) + 1;
      std::uint64_t m = std::uint64_t{next32()} * excl;
      std::uint32_t left = static_cast<std::uint32_t>(m);
      if (left < excl) {
        const std::uint32_t threshold = static_cast<std::uint32_t>(0u - excl) % excl;
        while (left < threshold) {
          m = std::uint64_t{next32()} * excl;
          left = static_cast<std::uint32_t>(m);
        }
      }
      return m >> 32;
    }
    const auto next64 = [&]() {
      const std::uint64_t hi = next32();
      return (hi << 32) | next32();
    };
    if (span == ~std::uint64_t{0}) return next64();
    const std::uint64_t excl = span + 1;
    std::uint64_t x = next64(), left = x * excl;
    if (left < excl) {
      const std::uint64_t threshold = (0 - excl) % excl;
      while (left < threshold) {
        x = next64();
        left = x * excl;
      }
    }
    return detail::mulhi64(x, excl);
  }

 private:
  Key2 key_;
  std::uint32_t stream_, call_;
};

// ---- Numba's xoroshiro128p (numba.cuda.random), bit for bit ----
// A state is a row (s0, s1) of a uint64 array of shape (n, 2), Numba's xoroshiro128p_dtype.

// A row's two words must be adjacent (strides[1] == 8, as create_xoroshiro128p_states makes
// them) for an unchecked launch on cuda: there the second word is reached as the first one's
// neighbour, so that the compiler knows the two apart and keeps a thread's state in registers
// across a loop of draws. Through the View's own strides the store to one word might be the
// other word (a stride of 0), so every draw went through memory: 4.4x Numba's compute_pi on an
// H200 (docs/random.md, "xoroshiro128p states"). Host targets and checked launches follow the
// strides.
LOOM_HD inline std::uint64_t xoroshiro128p_next(View<std::uint64_t, 2> states, std::int64_t i) {
  std::uint64_t* w0;
  std::uint64_t* w1;
#if defined(__CUDA_ARCH__)
  if (!states.check) {
    __builtin_assume(states.strides[1] == sizeof(std::uint64_t));
    w0 = reinterpret_cast<std::uint64_t*>(reinterpret_cast<char*>(states.data) +
                                          i * states.strides[0]);
    w1 = w0 + 1;
  } else
#endif
  {
    w0 = &states(i, 0);
    w1 = &states(i, 1);
  }
  const std::uint64_t s0 = *w0;
  std::uint64_t s1 = *w1;
  const std::uint64_t result = s0 + s1;
  s1 ^= s0;
  *w0 = ((s0 << 55) | (s0 >> 9)) ^ s1 ^ (s1 << 14);
  *w1 = (s1 << 36) | (s1 >> 28);
  return result;
}
// Numba's uint64_to_unit_float64 / _float32: the top 53 bits, then rounded to float32 (which, as
// in Numba, can give 1.0f for the largest draws).
LOOM_HD inline double xoroshiro_unit_float64(std::uint64_t x) {
  return static_cast<double>(x >> 11) * (1.0 / 9007199254740992.0);
}
LOOM_HD inline float xoroshiro128p_uniform_float32(View<std::uint64_t, 2> states, std::int64_t i) {
  return static_cast<float>(xoroshiro_unit_float64(xoroshiro128p_next(states, i)));
}
LOOM_HD inline double xoroshiro128p_uniform_float64(View<std::uint64_t, 2> states, std::int64_t i) {
  return xoroshiro_unit_float64(xoroshiro128p_next(states, i));
}
// Numba's Box-Muller, first value only, on two float32 uniforms, with the target's logf/cosf as
// Numba uses them: the bits follow the target's math library (docs/random.md).
LOOM_HD inline float xoroshiro128p_normal_float32(View<std::uint64_t, 2> states, std::int64_t i) {
  const float u1 = xoroshiro128p_uniform_float32(states, i);
  const float u2 = xoroshiro128p_uniform_float32(states, i);
  constexpr float two_pi = 6.28318530717958647692f;
  return sqrtf(-2.0f * logf(u1)) * cosf(two_pi * u2);
}
LOOM_HD inline double xoroshiro128p_normal_float64(View<std::uint64_t, 2> states, std::int64_t i) {
  const float u1 = xoroshiro128p_uniform_float32(states, i);  // float32 draws, as Numba's
  const float u2 = xoroshiro128p_uniform_float32(states, i);
  constexpr double two_pi = 6.28318530717958647692;
  return sqrt(-2.0 * static_cast<double>(logf(u1))) * cos(two_pi * static_cast<double>(u2));
}

// Seeding (Numba's init_xoroshiro128p_state and xoroshiro128p_jump): splitmix64 of the seed in
// both words; a jump advances a state by 2^64 draws.
LOOM_HD inline std::uint64_t splitmix64(std::uint64_t seed) {
  std::uint64_t z = seed + 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
LOOM_HD inline void xoroshiro128p_jump(View<std::uint64_t, 2> states, std::int64_t i) {
  constexpr std::uint64_t jump[2] = {0xBEAC0467EBA5FACBull, 0xD86B048B86AA9922ull};
  std::uint64_t s0 = 0, s1 = 0;
  for (std::uint64_t j : jump) {
    for (int b = 0; b < 64; ++b) {
      if (j & (std::uint64_t{1} << b)) {
        s0 ^= states(i, 0);
        s1 ^= states(i, 1);
      }
      xoroshiro128p_next(states, i);
    }
  }
  states(i, 0) = s0;
  states(i, 1) = s1;
}

}  // namespace loom::random
