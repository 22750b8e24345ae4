// float16's own neighbours, on the bits: NumPy's npy_half_nextafter and npy_half_spacing step for
// step (numpy/_core/src/npymath/halffloat.cpp), which np.nextafter and np.spacing use for float16.
// float's neighbours would not do: float16's are 2^13 float ulps apart. Both differ from C's
// float and double versions in one way NumPy's float16 loops have: a NaN operand gives the quiet
// NaN 0x7e00. nextafter(x, y) returns y when x == y (nextafter(+0, -0) is -0), as C's and NumPy
// 2.5's (NumPy up to 2.4 returned x there: docs/catalogue.md);
// spacing(x) is the distance to the next float16 of larger magnitude, always positive (float32's
// np.spacing(-1) is negative), from a negative power of two the distance to the next smaller
// magnitude, NaN for ±inf and NaN, +inf for the largest finite positive value only.
#pragma once
#include <cstdint>

#include "loom/float16.hpp"
#include "loom/hd.hpp"

namespace loom::math::detail {

LOOM_HD inline float16_t half_nextafter(float16_t hx, float16_t hy) {
  const std::uint16_t x = hx.bits, y = hy.bits;
  const bool x_nan = (x & 0x7c00u) == 0x7c00u && (x & 0x03ffu) != 0;
  const bool y_nan = (y & 0x7c00u) == 0x7c00u && (y & 0x03ffu) != 0;
  std::uint16_t r;
  if (x_nan || y_nan) {
    r = 0x7e00u;
  } else if (x == y || ((x | y) & 0x7fffu) == 0) {  // equal (+0 == -0): y, as C's
    r = y;
  } else if ((x & 0x7fffu) == 0) {  // ±0: the smallest subnormal with y's sign
    r = static_cast<std::uint16_t>((y & 0x8000u) + 1);
  } else if (!(x & 0x8000u)) {  // x > 0: toward y down or up
    r = static_cast<std::uint16_t>(
        static_cast<std::int16_t>(x) > static_cast<std::int16_t>(y) ? x - 1 : x + 1);
  } else {  // x < 0
    r = static_cast<std::uint16_t>((!(y & 0x8000u) || (x & 0x7fffu) > (y & 0x7fffu)) ? x - 1
                                                                                     : x + 1);
  }
  return float16_t::from_bits(r);
}

LOOM_HD inline float16_t half_spacing(float16_t hx) {
  const std::uint16_t h = hx.bits;
  const std::uint16_t e = h & 0x7c00u, sig = h & 0x03ffu;
  std::uint16_t r;
  if (e == 0x7c00u) {  // ±inf, NaN
    r = 0x7e00u;
  } else if (h == 0x7bffu) {  // the largest finite: its next is inf
    r = 0x7c00u;
  } else if ((h & 0x8000u) && sig == 0) {  // a negative power of two (or -0)
    if (e > 0x2c00u) {
      r = static_cast<std::uint16_t>(e - 0x2c00u);
    } else if (e > 0x0400u) {
      r = static_cast<std::uint16_t>(1u << ((e >> 10) - 2));
    } else {
      r = 0x0001u;
    }
  } else if (e > 0x2800u) {
    r = static_cast<std::uint16_t>(e - 0x2800u);
  } else if (e > 0x0400u) {
    r = static_cast<std::uint16_t>(1u << ((e >> 10) - 1));
  } else {
    r = 0x0001u;
  }
  return float16_t::from_bits(r);
}

}  // namespace loom::math::detail
