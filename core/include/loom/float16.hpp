// IEEE 754 binary16 storage type for the float16 dtype. loom's own float16 loops (the math
// plugin's, NumPy's `e` loops) compute in float and round back, as NumPy's do, so the conversions
// to and from float are inline and callable in CUDA device code (LOOM_HD): the x86 F16C
// instructions where the host compiler targets them, PTX's cvt in device code (inline asm, so no
// CUDA header is included here), else the portable bit manipulation below. All three give the
// same bits for every non-NaN value (round to nearest even, overflow to inf); a NaN stays a NaN
// (the host ones keep its sign and top payload bits and make it quiet; PTX gives 0x7fff).
#pragma once
#include <bit>
#include <cstdint>

#include "loom/hd.hpp"

#if defined(__F16C__) && !defined(__CUDA_ARCH__)
#include <immintrin.h>
#endif

namespace loom {

struct float16_t {
  std::uint16_t bits = 0;
  float16_t() = default;
  // Round to nearest even, overflow to inf, NaN kept.
  LOOM_HD explicit float16_t(float f) : bits(from_float_bits(f)) {}
  LOOM_HD explicit operator float() const { return to_float(bits); }
  // Rounds a double once, straight to binary16: going through float would round twice.
  static float16_t from_double(double d);
  LOOM_HD static float16_t from_bits(std::uint16_t b) {
    float16_t h;
    h.bits = b;
    return h;
  }

  // The portable conversions (tests compare them with the ones in use).
  LOOM_HD static std::uint16_t soft_from_float(float f);
  LOOM_HD static float soft_to_float(std::uint16_t b);

 private:
  LOOM_HD static std::uint16_t from_float_bits(float f) {
#if defined(__CUDA_ARCH__)
    unsigned short h;
    asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "f"(f));
    return h;
#elif defined(__F16C__)
    return static_cast<std::uint16_t>(_cvtss_sh(f, _MM_FROUND_TO_NEAREST_INT));
#else
    return soft_from_float(f);
#endif
  }
  LOOM_HD static float to_float(std::uint16_t b) {
#if defined(__CUDA_ARCH__)
    float f;
    asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(static_cast<unsigned short>(b)));
    return f;
#elif defined(__F16C__)
    return _cvtsh_ss(b);
#else
    return soft_to_float(b);
#endif
  }
};

LOOM_HD inline std::uint16_t float16_t::soft_from_float(float f) {
  std::uint32_t x;
  __builtin_memcpy(&x, &f, 4);
  const auto sign = static_cast<std::uint16_t>((x >> 16) & 0x8000);
  const int exp = static_cast<int>((x >> 23) & 0xff);
  const std::uint32_t mant = x & 0x7fffff;
  if (exp == 0xff) {  // inf, or NaN made quiet with its top payload bits
    return static_cast<std::uint16_t>(mant == 0 ? sign | 0x7c00 : sign | 0x7e00 | (mant >> 13));
  }
  const int e = exp - 127 + 15;  // biased binary16 exponent
  if (e >= 31) return sign | 0x7c00;
  // Rounds `v >> shift` to nearest, ties to even (shift in [1, 31]); a carry into the exponent
  // (or from the subnormals into the normals, or up to inf) is still the right encoding.
  auto round_shift = [](std::uint32_t v, int shift) {
    const std::uint32_t kept = v >> shift, rest = v & ((1u << shift) - 1), half = 1u << (shift - 1);
    return kept + ((rest > half || (rest == half && (kept & 1))) ? 1u : 0u);
  };
  if (e <=
      0) {  // subnormal or zero: the value is m * 2^(e - 14 - 10) with m the 24-bit significand
    if (e < -10) return sign;
    return static_cast<std::uint16_t>(sign | round_shift(mant | 0x800000u, 14 - e));
  }
  return static_cast<std::uint16_t>(sign |
                                    round_shift(static_cast<std::uint32_t>(e) << 23 | mant, 13));
}

LOOM_HD inline float float16_t::soft_to_float(std::uint16_t b) {
  const std::uint32_t sign = static_cast<std::uint32_t>(b & 0x8000) << 16;
  const std::uint32_t exp = (b >> 10) & 0x1f;
  std::uint32_t mant = b & 0x3ff, x;
  if (exp == 0x1f) {
    x = sign | 0x7f800000u | (mant << 13) | (mant ? 0x400000u : 0u);  // inf, quiet NaN
  } else if (exp == 0) {
    if (mant == 0) {
      x = sign;  // signed zero
    } else {     // subnormal: normalize the significand; mant * 2^-24 is a normal float
      int e = -14;
      while ((mant & 0x400) == 0) {
        mant <<= 1;
        --e;
      }
      x = sign | static_cast<std::uint32_t>(e + 127) << 23 | ((mant & 0x3ff) << 13);
    }
  } else {
    x = sign | (exp + 112) << 23 | (mant << 13);
  }
  float f;
  __builtin_memcpy(&f, &x, 4);
  return f;
}

}  // namespace loom
