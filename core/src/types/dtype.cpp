// The dtype table (names, sizes, kinds), NumPy's casting rules and promotion, and the strided
// cast loops, one instantiation per (from, to) pair so no dtype switch runs per element.
#include "loom/dtype.hpp"

#include <array>
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>

#include "loom/error.hpp"

namespace loom {

namespace {

struct DTypeInfo {
  std::string_view name;
  std::size_t size;
  Kind kind;
};

// Indexed by the enum value. "bool" is NumPy's (and Numba's) printed name for the bool dtype.
constexpr std::array<DTypeInfo, kNumDTypes> kInfo{{
    {"bool", 1, Kind::boolean},
    {"int8", 1, Kind::signed_int},
    {"uint8", 1, Kind::unsigned_int},
    {"int16", 2, Kind::signed_int},
    {"uint16", 2, Kind::unsigned_int},
    {"int32", 4, Kind::signed_int},
    {"uint32", 4, Kind::unsigned_int},
    {"int64", 8, Kind::signed_int},
    {"uint64", 8, Kind::unsigned_int},
    {"float16", 2, Kind::floating},
    {"float32", 4, Kind::floating},
    {"float64", 8, Kind::floating},
    {"complex64", 8, Kind::complex},
    {"complex128", 16, Kind::complex},
}};

constexpr std::array<std::string_view, 5> kCastingNames{"no", "equiv", "safe", "same_kind",
                                                        "unsafe"};

const DTypeInfo& info(DType t) { return kInfo[static_cast<std::size_t>(t)]; }

// NumPy's same_kind order: a cast is same_kind when it does not move to an earlier kind here
// (np.can_cast('u8', 'i1', 'same_kind') is True, ('i1', 'u1') and ('f8', 'i8') are False).
int same_kind_rank(Kind k) {
  switch (k) {
    case Kind::boolean:
      return 0;
    case Kind::unsigned_int:
      return 1;
    case Kind::signed_int:
      return 2;
    case Kind::floating:
      return 3;
    case Kind::complex:
      return 4;
  }
  return 0;
}

bool is_int(Kind k) { return k == Kind::signed_int || k == Kind::unsigned_int; }

// np.can_cast(from, to, 'safe'): every value of `from` is exactly representable in `to`.
bool can_cast_safe(DType from, DType to) {
  if (from == to) return true;
  const Kind kf = kind(from), kt = kind(to);
  const std::size_t sf = itemsize(from);
  // For complex targets what counts is the size of one component.
  const std::size_t st = kt == Kind::complex ? itemsize(to) / 2 : itemsize(to);
  if (kf == Kind::boolean) return true;
  if (kt == Kind::boolean) return false;
  if (is_int(kf)) {
    if (kt == Kind::unsigned_int) return kf == Kind::unsigned_int && st >= sf;
    if (kt == Kind::signed_int) return kf == Kind::signed_int ? st >= sf : st > sf;
    // Floats hold ints of fewer bytes (f16: 11-bit significand, f32: 24); NumPy deems
    // float64 safe for every integer, int64 and uint64 included.
    return st > sf || st == 8;
  }
  if (kf == Kind::floating) {
    return (kt == Kind::floating || kt == Kind::complex) && st >= sf;
  }
  return kt == Kind::complex && itemsize(to) >= itemsize(from);  // complex -> complex
}

std::string valid_list(const auto& names) {
  std::string out;
  for (std::string_view n : names) {
    if (!out.empty()) out += ", ";
    out += n;
  }
  return out;
}

// ---- element conversion (NumPy's astype with casting='unsafe') ----

template <class T>
inline constexpr bool is_complex_v = false;
template <class T>
inline constexpr bool is_complex_v<std::complex<T>> = true;

// Floating -> integer. C++ leaves out-of-range conversion undefined and NumPy leaves it to the
// platform, so loom defines it: NaN -> 0; otherwise truncate toward zero, saturate to the 64-bit
// range (int64, or uint64 for a non-negative value into an unsigned type), then wrap modulo
// 2^bits like any C++ integer conversion. This equals NumPy on x86 wherever NumPy's result is
// not the CPU's "indefinite" value (narrow targets: |value| < 2^31; 64-bit ones: in range), so
// -1.0 -> uint8 is 255 and 300.0 -> uint8 is 44 as in NumPy.
template <class To>
To float_to_int(double v) {
  if (std::isnan(v)) return To{0};
  v = std::trunc(v);
  constexpr double kTwo63 = 9223372036854775808.0;  // 2^63
  if (std::is_signed_v<To> || v < 0) {
    std::int64_t i = v >= kTwo63   ? std::numeric_limits<std::int64_t>::max()
                     : v < -kTwo63 ? std::numeric_limits<std::int64_t>::min()
                                   : static_cast<std::int64_t>(v);
    return static_cast<To>(i);
  }
  const std::uint64_t u =
      v >= 2 * kTwo63 ? std::numeric_limits<std::uint64_t>::max() : static_cast<std::uint64_t>(v);
  return static_cast<To>(u);
}

template <class To, class From>
To convert(From x) {
  if constexpr (std::is_same_v<To, From>) {
    return x;
  } else if constexpr (is_complex_v<From>) {
    if constexpr (std::is_same_v<To, bool>) {
      return x.real() != 0 || x.imag() != 0;
    } else if constexpr (is_complex_v<To>) {
      using V = typename To::value_type;
      return To(static_cast<V>(x.real()), static_cast<V>(x.imag()));
    } else {
      return convert<To>(x.real());  // drops the imaginary part, as NumPy does
    }
  } else if constexpr (std::is_same_v<From, float16_t>) {
    return convert<To>(static_cast<float>(x));  // exact
  } else if constexpr (std::is_same_v<To, bool>) {
    return x != 0;  // NaN -> true, as in NumPy
  } else if constexpr (is_complex_v<To>) {
    return To(convert<typename To::value_type>(x), 0);
  } else if constexpr (std::is_same_v<To, float16_t>) {
    // Integers up to 2^53 are exact in double, larger ones overflow binary16 anyway; float
    // sources are exact in double: one rounding either way.
    return float16_t::from_double(static_cast<double>(x));
  } else if constexpr (std::is_floating_point_v<To>) {
    return static_cast<To>(x);  // IEEE: rounds to nearest, overflows to inf
  } else if constexpr (std::is_floating_point_v<From>) {
    return float_to_int<To>(static_cast<double>(x));
  } else {
    return static_cast<To>(x);  // integer/bool -> integer: modulo 2^bits (C++20)
  }
}

// Loads and stores go through memcpy: buffers may be unaligned. A bool is read as a byte so
// that a byte other than 0/1 means true instead of undefined behaviour.
template <class T>
T load(const char* p) {
  if constexpr (std::is_same_v<T, bool>) {
    std::uint8_t b;
    std::memcpy(&b, p, 1);
    return b != 0;
  } else {
    T v;
    std::memcpy(&v, p, sizeof(T));
    return v;
  }
}

template <class From, class To>
void cast_loop(const char* src, std::int64_t ss, char* dst, std::int64_t ds, std::int64_t n) {
  for (std::int64_t i = 0; i < n; ++i, src += ss, dst += ds) {
    if constexpr (std::is_same_v<From, To> && !std::is_same_v<From, bool>) {
      std::memcpy(dst, src, sizeof(From));
    } else {
      const To y = convert<To>(load<From>(src));
      if constexpr (std::is_same_v<To, bool>) {
        const std::uint8_t b = y ? 1 : 0;
        std::memcpy(dst, &b, 1);
      } else {
        std::memcpy(dst, &y, sizeof(To));
      }
    }
  }
}

}  // namespace

std::size_t itemsize(DType t) { return info(t).size; }
Kind kind(DType t) { return info(t).kind; }
std::string_view name(DType t) { return info(t).name; }

DType dtype_from_name(std::string_view s) {
  for (int i = 0; i < kNumDTypes; ++i) {
    if (kInfo[i].name == s) return static_cast<DType>(i);
  }
  if (s == "bool_") return DType::bool_;  // the C++ enumerator's (and NumPy scalar's) spelling
  std::array<std::string_view, kNumDTypes> names;
  for (int i = 0; i < kNumDTypes; ++i) names[i] = kInfo[i].name;
  throw ParseError("unknown dtype '" + std::string(s) +
                   "'; valid dtypes are: " + valid_list(names));
}

std::string_view name(Casting c) { return kCastingNames[static_cast<std::size_t>(c)]; }

Casting casting_from_name(std::string_view s) {
  for (std::size_t i = 0; i < kCastingNames.size(); ++i) {
    if (kCastingNames[i] == s) return static_cast<Casting>(i);
  }
  throw ParseError("unknown casting '" + std::string(s) +
                   "'; valid castings are: " + valid_list(kCastingNames));
}

bool can_cast(DType from, DType to, Casting casting) {
  switch (casting) {
    case Casting::no:
    case Casting::equiv:  // loom's dtypes have no byte order, so equiv is the same as no
      return from == to;
    case Casting::safe:
      return can_cast_safe(from, to);
    case Casting::same_kind:
      return can_cast_safe(from, to) || same_kind_rank(kind(from)) <= same_kind_rank(kind(to));
    case Casting::unsafe:
      return true;
  }
  return false;
}

DType promote(DType a, DType b) {
  for (int i = 0; i < kNumDTypes; ++i) {
    const auto t = static_cast<DType>(i);
    if (can_cast_safe(a, t) && can_cast_safe(b, t)) return t;
  }
  return DType::complex128;  // unreachable: everything casts safely to complex128
}

void cast_strided(const char* src, std::int64_t src_stride, DType from, char* dst,
                  std::int64_t dst_stride, DType to, std::int64_t n) {
  visit_dtype(from, [&](auto f) {
    visit_dtype(to, [&](auto t) {
      cast_loop<decltype(f), decltype(t)>(src, src_stride, dst, dst_stride, n);
    });
  });
}

}  // namespace loom
