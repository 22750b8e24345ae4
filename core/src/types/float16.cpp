// Bit-exact binary16 <-> binary32/binary64 conversions, independent of any hardware support
// (F16C, _Float16) so that every build and every backend's host code agree bit for bit.
#include "loom/float16.hpp"

#include <bit>
#include <cstdint>

namespace loom {

namespace {

// Rounds `value >> shift` to nearest, ties to even; shift is in [1, 63].
std::uint64_t round_shift(std::uint64_t value, int shift) {
  const std::uint64_t kept = value >> shift;
  const std::uint64_t rest = value & ((std::uint64_t{1} << shift) - 1);
  const std::uint64_t half = std::uint64_t{1} << (shift - 1);
  return kept + ((rest > half || (rest == half && (kept & 1))) ? 1 : 0);
}

}  // namespace

float16_t float16_t::from_double(double d) {
  const auto x = std::bit_cast<std::uint64_t>(d);
  const auto sign = static_cast<std::uint16_t>((x >> 48) & 0x8000);
  const int exp = static_cast<int>((x >> 52) & 0x7ff);
  const std::uint64_t mant = x & ((std::uint64_t{1} << 52) - 1);

  if (exp == 0x7ff) {  // inf, or NaN: keep the top payload bits and make it quiet, as IEEE
                       // conversions (and F16C) do, so a NaN never turns into inf.
    if (mant == 0) return from_bits(sign | 0x7c00);
    return from_bits(static_cast<std::uint16_t>(sign | 0x7e00 | (mant >> 42)));
  }
  const int e = exp - 1023 + 15;                 // biased binary16 exponent
  if (e >= 31) return from_bits(sign | 0x7c00);  // overflow: inf
  if (e <= 0) {
    // Subnormal result (or zero): h * 2^-24 with h = M * 2^(e-43), M the 53-bit significand.
    if (e < -10) return from_bits(sign);  // below half the smallest subnormal: rounds to 0
    const std::uint64_t m = mant | (std::uint64_t{1} << 52);
    // A carry out of the subnormal range gives 0x400, the smallest normal: still correct.
    return from_bits(static_cast<std::uint16_t>(sign | round_shift(m, 43 - e)));
  }
  // Normal: the rounding carry may ripple into the exponent (and up to inf): still correct.
  const std::uint64_t h = (static_cast<std::uint64_t>(e) << 52 | mant);
  return from_bits(static_cast<std::uint16_t>(sign | round_shift(h, 42)));
}

}  // namespace loom
