// The math plugin's floating-point functors (isfinite ... trunc). The classification ops give
// bool from any dtype (an integer is finite, never inf or NaN); floor, ceil and trunc of bool and
// integers are the value itself, as NumPy 2's loops.
#pragma once
#include <cmath>
#include <cstdint>
#include <type_traits>

#include "detail.hpp"
#include "half_bits.hpp"
#include "loom/float16.hpp"
#include "loom/hd.hpp"

namespace loom::math {

// np.modf: (fractional part, integral part), both with the sign of x; modf(±inf) = (±0, ±inf).
struct Modf {
  template <class T>
  LOOM_HD void operator()(T x, T& frac, T& whole) const {
    if constexpr (std::is_same_v<T, float16_t>) {  // in float, both exact in float16 (HALF_modf)
      float f, w;
      (*this)(static_cast<float>(x), f, w);
      frac = float16_t(f);
      whole = float16_t(w);
    } else {
      frac = std::modf(x, &whole);
    }
  }
};

struct IsFinite {
  template <class T>
  LOOM_HD bool operator()(T x) const {
    if constexpr (std::is_integral_v<T>) {
      return true;
    } else {
      using std::isfinite;
      return isfinite(x);
    }
  }
};
struct IsInf {
  template <class T>
  LOOM_HD bool operator()(T x) const {
    if constexpr (std::is_integral_v<T>) {
      return false;
    } else {
      using std::isinf;
      return isinf(x);
    }
  }
};
struct IsNan {
  template <class T>
  LOOM_HD bool operator()(T x) const {
    if constexpr (std::is_integral_v<T>) {
      return false;
    } else {
      using std::isnan;
      return isnan(x);
    }
  }
};
struct Signbit {
  template <class T>
  LOOM_HD bool operator()(T x) const {
    using std::signbit;
    return signbit(x);
  }
};

struct Copysign {
  static constexpr bool vectorize = true;
  template <class T>
  LOOM_HD T operator()(T x, T y) const {
    using std::copysign;
    return copysign(x, y);
  }
};
struct Nextafter {
  template <class T>
  LOOM_HD T operator()(T x, T y) const {
    if constexpr (std::is_same_v<T, float16_t>) {
      return detail::half_nextafter(x, y);  // float16's own neighbours, NumPy's rules
    } else {
      using std::nextafter;
      return nextafter(x, y);
    }
  }
};

// np.spacing: the distance from x to the next value away from zero (from -0.0 too: +tiniest, as
// NumPy); NaN for ±inf and NaN; inf for the largest finite value.
struct Spacing {
  template <class T>
  LOOM_HD T operator()(T x) const {
    if constexpr (std::is_same_v<T, float16_t>) {
      return detail::half_spacing(x);  // NumPy's float16 rules (half_bits.hpp)
    } else {
      using std::isinf;
      using std::isnan;
      using std::nextafter;
      const T inf = static_cast<T>(HUGE_VAL);
      if (isnan(x) || isinf(x)) return x - x;  // NaN
      return nextafter(x, x < 0 ? -inf : inf) - x;
    }
  }
};

// x * 2^e. An int64 exponent outside int's range is clamped to it, as NumPy's fl / dl loops do
// (the result is 0 or inf either way).
struct Ldexp {
  template <class T, class I>
  LOOM_HD T operator()(T x, I e) const {
    using std::ldexp;
    if constexpr (sizeof(I) > sizeof(int)) {
      constexpr I lo = -2147483647 - 1, hi = 2147483647;
      e = e < lo ? lo : (e > hi ? hi : e);
    }
    return ldexp(x, static_cast<int>(e));
  }
};

// np.frexp: (mantissa in [0.5, 1), exponent as int32); (x, 0) for ±0, ±inf and NaN.
struct Frexp {
  template <class T>
  LOOM_HD void operator()(T x, T& m, std::int32_t& e) const {
    if constexpr (std::is_same_v<T, float16_t>) {  // in float, exact in float16 (HALF_frexp)
      float mf;
      (*this)(static_cast<float>(x), mf, e);
      m = float16_t(mf);
    } else {
      using std::frexp;
      using std::isfinite;
      int k = 0;
      m = frexp(x, &k);
      e = isfinite(x) ? k : 0;
    }
  }
};

#define LOOM_MATH_ROUNDING(Name, fn)         \
  struct Name {                              \
    static constexpr bool vectorize = true;  \
    template <class T>                       \
    LOOM_HD T operator()(T x) const {        \
      if constexpr (std::is_integral_v<T>) { \
        return x;                            \
      } else {                               \
        using std::fn;                       \
        return fn(x);                        \
      }                                      \
    }                                        \
  };
LOOM_MATH_ROUNDING(Floor, floor)
LOOM_MATH_ROUNDING(Ceil, ceil)
LOOM_MATH_ROUNDING(Trunc, trunc)
#undef LOOM_MATH_ROUNDING

}  // namespace loom::math
