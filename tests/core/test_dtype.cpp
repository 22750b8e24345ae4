// Tests of the dtype layer: names, NumPy's casting tables and promotion, strided casts between
// every pair of dtypes, and bit-exact float16 conversion.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <complex>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "loom/dtype.hpp"
#include "loom/error.hpp"

namespace loom {
namespace {

DType dt(int i) { return static_cast<DType>(i); }

// Reference tables generated with NumPy 2.4.6 (rows: from, columns: to, both in enum order
// bool,int8,uint8,int16,uint16,int32,uint32,int64,uint64,float16,float32,float64,complex64,
// complex128) by:
//   ''.join('1' if np.can_cast(a, b, level) else '0' for b in dts)   # safe, same_kind
//   dts.index(np.result_type(a, b))                                   # promotion
constexpr const char* kSafe[kNumDTypes] = {
    "11111111111111", "01010101011111", "00111111111111", "00010101001111", "00001111101111",
    "00000101000101", "00000011100101", "00000001000101", "00000000100101", "00000000011111",
    "00000000001111", "00000000000101", "00000000000011", "00000000000001"};
constexpr const char* kSameKind[kNumDTypes] = {
    "11111111111111", "01010101011111", "01111111111111", "01010101011111", "01111111111111",
    "01010101011111", "01111111111111", "01010101011111", "01111111111111", "00000000011111",
    "00000000011111", "00000000011111", "00000000000011", "00000000000011"};
constexpr int kPromote[kNumDTypes][kNumDTypes] = {
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13},
    {1, 1, 3, 3, 5, 5, 7, 7, 11, 9, 10, 11, 12, 13},
    {2, 3, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13},
    {3, 3, 3, 3, 5, 5, 7, 7, 11, 10, 10, 11, 12, 13},
    {4, 5, 4, 5, 4, 5, 6, 7, 8, 10, 10, 11, 12, 13},
    {5, 5, 5, 5, 5, 5, 7, 7, 11, 11, 11, 11, 13, 13},
    {6, 7, 6, 7, 6, 7, 6, 7, 8, 11, 11, 11, 13, 13},
    {7, 7, 7, 7, 7, 7, 7, 7, 11, 11, 11, 11, 13, 13},
    {8, 11, 8, 11, 8, 11, 8, 11, 8, 11, 11, 11, 13, 13},
    {9, 9, 9, 10, 10, 11, 11, 11, 11, 9, 10, 11, 12, 13},
    {10, 10, 10, 10, 10, 11, 11, 11, 11, 10, 10, 11, 12, 13},
    {11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 13, 13},
    {12, 12, 12, 12, 12, 13, 13, 13, 13, 12, 12, 13, 12, 13},
    {13, 13, 13, 13, 13, 13, 13, 13, 13, 13, 13, 13, 13, 13}};

TEST(DType, NamesRoundTrip) {
  const char* names[] = {"bool",    "int8",    "uint8",     "int16",     "uint16",
                         "int32",   "uint32",  "int64",     "uint64",    "float16",
                         "float32", "float64", "complex64", "complex128"};
  for (int i = 0; i < kNumDTypes; ++i) {
    EXPECT_EQ(name(dt(i)), names[i]);
    EXPECT_EQ(dtype_from_name(names[i]), dt(i));
  }
  EXPECT_EQ(dtype_from_name("bool_"), DType::bool_);
  for (Casting c :
       {Casting::no, Casting::equiv, Casting::safe, Casting::same_kind, Casting::unsafe}) {
    EXPECT_EQ(casting_from_name(name(c)), c);
  }
  EXPECT_EQ(name(Casting::same_kind), "same_kind");
}

TEST(DType, MalformedNamesListValidOnes) {
  for (const char* bad : {"", "float", "Float32", "int 8", " int8", "float32 ", "f4", "int128"}) {
    try {
      dtype_from_name(bad);
      ADD_FAILURE() << "no ParseError for '" << bad << "'";
    } catch (const ParseError& e) {
      const std::string msg = e.what();
      EXPECT_NE(msg.find("'" + std::string(bad) + "'"), std::string::npos) << msg;
      for (int i = 0; i < kNumDTypes; ++i) {
        EXPECT_NE(msg.find(std::string(name(dt(i)))), std::string::npos) << msg;
      }
    }
  }
  for (const char* bad : {"", "Safe", "samekind", "unsafe!"}) {
    try {
      casting_from_name(bad);
      ADD_FAILURE() << "no ParseError for '" << bad << "'";
    } catch (const ParseError& e) {
      const std::string msg = e.what();
      for (const char* v : {"no", "equiv", "safe", "same_kind", "unsafe"}) {
        EXPECT_NE(msg.find(v), std::string::npos) << msg;
      }
    }
  }
}

TEST(DType, ItemsizeAndKindMatchCppTypes) {
  for (int i = 0; i < kNumDTypes; ++i) {
    visit_dtype(dt(i), [&](auto v) {
      using T = decltype(v);
      EXPECT_EQ(itemsize(dt(i)), sizeof(T)) << name(dt(i));
      EXPECT_EQ(dtype_v<T>, dt(i));
    });
  }
  EXPECT_EQ(kind(DType::bool_), Kind::boolean);
  EXPECT_EQ(kind(DType::int16), Kind::signed_int);
  EXPECT_EQ(kind(DType::uint64), Kind::unsigned_int);
  EXPECT_EQ(kind(DType::float16), Kind::floating);
  EXPECT_EQ(kind(DType::complex64), Kind::complex);
}

TEST(DType, SafeAndSameKindTablesMatchNumPy) {
  for (int a = 0; a < kNumDTypes; ++a) {
    for (int b = 0; b < kNumDTypes; ++b) {
      EXPECT_EQ(can_cast(dt(a), dt(b)), kSafe[a][b] == '1') << name(dt(a)) << "->" << name(dt(b));
      EXPECT_EQ(can_cast(dt(a), dt(b), Casting::same_kind), kSameKind[a][b] == '1')
          << name(dt(a)) << "->" << name(dt(b));
    }
  }
}

TEST(DType, NoEquivUnsafe) {
  for (int a = 0; a < kNumDTypes; ++a) {
    for (int b = 0; b < kNumDTypes; ++b) {
      EXPECT_EQ(can_cast(dt(a), dt(b), Casting::no), a == b);
      EXPECT_EQ(can_cast(dt(a), dt(b), Casting::equiv), a == b);
      EXPECT_TRUE(can_cast(dt(a), dt(b), Casting::unsafe));
    }
  }
}

TEST(DType, CastingSpotChecks) {
  EXPECT_TRUE(can_cast(DType::int64, DType::float64));
  EXPECT_FALSE(can_cast(DType::uint64, DType::int64));
  EXPECT_TRUE(can_cast(DType::int8, DType::float16));
  EXPECT_TRUE(can_cast(DType::uint64, DType::float64));
  EXPECT_TRUE(can_cast(DType::float16, DType::complex64));
  EXPECT_FALSE(can_cast(DType::int32, DType::complex64));
  EXPECT_TRUE(can_cast(DType::uint64, DType::int8, Casting::same_kind));
  EXPECT_FALSE(can_cast(DType::int64, DType::uint8, Casting::same_kind));
  EXPECT_FALSE(can_cast(DType::float64, DType::int64, Casting::same_kind));
  EXPECT_TRUE(can_cast(DType::float64, DType::float16, Casting::same_kind));
  EXPECT_FALSE(can_cast(DType::complex64, DType::float64, Casting::same_kind));
  EXPECT_FALSE(can_cast(DType::int8, DType::bool_, Casting::same_kind));
}

TEST(DType, PromotionMatchesNumPyResultType) {
  for (int a = 0; a < kNumDTypes; ++a) {
    for (int b = 0; b < kNumDTypes; ++b) {
      EXPECT_EQ(promote(dt(a), dt(b)), dt(kPromote[a][b])) << name(dt(a)) << "," << name(dt(b));
    }
  }
}

// ---- cast_strided ----

struct Value {
  long double re, im = 0;
};
constexpr long double kInf = std::numeric_limits<long double>::infinity();
constexpr long double kNaN = std::numeric_limits<long double>::quiet_NaN();
const Value kValues[] = {{0},    {1},    {-1},    {2.5},     {-2.5},    {127},
                         {200},  {-129}, {65504}, {1e10},    {-3.75e9}, {1e19},
                         {kNaN}, {kInf}, {-kInf}, {1.5, -2}, {0, 3}};

template <class T>
Value read(const char* p) {  // the test's own loads, independent of dtype.cpp
  T v;
  std::memcpy(&v, p, sizeof v);
  if constexpr (std::is_same_v<T, float16_t>)
    return {static_cast<float>(v)};
  else if constexpr (requires { v.imag(); })
    return {v.real(), v.imag()};
  else
    return {static_cast<long double>(v)};
}

// Writes v as a T if T holds it exactly; returns false (nothing to test) otherwise.
template <class T>
bool write(char* p, Value v) {
  T t;
  if constexpr (std::is_same_v<T, float16_t>)
    t = float16_t(static_cast<float>(v.re));
  else if constexpr (requires { t.imag(); })
    t = T(v.re, v.im);
  else if constexpr (std::is_floating_point_v<T>)
    t = static_cast<T>(v.re);
  else {
    if (v.re != std::trunc(v.re) || v.re < std::numeric_limits<T>::lowest() ||
        v.re > std::numeric_limits<T>::max())
      return false;  // also rejects NaN
    t = static_cast<T>(v.re);
  }
  std::memcpy(p, &t, sizeof t);
  const Value back = read<T>(p);
  auto same = [](long double a, long double b) { return a == b || (a != a && b != b); };
  return same(back.re, v.re) && same(back.im, v.im);
}

// What NumPy's astype gives for a value the source holds exactly, for the cases where NumPy's
// result is defined (the caller skips NaN/inf/out-of-range float->int; tested separately).
template <class T>
bool expected_bytes(char* p, Value v) {
  T t;
  if constexpr (std::is_same_v<T, bool>)
    t = v.re != 0 || v.im != 0;
  else if constexpr (std::is_same_v<T, float16_t>)
    t = float16_t::from_double(double(v.re));
  else if constexpr (requires { t.imag(); }) {
    using C = typename T::value_type;
    t = T(static_cast<C>(v.re), static_cast<C>(v.im));
  } else if constexpr (std::is_floating_point_v<T>)
    t = static_cast<T>(v.re);
  else {
    // NumPy (x86) truncates through int32 for narrow targets, through int64 or uint64 for
    // 64-bit ones; outside that range it gives the platform's "indefinite" value.
    const long double r = std::trunc(v.re);
    const bool wide = sizeof(T) == 8, u64 = wide && std::is_unsigned_v<T>;
    if (!(r >= (wide ? -0x1p63L : -0x1p31L) && r < (u64 ? 0x1p64L : wide ? 0x1p63L : 0x1p31L)))
      return false;
    t = r >= 0x1p63L ? static_cast<T>(static_cast<std::uint64_t>(r))
                     : static_cast<T>(static_cast<std::int64_t>(r));  // wraps modulo 2^bits
  }
  std::memcpy(p, &t, sizeof t);
  return true;
}

bool same_element(DType t, const char* a, const char* b) {
  return visit_dtype(t, [&](auto z) {
    const Value x = read<decltype(z)>(a), y = read<decltype(z)>(b);
    auto same = [](long double p, long double q) {
      return (p == q && std::signbit(p) == std::signbit(q)) || (p != p && q != q);
    };
    return same(x.re, y.re) && same(x.im, y.im);
  });
}

TEST(CastStrided, EveryPairOnUnalignedAndNegativeStrides) {
  int checked = 0;
  for (int f = 0; f < kNumDTypes; ++f) {
    for (int t = 0; t < kNumDTypes; ++t) {
      const DType from = dt(f), to = dt(t);
      const std::int64_t fs = itemsize(from), ts = itemsize(to);
      const std::int64_t ss = 2 * fs + 3, ds = -(ts + 1);  // odd: misaligned; reversed output
      std::vector<Value> vals;
      std::vector<char> src(1 + ss * std::size(kValues)), want(16);
      for (const Value& v : kValues) {
        if (visit_dtype(from, [&](auto z) {
              return write<decltype(z)>(src.data() + 1 + ss * vals.size(), v);
            }))
          vals.push_back(v);
      }
      const std::int64_t n = vals.size();
      std::vector<char> dst(1 + (ts + 1) * n, 0x55);
      char* dst_first = dst.data() + 1 + (ts + 1) * (n - 1);
      cast_strided(src.data() + 1, ss, from, dst_first, ds, to, n);
      for (std::int64_t i = 0; i < n; ++i) {
        const bool defined = visit_dtype(
            to, [&](auto z) { return expected_bytes<decltype(z)>(want.data(), vals[i]); });
        if (!defined) continue;
        ++checked;
        EXPECT_TRUE(same_element(to, dst_first + ds * i, want.data()))
            << name(from) << "->" << name(to) << " value " << double(vals[i].re) << ","
            << double(vals[i].im);
      }
      EXPECT_EQ(dst[0], 0x55) << "wrote before the first element";
    }
  }
  EXPECT_GT(checked, 1000);
}

TEST(CastStrided, SpotChecksAgainstNumPy) {  // values printed by NumPy 2.4.6 on x86-64
  auto cast = [](auto x, DType to, auto out) {
    cast_strided(reinterpret_cast<const char*>(&x), 0, dtype_v<decltype(x)>,
                 reinterpret_cast<char*>(&out), 0, to, 1);
    return out;
  };
  EXPECT_EQ(cast(-1.0, DType::uint8, std::uint8_t{}), 255);
  EXPECT_EQ(cast(300.0, DType::uint8, std::uint8_t{}), 44);
  EXPECT_EQ(cast(-3.7, DType::int8, std::int8_t{}), -3);
  EXPECT_EQ(cast(40000.0, DType::int16, std::int16_t{}), -25536);
  EXPECT_EQ(cast(1e19, DType::uint64, std::uint64_t{}), 10000000000000000000ull);
  EXPECT_EQ(cast(-1.0, DType::uint64, std::uint64_t{}), ~0ull);
  EXPECT_EQ(cast(std::complex<double>(1.5, -2), DType::int32, std::int32_t{}), 1);
  EXPECT_EQ(cast(std::complex<float>(0, 1), DType::bool_, bool{}), true);
  EXPECT_EQ(cast(std::numeric_limits<double>::quiet_NaN(), DType::bool_, bool{}), true);
  EXPECT_EQ(cast(-0.0, DType::bool_, bool{}), false);
  EXPECT_EQ(cast(std::int64_t{2049}, DType::float16, float16_t{}).bits, 0x6800);   // 2048
  EXPECT_EQ(cast(std::int64_t{-2051}, DType::float16, float16_t{}).bits, 0xe802);  // -2052
  EXPECT_EQ(cast(std::numeric_limits<std::uint64_t>::max(), DType::float32, 0.0f),
            18446744073709551616.0f);
  EXPECT_EQ(cast(std::numeric_limits<std::uint64_t>::max(), DType::float16, float16_t{}).bits,
            0x7c00);
  EXPECT_EQ(cast(1 + 0x1p-11 + 0x1p-40, DType::float16, float16_t{}).bits, 0x3c01);  // once
  std::uint8_t two = 2;  // a bool byte other than 0/1 reads as true
  EXPECT_EQ(cast(two, DType::float32, 0.0f), 2.0f);
  float out = 0;
  cast_strided(reinterpret_cast<const char*>(&two), 1, DType::bool_, reinterpret_cast<char*>(&out),
               4, DType::float32, 1);
  EXPECT_EQ(out, 1.0f);
}

// loom's documented choice where NumPy's result is platform-defined (see dtype.cpp).
TEST(CastStrided, FloatToIntOutOfRangeIsDefined) {
  const double in[] = {std::nan(""), INFINITY, -INFINITY, 1e30, -1e30, 1e19};
  std::int64_t i64[6];
  std::uint64_t u64[6];
  cast_strided(reinterpret_cast<const char*>(in), 8, DType::float64, reinterpret_cast<char*>(i64),
               8, DType::int64, 6);
  cast_strided(reinterpret_cast<const char*>(in), 8, DType::float64, reinterpret_cast<char*>(u64),
               8, DType::uint64, 6);
  const double wide[] = {1e10, -3.75e9, 1e19};  // in the 64-bit range: wrap modulo 2^bits
  std::int32_t i32[3];
  std::uint8_t u8[3];
  cast_strided(reinterpret_cast<const char*>(wide), 8, DType::float64, reinterpret_cast<char*>(i32),
               4, DType::int32, 3);
  cast_strided(reinterpret_cast<const char*>(wide), 8, DType::float64, reinterpret_cast<char*>(u8),
               1, DType::uint8, 3);
  EXPECT_EQ(std::vector<std::int32_t>(i32, i32 + 3),
            (std::vector<std::int32_t>{1410065408, 544967296, -1}));  // 1e19: int64 max
  EXPECT_EQ(std::vector<std::uint8_t>(u8, u8 + 3), (std::vector<std::uint8_t>{0, 128, 0}));
  const std::int64_t imax = std::numeric_limits<std::int64_t>::max(), imin = -imax - 1;
  EXPECT_EQ(std::vector<std::int64_t>(i64, i64 + 6),
            (std::vector<std::int64_t>{0, imax, imin, imax, imin, imax}));
  EXPECT_EQ(std::vector<std::uint64_t>(u64, u64 + 6),
            (std::vector<std::uint64_t>{0, ~0ull, 1ull << 63, ~0ull, 1ull << 63,
                                        10000000000000000000ull}));
}

// ---- float16 ----

TEST(Float16, AllBitPatternsRoundTrip) {
  for (std::uint32_t b = 0; b < 65536; ++b) {
    const auto h = float16_t::from_bits(static_cast<std::uint16_t>(b));
    const float f = static_cast<float>(h);
    const std::uint32_t e = (b >> 10) & 0x1f, m = b & 0x3ff;
    const float sign = (b & 0x8000) ? -1.0f : 1.0f;
    if (e == 31 && m != 0) {
      ASSERT_TRUE(std::isnan(f)) << b;
      EXPECT_EQ(std::signbit(f), (b & 0x8000) != 0);
      EXPECT_TRUE(std::isnan(static_cast<float>(float16_t(f)))) << b;
      EXPECT_TRUE(std::isnan(static_cast<float>(float16_t::from_double(f)))) << b;
      continue;
    }
    const float want = e == 31  ? sign * INFINITY
                       : e == 0 ? sign * std::ldexp(float(m), -24)
                                : sign * std::ldexp(float(1024 + m), int(e) - 25);
    ASSERT_EQ(std::bit_cast<std::uint32_t>(f), std::bit_cast<std::uint32_t>(want)) << b;
    ASSERT_EQ(float16_t(f).bits, b);
    ASSERT_EQ(float16_t::from_double(f).bits, b);
  }
}

TEST(Float16, RoundsToNearestEven) {
  // Between every pair of adjacent finite halves (and past the largest, towards inf): the
  // midpoint goes to the even one, anything off the midpoint to the nearer one.
  for (std::uint16_t b = 0; b < 0x7c00; ++b) {
    for (std::uint16_t s : {0, 0x8000}) {
      const double lo = static_cast<float>(float16_t::from_bits(b | s));
      const double hi = b == 0x7bff ? (s ? -65536.0 : 65536.0)
                                    : static_cast<float>(float16_t::from_bits((b + 1) | s));
      const double mid = (lo + hi) / 2;
      const std::uint16_t even = (b & 1) ? (b + 1) | s : b | s;
      ASSERT_EQ(float16_t::from_double(mid).bits, even) << b;
      ASSERT_EQ(float16_t(static_cast<float>(mid)).bits, even) << b;
      ASSERT_EQ(float16_t::from_double(std::nextafter(mid, lo)).bits, b | s) << b;
      ASSERT_EQ(float16_t::from_double(std::nextafter(mid, hi)).bits, (b + 1) | s) << b;
      ASSERT_EQ(float16_t(std::nextafterf(float(mid), float(hi))).bits, (b + 1) | s) << b;
    }
  }
  // Values printed by NumPy 2.4.6 as np.array([x]).astype('f2').view('u2').
  const std::pair<double, std::uint16_t> numpy[] = {{0.1, 0x2e66},
                                                    {-2.5, 0xc100},
                                                    {65519.0, 0x7bff},
                                                    {65520.0, 0x7c00},
                                                    {1e-8, 0x0},
                                                    {0x1p-24, 0x1},
                                                    {0x1p-25, 0x0},
                                                    {1.5 * 0x1p-24, 0x2},
                                                    {6.1e-5, 0x3ff},
                                                    {1.0 / 3, 0x3555},
                                                    {-1e6, 0xfc00},
                                                    {3.14159, 0x4248},
                                                    {2.980232536792755e-08, 0x1}};
  for (auto [x, bits] : numpy) EXPECT_EQ(float16_t::from_double(x).bits, bits) << x;
  EXPECT_EQ(float16_t(-0.0f).bits, 0x8000);
  EXPECT_EQ(float16_t(INFINITY).bits, 0x7c00);
  EXPECT_EQ(float16_t(-1e30f).bits, 0xfc00);
  EXPECT_EQ(float16_t(std::numeric_limits<float>::denorm_min()).bits, 0x0);
  EXPECT_TRUE(std::isnan(static_cast<float>(float16_t(NAN))));
}

// The portable conversions give the bits of the ones in use (F16C where the build targets it):
// every half, and every 257th float (all exponents, both signs, NaNs included).
TEST(Float16, PortableConversionsAgree) {
  for (std::uint32_t b = 0; b < 65536; ++b) {
    const auto h = static_cast<std::uint16_t>(b);
    ASSERT_EQ(std::bit_cast<std::uint32_t>(float16_t::soft_to_float(h)),
              std::bit_cast<std::uint32_t>(static_cast<float>(float16_t::from_bits(h))))
        << b;
  }
  for (std::uint64_t x = 0; x < (std::uint64_t{1} << 32); x += 257) {
    const float f = std::bit_cast<float>(static_cast<std::uint32_t>(x));
    ASSERT_EQ(float16_t::soft_from_float(f), float16_t(f).bits) << x;
  }
}

}  // namespace
}  // namespace loom
