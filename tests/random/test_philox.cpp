// Philox4x32 against Random123's known answers (kat_vectors, the philox4x32 7 and 10 lines), and
// the element functions' promises: ranges, the bits they use, and the exact log/sincos that make
// the normals the same on every target.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>

#include "loom/random.hpp"

namespace {

using loom::random::Key2;
using loom::random::Philox;
using loom::random::Words4;

struct Kat {
  Words4 ctr;
  Key2 key;
  Words4 want;
};
// Random123's kat_vectors: counter, key, expected output.
const Kat kR10[] = {
    {{{0, 0, 0, 0}}, {{0, 0}}, {{0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}}},
    {{{0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff}},
     {{0xffffffff, 0xffffffff}},
     {{0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}}},
    {{{0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344}},
     {{0xa4093822, 0x299f31d0}},
     {{0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}}},
};
const Kat kR7[] = {
    {{{0, 0, 0, 0}}, {{0, 0}}, {{0x5f6fb709, 0x0d893f64, 0x4f121f81, 0x4f730a48}}},
    {{{0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff}},
     {{0xffffffff, 0xffffffff}},
     {{0x5207ddc2, 0x45165e59, 0x4d8ee751, 0x8c52f662}}},
    {{{0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344}},
     {{0xa4093822, 0x299f31d0}},
     {{0x4dfccaba, 0x190a87f0, 0xc47362ba, 0xb6b5242a}}},
};

template <int R>
void check(const Kat& k) {
  const Words4 got = loom::random::philox4x32<R>(k.ctr, k.key);
  for (int j = 0; j < 4; ++j) EXPECT_EQ(got.v[j], k.want.v[j]) << "rounds " << R << " word " << j;
}

TEST(Philox, Random123KnownAnswers10Rounds) {
  for (const Kat& k : kR10) check<10>(k);
}
TEST(Philox, Random123KnownAnswers7Rounds) {
  for (const Kat& k : kR7) check<7>(k);
}

TEST(Philox, BlockIsTheCounterOfSeedStreamAndCall) {
  // Philox(seed, stream, call).block(b) = philox4x32_10((b lo, b hi, call, stream), seed).
  const Philox p(0x299f31d0a4093822ull, 0x03707344, 0x13198a2e);
  const Words4 got = p.block(0x85a308d3243f6a88ull);
  for (int j = 0; j < 4; ++j) EXPECT_EQ(got.v[j], kR10[2].want.v[j]);
}

TEST(Philox, UniformsUseTheTopBitsAndStayBelowOne) {
  EXPECT_EQ(loom::random::to_float32(0xffffffffu), 1.0f - 0x1p-24f);
  EXPECT_EQ(loom::random::to_float32(0x000000ffu), 0.0f);  // the low 8 bits are dropped
  EXPECT_EQ(loom::random::to_float32(0x00000100u), 0x1p-24f);
  EXPECT_EQ(loom::random::to_float64(0xffffffffu, 0xffffffffu), 1.0 - 0x1p-53);
  EXPECT_EQ(loom::random::to_float64(0, 0x7ffu), 0.0);  // the low 11 bits are dropped
  EXPECT_EQ(loom::random::to_float64(0, 0x800u), 0x1p-53);
  const Philox p(7);
  for (std::int64_t i = 0; i < 4096; ++i) {
    const float f = p.uniform_float32(i);
    const double d = p.uniform_float64(i);
    ASSERT_TRUE(f >= 0 && f < 1) << i;
    ASSERT_TRUE(d >= 0 && d < 1) << i;
    ASSERT_EQ(f, std::ldexp(std::floor(std::ldexp(f, 24)), -24)) << "not a multiple of 2^-24";
  }
  // float32 element i is word i % 4 of block i / 4.
  EXPECT_EQ(p.uniform_float32(6), loom::random::to_float32(p.block(1).v[2]));
  EXPECT_EQ(p.uniform_float64(3), loom::random::to_float64(p.block(1).v[2], p.block(1).v[3]));
}

TEST(Philox, ExactLogAndSincosAgreeWithLibm) {
  std::mt19937_64 g(42);
  for (int n = 0; n < 200000; ++n) {
    const double u = static_cast<double>((g() >> 11) + 1) * 0x1p-53;  // (0, 1]
    const double l = loom::random::detail::log_unit(u);
    ASSERT_NEAR(l, std::log(u), 4e-16 * std::max(1.0, std::abs(std::log(u)))) << u;
    double s, c;
    loom::random::detail::sincos_2pi(u - 0x1p-53, s, c);
    ASSERT_NEAR(s, std::sin(2 * M_PI * (u - 0x1p-53)), 2e-15) << u;
    ASSERT_NEAR(c, std::cos(2 * M_PI * (u - 0x1p-53)), 2e-15) << u;
  }
  EXPECT_EQ(loom::random::detail::log_unit(1.0), 0.0);
  EXPECT_NEAR(loom::random::detail::log_unit(0x1p-53), -53 * std::log(2.0), 1e-14);
  double s, c;
  loom::random::detail::sincos_2pi(0.25, s, c);
  EXPECT_EQ(s, 1.0);
  EXPECT_EQ(c, 0.0);
}

// The float32 normals' log and sincos, in float: within 3 units in the last place of a float of
// the double results, over every 2^-24 step of u near 0 and a draw of the rest.
TEST(Philox, FloatLogAndSincosStayWithinAFewUlps) {
  const auto ulps = [](float got, double want) {
    return std::abs(got - want) /
           std::ldexp(1.0, std::ilogb(std::max(std::abs(want), 0x1p-24)) - 23);
  };
  std::mt19937_64 g(43);
  double worst_log = 0, worst_sin = 0;
  for (int n = 0; n < 400000; ++n) {
    const std::uint32_t w = static_cast<std::uint32_t>(n < 100000 ? n : g());
    const float u1 = loom::random::normal_u1_f(w);  // (0, 1]
    ASSERT_TRUE(u1 > 0 && u1 <= 1) << w;
    if (u1 < 1)
      worst_log =
          std::max(worst_log, ulps(loom::random::detail::log_unit_f(u1), std::log(double{u1})));
    const float u2 = loom::random::to_float32(w);
    float s, c;
    loom::random::detail::sincos_2pi_f(u2, s, c);
    worst_sin = std::max({worst_sin, std::abs(s - std::sin(2 * M_PI * u2)) * 0x1p24,
                          std::abs(c - std::cos(2 * M_PI * u2)) * 0x1p24});
  }
  EXPECT_LE(worst_log, 3.0) << "log_unit_f, in float ulps";
  EXPECT_LE(worst_sin, 3.0) << "sincos_2pi_f, in units of 2^-24";
  EXPECT_EQ(loom::random::detail::log_unit_f(1.0f), 0.0f);
  float s, c;
  loom::random::detail::sincos_2pi_f(0.25f, s, c);
  EXPECT_EQ(s, 1.0f);
  EXPECT_EQ(c, 0.0f);
  // u1's tail keeps 2^-32 (w = 0): |z| reaches sqrt(-2 ln 2^-32) = 6.66.
  float z0, z1;
  loom::random::box_muller_f(loom::random::normal_u1_f(0), 0.0f, z0, z1);
  EXPECT_NEAR(z0, std::sqrt(-2 * std::log(0x1p-32)), 1e-5);
  EXPECT_EQ(z1, 0.0f);
}

TEST(Philox, NormalsAreFiniteAtTheExtremes) {
  // u1 = 2^-32 (the smallest the float32 path gives) and 2^-53: finite, at most ~8.6 sigma.
  double z0, z1;
  loom::random::box_muller(0x1p-53, 0.0, z0, z1);
  EXPECT_NEAR(z0, std::sqrt(-2 * std::log(0x1p-53)), 1e-12);
  EXPECT_EQ(z1, 0.0);
  loom::random::box_muller(1.0, 0.5, z0, z1);  // u1 = 1: r = 0
  EXPECT_EQ(z0, 0.0);
}

TEST(Philox, IntegerOffsetsStayInTheSpan) {
  const Philox p(3, 1, 2);
  for (std::uint64_t span : {0ull, 1ull, 6ull, 99ull, 0xfffffffeull, 0xffffffffull, 0x100000000ull,
                             0x7fffffffffffffffull, ~0ull - 1}) {
    std::uint64_t top = 0;
    for (std::int64_t i = 0; i < 2000; ++i) {
      const std::uint64_t v = p.integer_offset(i, span);
      ASSERT_LE(v, span) << "span " << span;
      top = std::max(top, v);
    }
    if (span > 0 && span < 2000) {
      EXPECT_EQ(top, span) << "span " << span << " never reached";
    }
    if (span >= 2000) {
      EXPECT_GT(top, span / 2) << "span " << span;
    }
  }
  EXPECT_EQ(p.integer_offset(5, 0), 0u);
}

}  // namespace
