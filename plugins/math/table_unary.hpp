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
  ufunc<Negative, LOOM_MATH_REALS(LOOM_MATH_UN)>(reg, "negative", "-x (integers wrap)");
  ufunc<Positive, LOOM_MATH_REALS(LOOM_MATH_UN)>(reg, "positive", "+x");
  ufunc<Abs, LOOM_MATH_ALL(LOOM_MATH_UN)>(reg, "absolute", "|x| (abs(INT_MIN) wraps)");
  ufunc<Abs, LOOM_MATH_ALL(LOOM_MATH_UN)>(reg, "abs", "|x|, as absolute");
  ufunc<Fabs, LOOM_MATH_FLOATS(LOOM_MATH_UN)>(reg, "fabs", "|x| of floats");
  ufunc<Rint, LOOM_MATH_FLOATS(LOOM_MATH_UN)>(reg, "rint", "x rounded to an integer, ties to even");
  ufunc<Sign, LOOM_MATH_REALS(LOOM_MATH_UN)>(reg, "sign", "-1, 0 or 1; NaN for NaN");
  ufunc<Conjugate, LOOM_MATH_REALS(LOOM_MATH_UN)>(reg, "conjugate", "x (real dtypes)");
  ufunc<Square, LOOM_MATH_REALS(LOOM_MATH_UN)>(reg, "square", "x * x");
  ufunc<Sqrt, LOOM_MATH_FLOATS(LOOM_MATH_UN)>(reg, "sqrt", "square root");
  ufunc<Cbrt, LOOM_MATH_FLOATS(LOOM_MATH_UN)>(reg, "cbrt", "cube root");
  ufunc<Reciprocal, LOOM_MATH_REALS(LOOM_MATH_UN)>(reg, "reciprocal",
                                                   "1 / x (integers: truncated, 1 / 0 is 0)");
}

}  // namespace loom::math
