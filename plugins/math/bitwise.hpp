// The math plugin's bitwise functors (bitwise_and ... right_shift), for bool and integer dtypes.
#pragma once
#include <cstdint>
#include <type_traits>

#include "detail.hpp"
#include "loom/hd.hpp"

namespace loom::math {

// bool: and, or, xor, not (NumPy's ?? loops).
struct BitwiseAnd {
  template <class T>
  LOOM_HD T operator()(T x, T y) const {
    return static_cast<T>(x & y);
  }
};
struct BitwiseOr {
  template <class T>
  LOOM_HD T operator()(T x, T y) const {
    return static_cast<T>(x | y);
  }
};
struct BitwiseXor {
  template <class T>
  LOOM_HD T operator()(T x, T y) const {
    return static_cast<T>(x ^ y);
  }
};
struct Invert {
  template <class T>
  LOOM_HD T operator()(T x) const {
    if constexpr (std::is_same_v<T, bool>) {
      return !x;
    } else {
      return static_cast<T>(~x);
    }
  }
};

// Shifts by the dtype's width or more, or by a negative count, give 0 (a right shift of a
// negative value -1), as NumPy's npy_lshift / npy_rshift; C leaves them undefined.
struct LeftShift {
  template <class T>
  LOOM_HD T operator()(T x, T n) const {
    using U = std::make_unsigned_t<T>;
    if (static_cast<std::uint64_t>(n) >= sizeof(T) * 8) return T(0);
    return static_cast<T>(static_cast<U>(static_cast<U>(x) << n));
  }
};
struct RightShift {
  template <class T>
  LOOM_HD T operator()(T x, T n) const {
    if (static_cast<std::uint64_t>(n) >= sizeof(T) * 8) {
      if constexpr (std::is_signed_v<T>) {
        if (x < 0) return T(-1);
      }
      return T(0);
    }
    return static_cast<T>(x >> n);
  }
};

}  // namespace loom::math
