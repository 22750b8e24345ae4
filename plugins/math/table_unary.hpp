// The unary arithmetic group's table (see table.hpp): defines register_unary. Include it in one
// file per library.
#pragma once
#include "arith.hpp"
#include "dtypes.hpp"
#include "loom/registry.hpp"

namespace loom::math {

void register_unary(Registrar& reg) {
  using namespace types;
  using loom::def::ufunc;
  ufunc<Half<Negative>, LOOM_MATH_HREALS(LOOM_MATH_UN)>(reg, "negative", "-x (integers wrap)");
  ufunc<Half<Positive>, LOOM_MATH_HREALS(LOOM_MATH_UN)>(reg, "positive", "+x");
  ufunc<Half<Abs>, LOOM_MATH_HALL(LOOM_MATH_UN)>(reg, "absolute", "|x| (abs(INT_MIN) wraps)");
  ufunc<Half<Abs>, LOOM_MATH_HALL(LOOM_MATH_UN)>(reg, "abs", "|x|, as absolute");
  ufunc<Half<Fabs>, LOOM_MATH_HFLOATS(LOOM_MATH_UN)>(reg, "fabs", "|x| of floats");
  ufunc<Half<Rint>, LOOM_MATH_HFLOATS(LOOM_MATH_UN)>(reg, "rint",
                                                     "x rounded to an integer, ties to even");
  ufunc<Half<Sign>, LOOM_MATH_HREALS(LOOM_MATH_UN)>(reg, "sign", "-1, 0 or 1; NaN for NaN");
  ufunc<Half<Conjugate>, LOOM_MATH_HREALS(LOOM_MATH_UN)>(reg, "conjugate", "x (real dtypes)");
  ufunc<Half<Square>, LOOM_MATH_HREALS(LOOM_MATH_UN)>(reg, "square", "x * x");
  ufunc<Half<Sqrt>, LOOM_MATH_HFLOATS(LOOM_MATH_UN)>(reg, "sqrt", "square root");
  ufunc<Half<Cbrt>, LOOM_MATH_HFLOATS(LOOM_MATH_UN)>(reg, "cbrt", "cube root");
  ufunc<Half<Reciprocal>, LOOM_MATH_HREALS(LOOM_MATH_UN)>(
      reg, "reciprocal", "1 / x (integers: truncated, 1 / 0 is 0)");
}

}  // namespace loom::math
