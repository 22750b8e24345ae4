// The math plugin's comparison and logical functors (greater ... not_equal, logical_*, maximum,
// minimum, fmax, fmin): comparisons and logical ops give bool from any input dtype.
#pragma once
#include <cmath>
#include <cstdint>
#include <type_traits>

#include "detail.hpp"
#include "loom/hd.hpp"

namespace loom::math {

namespace detail {

// One signed and one unsigned integer: NumPy's qQ and Qq loops (int64 against uint64).
template <class X, class Y>
inline constexpr bool mixed_sign =
    std::is_integral_v<X>&& std::is_integral_v<Y>&& std::is_signed_v<X> != std::is_signed_v<Y>;

// x < y and x == y, exact for mixed signs, where the usual conversions would turn a negative
// int64 into a large uint64; otherwise the type's own operators (NaN compares false).
template <class X, class Y>
LOOM_HD bool less(X x, Y y) {
  if constexpr (mixed_sign<X, Y> && std::is_signed_v<X>) {
    return x < 0 || static_cast<std::make_unsigned_t<X>>(x) < y;
  } else if constexpr (mixed_sign<X, Y>) {
    return y >= 0 && x < static_cast<std::make_unsigned_t<Y>>(y);
  } else {
    return x < y;
  }
}
template <class X, class Y>
LOOM_HD bool equal(X x, Y y) {
  if constexpr (mixed_sign<X, Y>) {
    return !less(x, y) && !less(y, x);
  } else {
    return x == y;
  }
}
template <class X, class Y>
LOOM_HD bool less_equal(X x, Y y) {
  if constexpr (mixed_sign<X, Y>) {
    return !less(y, x);
  } else {
    return x <= y;
  }
}

}  // namespace detail

struct Greater {
  template <class X, class Y>
  LOOM_HD bool operator()(X x, Y y) const {
    return detail::less(y, x);
  }
};
struct GreaterEqual {
  template <class X, class Y>
  LOOM_HD bool operator()(X x, Y y) const {
    return detail::less_equal(y, x);
  }
};
struct Less {
  template <class X, class Y>
  LOOM_HD bool operator()(X x, Y y) const {
    return detail::less(x, y);
  }
};
struct LessEqual {
  template <class X, class Y>
  LOOM_HD bool operator()(X x, Y y) const {
    return detail::less_equal(x, y);
  }
};
struct Equal {
  template <class X, class Y>
  LOOM_HD bool operator()(X x, Y y) const {
    return detail::equal(x, y);
  }
};
struct NotEqual {
  template <class X, class Y>
  LOOM_HD bool operator()(X x, Y y) const {
    return !detail::equal(x, y);
  }
};

// Truth as NumPy's: nonzero, NaN included.
struct LogicalAnd {
  template <class T>
  LOOM_HD bool operator()(T x, T y) const {
    return x != T(0) && y != T(0);
  }
};
struct LogicalOr {
  template <class T>
  LOOM_HD bool operator()(T x, T y) const {
    return x != T(0) || y != T(0);
  }
};
struct LogicalXor {
  template <class T>
  LOOM_HD bool operator()(T x, T y) const {
    return (x != T(0)) != (y != T(0));
  }
};
struct LogicalNot {
  template <class T>
  LOOM_HD bool operator()(T x) const {
    return x == T(0);
  }
};

// NaN-propagating, as np.maximum: x if x > y or x is NaN, else y (NaN when y is). Equal values
// give y, as NumPy's own SIMD loops do: maximum(-0.0, 0.0) is 0.0, maximum(0.0, -0.0) is -0.0.
struct Maximum {
  static constexpr bool vectorize = true;
  template <class T>
  LOOM_HD T operator()(T x, T y) const {
    using detail::select;
    return select((x > y) | detail::is_nan(x), x, y);
  }
};
struct Minimum {
  static constexpr bool vectorize = true;
  template <class T>
  LOOM_HD T operator()(T x, T y) const {
    using detail::select;
    return select((x < y) | detail::is_nan(x), x, y);
  }
};

// NaN-ignoring, as np.fmax / np.fmin (C's fmax): y only where it is larger (smaller) or x is NaN;
// equal values give x, as NumPy's loops: fmax(-0.0, 0.0) is -0.0.
struct Fmax {
  static constexpr bool vectorize = true;
  template <class T>
  LOOM_HD T operator()(T x, T y) const {
    using detail::select;
    return select((x >= y) | detail::is_nan(y), x, y);
  }
};
struct Fmin {
  static constexpr bool vectorize = true;
  template <class T>
  LOOM_HD T operator()(T x, T y) const {
    using detail::select;
    return select((x <= y) | detail::is_nan(y), x, y);
  }
};

}  // namespace loom::math
