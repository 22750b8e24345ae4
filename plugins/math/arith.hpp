// The math plugin's arithmetic functors (add ... divmod, sqrt, square): compiled by g++ for the
// host loops (and, where `vectorize` is set, for xsimd::batch<T>) and by nvcc for the CUDA loops.
#pragma once
#include <cmath>
#include <cstdint>
#include <type_traits>

#include "detail.hpp"
#include "loom/float16.hpp"
#include "loom/hd.hpp"
#include "simd_libm.hpp"

namespace loom::math {

#define LOOM_MATH_BINARY(Name, expr)        \
  struct Name {                             \
    static constexpr bool vectorize = true; \
    template <class T>                      \
    LOOM_HD T operator()(T x, T y) const {  \
      return expr;                          \
    }                                       \
  };
LOOM_MATH_BINARY(Add, detail::add(x, y))
LOOM_MATH_BINARY(Subtract, detail::sub(x, y))
LOOM_MATH_BINARY(Multiply, detail::mul(x, y))
LOOM_MATH_BINARY(Divide, x / y)
#undef LOOM_MATH_BINARY

struct Square {
  static constexpr bool vectorize = true;
  template <class T>
  LOOM_HD T operator()(T x) const {
    return detail::mul(x, x);
  }
};

struct Negative {
  static constexpr bool vectorize = true;
  template <class T>
  LOOM_HD T operator()(T x) const {
    if constexpr (std::is_integral_v<T>) {
      return detail::sub(T(0), x);  // -INT_MIN wraps to INT_MIN, as in NumPy
    } else {
      return x * T(-1);  // not -x: xsimd 8.1 negates AVX-512 batches as 0 - x, so -(0.0) == +0.0
    }
  }
};

struct Abs {
  static constexpr bool vectorize = true;
  template <class T>
  LOOM_HD T operator()(T x) const {
    if constexpr (std::is_unsigned_v<T>) {  // bool included
      return x;
    } else if constexpr (std::is_integral_v<T>) {
      return x < 0 ? detail::sub(T(0), x) : x;  // abs(INT_MIN) wraps to INT_MIN, as in NumPy
    } else {
      using std::abs;
      return abs(x);  // clears the sign bit: abs(-0.0) == +0.0, abs(-NaN) == NaN
    }
  }
};

struct Sqrt {
  static constexpr bool vectorize = true;
  template <class T>
  LOOM_HD T operator()(T x) const {
    using std::sqrt;
    return sqrt(x);
  }
};

// np.divmod: floor quotient and a remainder with the sign of the divisor. Integers: x // 0 and
// x % 0 are 0 (NumPy warns; loom does not), INT_MIN // -1 wraps to INT_MIN. Floats: NumPy's
// npy_divmod, step for step.
struct DivMod {
  template <class T>
  LOOM_HD void operator()(T x, T y, T& q, T& r) const {
    if constexpr (std::is_same_v<T, float16_t>) {  // in float, each rounded once (npy_half_divmod)
      float qf, rf;
      (*this)(static_cast<float>(x), static_cast<float>(y), qf, rf);
      q = float16_t(qf);
      r = float16_t(rf);
    } else if constexpr (std::is_integral_v<T>) {
      if (y == 0 || (std::is_signed_v<T> && y == T(-1))) {  // x / -1 traps for INT_MIN
        q = y == 0 ? T(0) : detail::sub(T(0), x);
        r = 0;
        return;
      }
      T d = x / y, m = x % y;
      if constexpr (std::is_signed_v<T>) {
        if (m != 0 && ((m < 0) != (y < 0))) {
          d -= 1;
          m += y;
        }
      }
      q = d;
      r = m;
    } else {
      T m = std::fmod(x, y);
      if (y == 0) {  // fmod gives NaN; x / 0 gives ±inf or NaN
        q = x / y;
        r = m;
        return;
      }
      T d = (x - m) / y;  // very nearly an integer
      if (m != 0) {       // true for NaN, as in NumPy
        if ((y < 0) != (m < 0)) {
          m += y;
          d -= T(1);
        }
      } else {
        m = std::copysign(T(0), y);
      }
      T fd;
      if (d != 0) {
        fd = std::floor(d);
        if (d - fd > T(0.5)) fd += T(1);
      } else {
        fd = std::copysign(T(0), x / y);
      }
      q = fd;
      r = m;
    }
  }
};

// np.floor_divide and np.remainder: DivMod's quotient and remainder alone.
struct FloorDivide {
  template <class T>
  LOOM_HD T operator()(T x, T y) const {
    T q, r;
    DivMod{}(x, y, q, r);
    return q;
  }
};
struct Remainder {
  template <class T>
  LOOM_HD T operator()(T x, T y) const {
    T q, r;
    DivMod{}(x, y, q, r);
    return r;
  }
};

// np.fmod: C's remainder, with the sign of x. Integers: x fmod 0 is 0 (NumPy warns), as is
// INT_MIN fmod -1 (C traps).
struct Fmod {
  template <class T>
  LOOM_HD T operator()(T x, T y) const {
    if constexpr (std::is_integral_v<T>) {
      if (y == 0 || (std::is_signed_v<T> && y == T(-1))) return T(0);
      return static_cast<T>(x % y);
    } else {
      using std::fmod;
      return fmod(x, y);
    }
  }
};

// np.power. Integers: by squaring, wrapping as NumPy's loop does. A negative exponent, which
// NumPy refuses with ValueError for the whole call, gives what truncating 1 / x**-n gives
// (x = 1: 1; x = -1: ±1; otherwise 0, x = 0 included), as a loop cannot raise
// (docs/catalogue.md). Floats: the C library's pow; float batches simd_libm.hpp's (float64 ones
// the C library's lane by lane). Integer loops stay scalar (vectorize covers float loops only).
struct Power {
  static constexpr bool vectorize = true;
  template <class T>
  LOOM_HD T operator()(T x, T y) const {
    if constexpr (detail::is_batch<T>) {
      return detail::simd::pow(x, y);
    } else if constexpr (std::is_integral_v<T>) {
      if constexpr (std::is_signed_v<T>) {
        if (y < 0) {
          if (x == 1) return T(1);
          if (x == -1) return (y & 1) ? T(-1) : T(1);
          return T(0);
        }
      }
      T r = 1, b = x;
      for (auto e = y; e != 0; e /= 2) {  // a signed e here is >= 0
        if (e & 1) r = detail::mul(r, b);
        b = detail::mul(b, b);
      }
      return r;
    } else {
      using std::pow;
      return pow(x, y);
    }
  }
};

struct Positive {
  static constexpr bool vectorize = true;
  template <class T>
  LOOM_HD T operator()(T x) const {
    return x;
  }
};

// Real dtypes only: np.conjugate of a real number is the number.
using Conjugate = Positive;

struct Fabs {
  static constexpr bool vectorize = true;
  template <class T>
  LOOM_HD T operator()(T x) const {
    using std::abs;
    return abs(x);
  }
};

// Round half to even (the default rounding mode), as np.rint.
struct Rint {
  static constexpr bool vectorize = true;
  template <class T>
  LOOM_HD T operator()(T x) const {
    using std::nearbyint;
    return nearbyint(x);
  }
};

// np.sign: -1, 0 or 1 (0 for ±0, +0 as NumPy's); NaN stays NaN.
struct Sign {
  template <class T>
  LOOM_HD T operator()(T x) const {
    if constexpr (std::is_unsigned_v<T>) {
      return static_cast<T>(x > 0);
    } else if constexpr (std::is_integral_v<T>) {
      return static_cast<T>((x > 0) - (x < 0));
    } else {
      return x > 0 ? T(1) : (x < 0 ? T(-1) : (x == 0 ? T(0) : x));
    }
  }
};

// np.heaviside(x, h0): 0 below 0, h0 at ±0, 1 above, NaN for NaN.
struct Heaviside {
  template <class T>
  LOOM_HD T operator()(T x, T h0) const {
    return x < 0 ? T(0) : (x > 0 ? T(1) : (x == 0 ? h0 : x));
  }
};

struct Cbrt {
  static constexpr bool vectorize = true;
  template <class T>
  LOOM_HD T operator()(T x) const {
    if constexpr (detail::is_batch<T>) {
      return detail::simd::cbrt(x);
    } else {
      using std::cbrt;
      return cbrt(x);
    }
  }
};

// np.reciprocal. Integers: 1 / x truncated (1 for 1, -1 for -1, else 0); 1 / 0 is 0 here, where
// NumPy casts the double inf to the integer type (undefined in C; INT_MIN on x86 for int32).
struct Reciprocal {
  template <class T>
  LOOM_HD T operator()(T x) const {
    if constexpr (std::is_integral_v<T>) {
      if constexpr (std::is_signed_v<T>) {
        if (x == -1) return T(-1);
      }
      return static_cast<T>(x == 1);
    } else {
      return T(1) / x;
    }
  }
};

namespace detail {

// |x| as the unsigned type, INT_MIN's magnitude included (NumPy's abs wraps it, and the unsigned
// gcd of the wrapped value is this one's).
template <class T>
LOOM_HD std::make_unsigned_t<T> uabs(T x) {
  using U = std::make_unsigned_t<T>;
  if constexpr (std::is_unsigned_v<T>) {
    return x;  // no `x < 0` to compare (nvcc warns: pointless comparison of unsigned with zero)
  } else {
    return x < 0 ? static_cast<U>(U(0) - static_cast<U>(x)) : static_cast<U>(x);
  }
}
template <class T>
LOOM_HD std::make_unsigned_t<T> ugcd(T x, T y) {
  auto a = uabs(x), b = uabs(y);
  while (b != 0) {
    const auto t = static_cast<decltype(a)>(a % b);
    a = b;
    b = t;
  }
  return a;
}

}  // namespace detail

// np.gcd, np.lcm of integers: non-negative, except that results that do not fit wrap as NumPy's
// do (gcd(INT_MIN, 0) is INT_MIN).
struct Gcd {
  template <class T>
  LOOM_HD T operator()(T x, T y) const {
    return static_cast<T>(detail::ugcd(x, y));
  }
};
struct Lcm {
  template <class T>
  LOOM_HD T operator()(T x, T y) const {
    const auto g = detail::ugcd(x, y);
    if (g == 0) return T(0);
    const auto m =
        static_cast<decltype(g)>(static_cast<decltype(g)>(detail::uabs(x) / g) * detail::uabs(y));
    return static_cast<T>(m);
  }
};

}  // namespace loom::math
