// The floating-point group's table (see table.hpp): defines register_floating. Include it in one
// file per library.
#pragma once
#include "complex_ops.hpp"
#include "dtypes.hpp"
#include "floating.hpp"
#include "loom/registry.hpp"

namespace loom::math {

void register_floating(Registrar& reg) {
  using namespace types;
  using loom::def::ufunc;
  ufunc<Cx<IsFinite, CIsFinite>, LOOM_MATH_HALL(LOOM_MATH_PRED1),
        LOOM_MATH_CFLOATS(LOOM_MATH_PRED1)>(reg, "isfinite", "neither inf nor NaN");
  ufunc<Cx<IsInf, CIsInf>, LOOM_MATH_HALL(LOOM_MATH_PRED1), LOOM_MATH_CFLOATS(LOOM_MATH_PRED1)>(
      reg, "isinf", "+inf or -inf");
  ufunc<Cx<IsNan, CIsNan>, LOOM_MATH_HALL(LOOM_MATH_PRED1), LOOM_MATH_CFLOATS(LOOM_MATH_PRED1)>(
      reg, "isnan", "NaN");
  ufunc<Half<Signbit>, LOOM_MATH_HFLOATS(LOOM_MATH_PRED1)>(reg, "signbit", "the sign bit is set");
  ufunc<Half<Copysign>, LOOM_MATH_HFLOATS(LOOM_MATH_BIN)>(reg, "copysign",
                                                          "|x| with the sign of y");
  ufunc<Nextafter, LOOM_MATH_HFLOATS(LOOM_MATH_BIN)>(reg, "nextafter",
                                                     "next value after x toward y");
  ufunc<Spacing, LOOM_MATH_HFLOATS(LOOM_MATH_UN)>(reg, "spacing", "distance to the next value");
  ufunc<Modf, LOOM_MATH_E(outs<f16, f16>(f16)) outs<f32, f32>(f32), outs<f64, f64>(f64)>(
      reg, "modf", "(fractional part, integral part) as np.modf");
  ufunc<Half<Ldexp>, LOOM_MATH_E(f16(f16, i32), f16(f16, i64)) f32(f32, i32), f32(f32, i64),
        f64(f64, i32), f64(f64, i64)>(reg, "ldexp", "x * 2**e");
  ufunc<Frexp, LOOM_MATH_E(outs<f16, i32>(f16)) outs<f32, i32>(f32), outs<f64, i32>(f64)>(
      reg, "frexp", "(mantissa in [0.5, 1), exponent): x = m * 2**e");
  ufunc<Half<Floor>, LOOM_MATH_HALL(LOOM_MATH_UN)>(reg, "floor", "largest integer <= x");
  ufunc<Half<Ceil>, LOOM_MATH_HALL(LOOM_MATH_UN)>(reg, "ceil", "smallest integer >= x");
  ufunc<Half<Trunc>, LOOM_MATH_HALL(LOOM_MATH_UN)>(reg, "trunc", "x rounded toward 0");
}

}  // namespace loom::math
