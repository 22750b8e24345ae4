// The standard normal by the ziggurat method (Marsaglia and Tsang 2000; NumPy's Generator draws
// its normals the same way), written so that every target gives the same bits: table lookups,
// one multiply and one integer compare for 98.8 % of the draws, and for the rest IEEE operations
// with explicit fma (the wedge's exp, the tail's log), never the target's libm. Included by
// loom/random.hpp; docs/random.md, "How the bits are laid out", says which words a draw uses.
#pragma once
#include <cmath>
#include <cstdint>

#include "loom/hd.hpp"
#include "loom/random_ziggurat_tables.hpp"

#if defined(__CUDACC__)
#define LOOM_RANDOM_NOINLINE __noinline__
#elif defined(__GNUC__)
#define LOOM_RANDOM_NOINLINE __attribute__((noinline))
#else
#define LOOM_RANDOM_NOINLINE
#endif

namespace loom::random::detail {

// One copy per program (global memory on the device: a layer index differs between a warp's
// threads, which constant memory would serialize).
LOOM_HD inline const ZigTables& zig_tables() {
  static constexpr ZigTables t = LOOM_ZIG_TABLES_INIT;
  return t;
}

// exp(-y) for y in [0, 8] (the wedge test's y = x^2 / 2, x < r): y = n ln 2 - z, |z| <= ln 2 / 2,
// e^z by its Taylor series to z^13 (below 2^-57 there), then scaled by 2^-n exactly.
LOOM_HD inline double exp_neg(double y) {
  constexpr double inv_ln2 = 1.44269504088896340736;
  constexpr double ln2_hi = 6.93147180369123816490e-01, ln2_lo = 1.90821492927058770002e-10;
  const double n = rint(y * inv_ln2);
  const double z = fma(n, ln2_lo, fma(n, ln2_hi, -y));  // n ln2_hi is exact: ln2_hi has 32 bits
  constexpr double inv_fact[14] = {1.0,
                                   1.0,
                                   1.0 / 2,
                                   1.0 / 6,
                                   1.0 / 24,
                                   1.0 / 120,
                                   1.0 / 720,
                                   1.0 / 5040,
                                   1.0 / 40320,
                                   1.0 / 362880,
                                   1.0 / 3628800,
                                   1.0 / 39916800,
                                   1.0 / 479001600,
                                   1.0 / 6227020800.0};
  double p = inv_fact[13];
  for (int k = 12; k >= 0; --k) p = fma(p, z, inv_fact[k]);
  return ldexp(p, -static_cast<int>(n));
}

// The words a rejected draw goes on with: element i's own blocks (i, attempt a), a = 1, 2, ...
// in bits 56..63 of the block number (element numbers stay below 2^56), so the first word of
// every element comes from the array's blocks and the rare rejections from nobody else's.
template <class P>
struct ElementWords {
  const P& philox;
  std::uint64_t element;
  std::uint32_t attempt = 0;
  int used = 4;
  std::uint32_t w[4] = {};

  LOOM_HD std::uint32_t next32() {
    if (used == 4) {
      attempt = attempt % 255 + 1;
      const auto b =
          philox.block((element & 0x00FFFFFFFFFFFFFFull) | (std::uint64_t{attempt} << 56));
      for (int k = 0; k < 4; ++k) w[k] = b.v[k];
      used = 0;
    }
    return w[used++];
  }
  LOOM_HD std::uint64_t next64() {
    const std::uint64_t hi = next32();
    return (hi << 32) | next32();
  }
  // Uniform in [0, 1) from 53 bits, and in (0, 1] for a logarithm.
  LOOM_HD double unit() { return static_cast<double>(next64() >> 11) * (1.0 / 9007199254740992.0); }
  LOOM_HD double unit_open0() { return 1.0 - unit(); }
};

// log(u) for u in (0, 1], for the tail: IEEE operations and explicit fma, so every target rounds
// it the same way; accurate to a few units in the last place.
LOOM_HD inline double log_unit(double u) {
  int e;
  double m = frexp(u, &e);  // u = m * 2^e, m in [0.5, 1)
  if (m < 0.70710678118654752) {
    m *= 2;
    --e;
  }  // m in [sqrt(1/2), sqrt(2))
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

// The tail past r (Marsaglia's method): x = -ln(u1) / r, y = -ln(u2), until 2y >= x^2; r + x.
template <class P>
LOOM_HD double zig_tail(ElementWords<P>& s) {
  for (;;) {
    const double l1 = log_unit(s.unit_open0()), l2 = log_unit(s.unit_open0());
    const double x = -l1 * kZigInvR;
    if (-(l2 + l2) >= x * x) return fma(-l1, kZigInvR, kZigR);
  }
}

// Layer `layer`'s wedge: a uniform height between f(X[layer]) and f(X[layer + 1]) under f(x).
template <class P>
LOOM_HD bool zig_wedge(const ZigTables& t, std::uint32_t layer, double x, ElementWords<P>& s) {
  const double y = fma(s.unit(), t.f[layer + 1] - t.f[layer], t.f[layer]);
  return y < exp_neg(0.5 * x * x);
}

// A 32-bit word: layer = bits 0..7, sign = bit 8, j = bits 9..31 (x = j X[layer] / 2^23).
template <class P>
LOOM_RANDOM_NOINLINE LOOM_HD float zig_slow32(const P& p, std::uint32_t w, std::uint64_t i) {
  const ZigTables& t = zig_tables();
  ElementWords<P> s{p, i};
  for (;;) {
    const std::uint32_t layer = w & 0xFFu, j = w >> 9;
    const bool neg = (w & 0x100u) != 0;
    const float x = static_cast<float>(j) * t.w32[layer];
    if (j < t.k32[layer]) return neg ? -x : x;
    if (layer == 0) {
      const float z = static_cast<float>(zig_tail(s));
      return neg ? -z : z;
    }
    if (zig_wedge(t, layer, static_cast<double>(x), s)) return neg ? -x : x;
    w = s.next32();
  }
}
template <class P>
LOOM_HD inline float zig_normal32(const P& p, std::uint32_t w, std::uint64_t i) {
  const ZigTables& t = zig_tables();
  const std::uint32_t layer = w & 0xFFu, j = w >> 9;
  if (j < t.k32[layer]) [[likely]] {
    const float x = static_cast<float>(j) * t.w32[layer];
    return (w & 0x100u) ? -x : x;
  }
  return zig_slow32(p, w, i);
}

// A 64-bit word: layer = bits 0..7, sign = bit 8, j = bits 12..63 (x = j X[layer] / 2^52).
template <class P>
LOOM_RANDOM_NOINLINE LOOM_HD double zig_slow64(const P& p, std::uint64_t w, std::uint64_t i) {
  const ZigTables& t = zig_tables();
  ElementWords<P> s{p, i};
  for (;;) {
    const std::uint32_t layer = static_cast<std::uint32_t>(w & 0xFFu);
    const std::uint64_t j = w >> 12;
    const bool neg = (w & 0x100u) != 0;
    const double x = static_cast<double>(j) * t.w64[layer];
    if (j < t.k64[layer]) return neg ? -x : x;
    if (layer == 0) {
      const double z = zig_tail(s);
      return neg ? -z : z;
    }
    if (zig_wedge(t, layer, x, s)) return neg ? -x : x;
    w = s.next64();
  }
}
template <class P>
LOOM_HD inline double zig_normal64(const P& p, std::uint64_t w, std::uint64_t i) {
  const ZigTables& t = zig_tables();
  const std::uint32_t layer = static_cast<std::uint32_t>(w & 0xFFu);
  const std::uint64_t j = w >> 12;
  if (j < t.k64[layer]) [[likely]] {
    const double x = static_cast<double>(j) * t.w64[layer];
    return (w & 0x100u) ? -x : x;
  }
  return zig_slow64(p, w, i);
}

}  // namespace loom::random::detail
