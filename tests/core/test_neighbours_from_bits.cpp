// nextafter and spacing against answers computed here from the IEEE bit patterns by integer
// arithmetic (a step of one in the magnitude's bits is one float along), never from loom's
// functors or the C library: float16, float32 and float64 on every target (cuda with host arrays;
// skipped with the reason where there is no GPU), on ±0, subnormals, the normal range's edges, the
// largest finite value, ±inf, NaNs and random bit patterns, toward larger, smaller and equal y.
// Rules (docs/catalogue.md): nextafter(x, y) is y where x == y (nextafter(+0, -0) is -0), NaN for
// a NaN operand (float16: exactly 0x7e00, NumPy's half NaN); spacing(x) is the signed distance to
// the next value away from zero for float32/float64 (+tiniest from -0, ±inf from ±largest), and
// NumPy's float16 rule: always positive, from a negative power of two the spacing of the next
// smaller magnitude, NaN 0x7e00 for ±inf and NaN, inf from +largest only.
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "loom/float16.hpp"
#include "loom/runtime.hpp"

namespace loom {
namespace {

Runtime& rt() {
  static Runtime r;  // the default search path: serial, tbb where built, cuda where built, math
  return r;
}

std::optional<std::string> unavailable(const std::string& target) {
  for (const auto& t : rt().targets())
    if (t.target == target) return t.available ? std::nullopt : std::optional(t.reason);
  return "no backend for target '" + target + "'";
}

// One IEEE binary format, described by its widths: every answer comes from these.
struct Format {
  DType dtype;
  int mant;  // stored significand bits
  int exp;   // exponent bits
  int bits() const { return 1 + exp + mant; }
  std::uint64_t sign() const { return std::uint64_t{1} << (bits() - 1); }
  std::uint64_t mag_mask() const { return sign() - 1; }
  std::uint64_t inf() const { return ((std::uint64_t{1} << exp) - 1) << mant; }
  std::uint64_t max_finite() const { return inf() - 1; }
  std::uint64_t min_normal() const { return std::uint64_t{1} << mant; }
  std::uint64_t quiet_nan() const { return inf() | (std::uint64_t{1} << (mant - 1)); }
  bool is_nan(std::uint64_t b) const { return (b & mag_mask()) > inf(); }
  std::uint64_t mag(std::uint64_t b) const { return b & mag_mask(); }
  bool neg(std::uint64_t b) const { return (b & sign()) != 0; }
  // The value's order as an integer: -mag for negatives, so that +0 and -0 are both 0.
  std::int64_t key(std::uint64_t b) const {
    const auto m = static_cast<std::int64_t>(mag(b));
    return neg(b) ? -m : m;
  }
  // The spacing of the binade a finite magnitude lies in (its last stored bit's weight), as the
  // bits of a positive number: 2^(e - bias - mant) for normals, the smallest subnormal below.
  std::uint64_t binade_ulp(std::uint64_t m) const {
    const auto e = static_cast<std::int64_t>(m >> mant);  // 0 for subnormals
    const std::int64_t k = (e == 0 ? 1 : e) - mant;       // ulp = 2^(k - bias), as a biased field
    if (k >= 1) return static_cast<std::uint64_t>(k) << mant;  // a normal number
    return std::uint64_t{1} << (k - 1 + mant);                 // a subnormal one
  }
};

const Format kF16{DType::float16, 10, 5}, kF32{DType::float32, 23, 8}, kF64{DType::float64, 52, 11};

// nextafter(x, y) by the bits (C's rules; float16's NaN is NumPy's 0x7e00). nullopt: some NaN.
std::optional<std::uint64_t> next_ref(const Format& f, std::uint64_t x, std::uint64_t y) {
  if (f.is_nan(x) || f.is_nan(y)) {
    if (f.dtype == DType::float16) return f.quiet_nan();
    return std::nullopt;
  }
  if (f.key(x) == f.key(y)) return y;
  if (f.mag(x) == 0) return (y & f.sign()) | 1;  // the smallest subnormal toward y
  const bool away = f.neg(x) ? f.key(y) < f.key(x) : f.key(y) > f.key(x);
  return away ? x + 1 : x - 1;  // the magnitude one step up or down, the sign kept
}

// spacing(x) by the bits. nullopt: some NaN (float16: checked as 0x7e00 separately).
std::optional<std::uint64_t> spacing_ref(const Format& f, std::uint64_t x) {
  const std::uint64_t m = f.mag(x);
  if (m >= f.inf()) return f.dtype == DType::float16 ? std::optional(f.quiet_nan()) : std::nullopt;
  if (f.dtype == DType::float16) {
    if (x == f.max_finite()) return f.inf();
    const bool neg_pow2 = f.neg(x) && m != 0 && (m & (f.min_normal() - 1)) == 0;
    return f.binade_ulp(neg_pow2 ? m - 1 : m);
  }
  if (m == 0) return 1;  // +tiniest from +0 and -0
  const std::uint64_t s = x & f.sign();
  if (m == f.max_finite()) return s | f.inf();
  return s | f.binade_ulp(m);
}

// The inputs: every edge of the format, both signs, then random bit patterns.
std::vector<std::uint64_t> specials(const Format& f, std::mt19937_64& g, int random) {
  const std::uint64_t sub_max = f.min_normal() - 1;
  const std::uint64_t one = ((std::uint64_t{1} << (f.exp - 1)) - 1) << f.mant;
  std::vector<std::uint64_t> mags = {0,
                                     1,
                                     2,
                                     3,
                                     sub_max - 1,
                                     sub_max,
                                     f.min_normal(),
                                     f.min_normal() + 1,
                                     2 * f.min_normal(),
                                     2 * f.min_normal() - 1,
                                     one - 1,
                                     one,
                                     one + 1,
                                     f.max_finite() - 1,
                                     f.max_finite(),
                                     f.inf() - f.min_normal(),
                                     f.inf(),
                                     f.quiet_nan(),
                                     f.inf() + 1};  // a signalling NaN's bits
  std::vector<std::uint64_t> out;
  for (auto m : mags) out.insert(out.end(), {m, m | f.sign()});
  std::uniform_int_distribution<std::uint64_t> bits(0, (f.sign() << 1) - 1);
  for (int i = 0; i < random; ++i) out.push_back(bits(g));
  return out;
}

Array array_of(const Format& f, const std::vector<std::uint64_t>& b) {
  switch (f.dtype) {
    case DType::float16: {
      std::vector<float16_t> v;
      for (auto x : b) v.push_back(float16_t::from_bits(static_cast<std::uint16_t>(x)));
      return from_vector(v);
    }
    case DType::float32: {
      std::vector<float> v;
      for (auto x : b) v.push_back(std::bit_cast<float>(static_cast<std::uint32_t>(x)));
      return from_vector(v);
    }
    default: {
      std::vector<double> v;
      for (auto x : b) v.push_back(std::bit_cast<double>(x));
      return from_vector(v);
    }
  }
}

std::vector<std::uint64_t> bits_of(const Format& f, const Array& a) {
  const Array c = rt().to_host(a).copy();
  std::vector<std::uint64_t> out(static_cast<std::size_t>(c.size()));
  for (std::size_t i = 0; i < out.size(); ++i) {
    if (f.dtype == DType::float16) out[i] = c.data<float16_t>()[i].bits;
    if (f.dtype == DType::float32) out[i] = std::bit_cast<std::uint32_t>(c.data<float>()[i]);
    if (f.dtype == DType::float64) out[i] = std::bit_cast<std::uint64_t>(c.data<double>()[i]);
  }
  return out;
}

std::string hex(std::uint64_t b) {
  char s[24];
  std::snprintf(s, sizeof s, "0x%llx", static_cast<unsigned long long>(b));
  return s;
}

class NeighboursFromBits : public ::testing::TestWithParam<std::tuple<std::string, Format>> {
 protected:
  void SetUp() override {
    if (auto why = unavailable(target())) GTEST_SKIP() << *why;
  }
  const std::string& target() const { return std::get<0>(GetParam()); }
  const Format& fmt() const { return std::get<1>(GetParam()); }
  // got against the answer: the same bits, or any NaN where the answer is "some NaN".
  void expect(const char* op, std::uint64_t got, std::optional<std::uint64_t> want,
              const std::string& inputs) {
    if (want) {
      EXPECT_EQ(hex(got), hex(*want)) << op << "(" << inputs << ") on " << target();
    } else {
      EXPECT_TRUE(fmt().is_nan(got))
          << op << "(" << inputs << ") on " << target() << " is " << hex(got) << ", not a NaN";
    }
  }
};

TEST_P(NeighboursFromBits, NextafterIsOneStepOfTheBits) {
  std::mt19937_64 g(41);
  const auto xs = specials(fmt(), g, 200);
  std::vector<std::uint64_t> x, y;
  for (auto a : xs)  // every pair of inputs: toward larger, smaller, equal and NaN y
    for (auto b : xs) x.push_back(a), y.push_back(b);
  const auto got = bits_of(
      fmt(), rt().ufunc("nextafter")(array_of(fmt(), x), array_of(fmt(), y), {.target = target()}));
  ASSERT_EQ(got.size(), x.size());
  for (std::size_t i = 0; i < x.size(); ++i)
    expect("nextafter", got[i], next_ref(fmt(), x[i], y[i]), hex(x[i]) + ", " + hex(y[i]));
}

TEST_P(NeighboursFromBits, SpacingIsTheBinadesUlp) {
  std::mt19937_64 g(42);
  const auto x = specials(fmt(), g, 5000);
  const auto got = bits_of(fmt(), rt().ufunc("spacing")(array_of(fmt(), x), {.target = target()}));
  ASSERT_EQ(got.size(), x.size());
  for (std::size_t i = 0; i < x.size(); ++i)
    expect("spacing", got[i], spacing_ref(fmt(), x[i]), hex(x[i]));
}

// The reference itself on values whose answers are known by heart (a wrong reference would
// otherwise pass a wrong loom as well as a right one).
TEST(NeighboursFromBitsReference, KnownAnswers) {
  EXPECT_EQ(next_ref(kF32, 0x3f800000, 0x40000000), 0x3f800001u);  // 1 -> up
  EXPECT_EQ(next_ref(kF32, 0x3f800000, 0), 0x3f7fffffu);           // 1 -> down
  EXPECT_EQ(next_ref(kF32, 0x80000000, 0x3f800000), 1u);           // -0 -> +tiniest
  EXPECT_EQ(next_ref(kF32, 0, 0x80000000), 0x80000000u);           // +0 == -0: y
  EXPECT_EQ(next_ref(kF32, 0x80000001, 0), 0x80000000u);           // -tiniest -> -0
  EXPECT_EQ(next_ref(kF32, 0x7f7fffff, 0x7f800000), 0x7f800000u);  // largest -> inf
  EXPECT_EQ(next_ref(kF32, 0xff800000, 0), 0xff7fffffu);           // -inf -> -largest
  EXPECT_EQ(next_ref(kF64, 0xbff0000000000000, 0xc000000000000000), 0xbff0000000000001u);
  EXPECT_EQ(next_ref(kF16, 0x7e00, 0), 0x7e00u);
  EXPECT_EQ(next_ref(kF64, 0x7ff8000000000000, 0), std::nullopt);
  EXPECT_EQ(spacing_ref(kF32, 0x3f800000), 0x34000000u);                  // spacing(1) = 2^-23
  EXPECT_EQ(spacing_ref(kF32, 0xbf800000), 0xb4000000u);                  // spacing(-1) = -2^-23
  EXPECT_EQ(spacing_ref(kF32, 0x80000000), 1u);                           // spacing(-0) = +tiniest
  EXPECT_EQ(spacing_ref(kF32, 0x00800000), 1u);                           // smallest normal: 2^-149
  EXPECT_EQ(spacing_ref(kF32, 0x01000000), 2u);                           // 2^-125: 2^-148
  EXPECT_EQ(spacing_ref(kF32, 0xff7fffff), 0xff800000u);                  // -largest: -inf
  EXPECT_EQ(spacing_ref(kF64, 0x3ff0000000000000), 0x3cb0000000000000u);  // 2^-52
  EXPECT_EQ(spacing_ref(kF16, 0x3c00), 0x1400u);                          // spacing(1) = 2^-10
  EXPECT_EQ(spacing_ref(kF16, 0xbc00), 0x1000u);  // spacing(-1) = +2^-11 (NumPy's float16)
  EXPECT_EQ(spacing_ref(kF16, 0xfbff), 0x5000u);  // -65504: +32
  EXPECT_EQ(spacing_ref(kF16, 0x7bff), 0x7c00u);  // 65504: inf
  EXPECT_EQ(spacing_ref(kF16, 0x8400), 1u);       // -2^-14: 2^-24
  EXPECT_EQ(spacing_ref(kF16, 0x0800), 2u);       // 2^-13: 2^-23
  EXPECT_EQ(spacing_ref(kF16, 0xfc00), 0x7e00u);  // -inf: NaN
}

std::string name_of(const ::testing::TestParamInfo<std::tuple<std::string, Format>>& i) {
  return std::get<0>(i.param) + "_" + std::string(loom::name(std::get<1>(i.param).dtype));
}

INSTANTIATE_TEST_SUITE_P(AllTargets, NeighboursFromBits,
                         ::testing::Combine(::testing::Values("cpu", "parallel", "cuda"),
                                            ::testing::Values(kF16, kF32, kF64)),
                         name_of);

}  // namespace
}  // namespace loom
