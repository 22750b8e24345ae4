// float16 loops (NumPy's `e` loops) from the float functors: Half<F> converts float16 operands to
// float, calls F and rounds a float result back to float16 once, as NumPy's float16 loops do
// (npy_half_to_float, the float computation, npy_float_to_half). Since float has more than
// 2 * 11 + 2 significand bits, + - * / and sqrt rounded twice this way are still correctly rounded;
// a function within e ulp in float is within 0.5 + e / 8192 ulp in float16. Bool and integer
// results (comparisons, isnan ...) pass through. For every other operand type Half<F> is F itself
// (the same call, the same `vectorize`), so one table line serves every dtype.
#pragma once
#include <type_traits>

#include "loom/float16.hpp"
#include "loom/hd.hpp"

namespace loom::math {

namespace detail {

template <class T>
LOOM_HD auto widen(T x) {
  if constexpr (std::is_same_v<T, float16_t>) {
    return static_cast<float>(x);
  } else {
    return x;
  }
}

template <class R>
LOOM_HD auto narrow(R r) {
  if constexpr (std::is_same_v<R, float>) {
    return float16_t(r);
  } else {
    return r;
  }
}

}  // namespace detail

template <class F>
struct Half : F {
  template <class... T>
  LOOM_HD auto operator()(T... x) const {
    if constexpr ((std::is_same_v<T, float16_t> || ...)) {
      return detail::narrow(F::operator()(detail::widen(x)...));
    } else {
      return F::operator()(x...);
    }
  }
};

// Half<F> whose reductions fold in float and round to float16 once per fold (def::fold_t), as
// NumPy's float16 add, subtract, multiply and divide reduce loops accumulate in float: for those
// ops and sum/prod. Elementwise calls, accumulate and at still round every step, as NumPy's.
template <class F>
struct HalfFold : Half<F> {
  template <class T>
  using fold_type = std::conditional_t<std::is_same_v<T, float16_t>, float, T>;
};

}  // namespace loom::math
