// The unary arithmetic group's table (see table.hpp): defines register_unary. Include it in one
// file per library.
#pragma once
#include "arith.hpp"
#include "complex_ops.hpp"
#include "dtypes.hpp"
#include "loom/registry.hpp"

namespace loom::math {

void register_unary(Registrar& reg) {
  using namespace types;
  using loom::def::ufunc;
  ufunc<Cx<Negative, CNegative>, LOOM_MATH_HREALS(LOOM_MATH_UN), LOOM_MATH_CFLOATS(LOOM_MATH_UN)>(
      reg, "negative", "-x (integers wrap)");
  ufunc<Cx<Positive, CPositive>, LOOM_MATH_HREALS(LOOM_MATH_UN), LOOM_MATH_CFLOATS(LOOM_MATH_UN)>(
      reg, "positive", "+x");
  ufunc<Cx<Abs, CAbs>, LOOM_MATH_HALL(LOOM_MATH_UN), LOOM_MATH_CABS>(reg, "absolute",
                                                                     "|x| (abs(INT_MIN) wraps)");
  ufunc<Cx<Abs, CAbs>, LOOM_MATH_HALL(LOOM_MATH_UN), LOOM_MATH_CABS>(reg, "abs",
                                                                     "|x|, as absolute");
  ufunc<Half<Fabs>, LOOM_MATH_HFLOATS(LOOM_MATH_UN)>(reg, "fabs", "|x| of floats");
  ufunc<Cx<Rint, CRint>, LOOM_MATH_HFLOATS(LOOM_MATH_UN), LOOM_MATH_CFLOATS(LOOM_MATH_UN)>(
      reg, "rint", "x rounded to an integer, ties to even");
  ufunc<Cx<Sign, CSign>, LOOM_MATH_HREALS(LOOM_MATH_UN), LOOM_MATH_CFLOATS(LOOM_MATH_UN)>(
      reg, "sign", "-1, 0 or 1; NaN for NaN");
  ufunc<Cx<Conjugate, CConjugate>, LOOM_MATH_HREALS(LOOM_MATH_UN), LOOM_MATH_CFLOATS(LOOM_MATH_UN)>(
      reg, "conjugate", "complex conjugate (x itself for real dtypes)");
  ufunc<Cx<Square, CSquare>, LOOM_MATH_HREALS(LOOM_MATH_UN), LOOM_MATH_CFLOATS(LOOM_MATH_UN)>(
      reg, "square", "x * x");
  ufunc<Cx<Sqrt, CSqrt>, LOOM_MATH_HFLOATS(LOOM_MATH_UN), LOOM_MATH_CFLOATS(LOOM_MATH_UN)>(
      reg, "sqrt", "square root");
  ufunc<Half<Cbrt>, LOOM_MATH_HFLOATS(LOOM_MATH_UN)>(reg, "cbrt", "cube root");
  ufunc<Cx<Reciprocal, CReciprocal>, LOOM_MATH_HREALS(LOOM_MATH_UN),
        LOOM_MATH_CFLOATS(LOOM_MATH_UN)>(reg, "reciprocal",
                                         "1 / x (integers: truncated, 1 / 0 is 0)");
}

}  // namespace loom::math
