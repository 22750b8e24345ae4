// Philox4x32 against Random123's known answers (kat_vectors, the philox4x32 7 and 10 lines), and
// the element functions' promises: ranges, the bits they use, and the ziggurat and exact log/exp
// that make the normals the same on every target.
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

TEST(Philox, ExactLogAndExpAgreeWithLibm) {
  std::mt19937_64 g(42);
  for (int n = 0; n < 200000; ++n) {
    const double u = static_cast<double>((g() >> 11) + 1) * 0x1p-53;  // (0, 1]
    const double l = loom::random::detail::log_unit(u);
    ASSERT_NEAR(l, std::log(u), 4e-16 * std::max(1.0, std::abs(std::log(u)))) << u;
    const double y = 8 * (u - 0x1p-53);  // [0, 8), the wedge's range
    const double e = loom::random::detail::exp_neg(y);
    ASSERT_NEAR(e, std::exp(-y), 4e-16 * std::exp(-y)) << y;
  }
  EXPECT_EQ(loom::random::detail::log_unit(1.0), 0.0);
  EXPECT_NEAR(loom::random::detail::log_unit(0x1p-53), -53 * std::log(2.0), 1e-14);
  EXPECT_EQ(loom::random::detail::exp_neg(0.0), 1.0);
}

// The ziggurat's tables (scripts/gen_ziggurat_tables.py) against their definition, recomputed
// here in long double from r alone.
TEST(Philox, ZigguratTablesAreTheLayersOfTheNormal) {
  const auto& t = loom::random::detail::zig_tables();
  const long double r = loom::random::detail::kZigR;
  const auto f = [](long double x) { return std::exp(-x * x / 2); };
  const long double v = r * f(r) + std::sqrt(std::acos(-1.0L) / 2) * std::erfc(r / std::sqrt(2.0L));
  long double x[257];
  x[0] = v / f(r);
  x[1] = r;
  for (int i = 1; i < 255; ++i) x[i + 1] = std::sqrt(-2 * std::log(f(x[i]) + v / x[i]));
  x[256] = 0;
  EXPECT_NEAR(static_cast<double>(f(x[255]) + v / x[255]), 1.0, 1e-12) << "the top layer closes";
  for (int i = 0; i < 256; ++i) {
    EXPECT_NEAR(t.w64[i], static_cast<double>(x[i] / 0x1p52L), 1e-12 * t.w64[i]) << i;
    EXPECT_EQ(t.w32[i], static_cast<float>(t.w64[i] * 0x1p29)) << i;
    const long double ratio = x[i + 1] / x[i];
    EXPECT_NEAR(static_cast<double>(t.k32[i]), static_cast<double>(ratio * 0x1p23L), 1.0) << i;
    EXPECT_NEAR(static_cast<double>(t.k64[i]), static_cast<double>(ratio * 0x1p52L), 64.0) << i;
    if (i >= 1) EXPECT_NEAR(t.f[i], static_cast<double>(f(x[i])), 1e-12) << i;
  }
  EXPECT_EQ(t.f[256], 1.0);
}

// Each path of the ziggurat on words chosen to take it: the fast path is j X[layer] / 2^23 with
// bit 8 the sign; layer 0 past k32[0] is the tail (|z| > r); the top layer is always a wedge.
TEST(Philox, ZigguratPaths) {
  const Philox p(7);
  const auto& t = loom::random::detail::zig_tables();
  const auto word = [](std::uint32_t layer, bool neg, std::uint32_t j) {
    return layer | (neg ? 0x100u : 0u) | (j << 9);
  };
  EXPECT_EQ(loom::random::detail::zig_normal32(p, word(5, false, 1000), 0),
            1000.0f * t.w32[5]);
  EXPECT_EQ(loom::random::detail::zig_normal32(p, word(5, true, 1000), 0), -1000.0f * t.w32[5]);
  for (std::uint64_t i = 0; i < 2000; ++i) {
    const float z = loom::random::detail::zig_normal32(p, word(0, i % 2 != 0, t.k32[0] + 1), i);
    ASSERT_TRUE(std::isfinite(z) && std::abs(z) >= static_cast<float>(loom::random::detail::kZigR))
        << i << ": " << z;
    ASSERT_EQ(std::signbit(z), i % 2 != 0);
    const double z64 = loom::random::detail::zig_normal64(
        p, (std::uint64_t{t.k64[0] + 1} << 12) | (i % 2 != 0 ? 0x100u : 0u), i);
    ASSERT_TRUE(std::isfinite(z64) && std::abs(z64) >= loom::random::detail::kZigR) << z64;
    // The top layer: x below X[255] whatever the wedge decides (a rejection draws again).
    const float top = loom::random::detail::zig_normal32(p, word(255, false, 0x7FFFFF), i);
    ASSERT_TRUE(std::isfinite(top)) << top;
  }
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
