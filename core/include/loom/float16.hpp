// IEEE 754 binary16 storage type for the float16 dtype: loom stores and casts float16 but runs
// no float16 loops of its own, so a bit-exact conversion to and from float is all it needs.
#pragma once
#include <cstdint>

namespace loom {

struct float16_t {
  std::uint16_t bits = 0;
  float16_t() = default;
  explicit float16_t(float f);  // round to nearest even, overflow to inf, NaN kept
  explicit operator float() const;
  // Rounds a double once, straight to binary16: going through float would round twice.
  static float16_t from_double(double d);
  static float16_t from_bits(std::uint16_t b) {
    float16_t h;
    h.bits = b;
    return h;
  }
};

}  // namespace loom
