// The trigonometric and hyperbolic group's table (see table.hpp): defines register_trig.
// Include it in one file per library.
#pragma once
#include "dtypes.hpp"
#include "loom/registry.hpp"
#include "trigonometric.hpp"

namespace loom::math {

void register_trig(Registrar& reg) {
  using namespace types;
  using loom::def::ufunc;
  ufunc<Sin, LOOM_MATH_FLOATS(LOOM_MATH_UN)>(reg, "sin", "sine (radians)");
  ufunc<Cos, LOOM_MATH_FLOATS(LOOM_MATH_UN)>(reg, "cos", "cosine (radians)");
  ufunc<Tan, LOOM_MATH_FLOATS(LOOM_MATH_UN)>(reg, "tan", "tangent (radians)");
  ufunc<Arcsin, LOOM_MATH_FLOATS(LOOM_MATH_UN)>(reg, "arcsin", "inverse sine");
  ufunc<Arccos, LOOM_MATH_FLOATS(LOOM_MATH_UN)>(reg, "arccos", "inverse cosine");
  ufunc<Arctan, LOOM_MATH_FLOATS(LOOM_MATH_UN)>(reg, "arctan", "inverse tangent");
  ufunc<Arctan2, LOOM_MATH_FLOATS(LOOM_MATH_BIN)>(reg, "arctan2", "angle of the point (x2, x1)");
  ufunc<Hypot, LOOM_MATH_FLOATS(LOOM_MATH_BIN)>(reg, "hypot", "sqrt(x*x + y*y) without overflow",
                                                loom::def::identity(0));
  ufunc<Sinh, LOOM_MATH_FLOATS(LOOM_MATH_UN)>(reg, "sinh", "hyperbolic sine");
  ufunc<Cosh, LOOM_MATH_FLOATS(LOOM_MATH_UN)>(reg, "cosh", "hyperbolic cosine");
  ufunc<Tanh, LOOM_MATH_FLOATS(LOOM_MATH_UN)>(reg, "tanh", "hyperbolic tangent");
  ufunc<Arcsinh, LOOM_MATH_FLOATS(LOOM_MATH_UN)>(reg, "arcsinh", "inverse hyperbolic sine");
  ufunc<Arccosh, LOOM_MATH_FLOATS(LOOM_MATH_UN)>(reg, "arccosh", "inverse hyperbolic cosine");
  ufunc<Arctanh, LOOM_MATH_FLOATS(LOOM_MATH_UN)>(reg, "arctanh", "inverse hyperbolic tangent");
  ufunc<Deg2rad, LOOM_MATH_FLOATS(LOOM_MATH_UN)>(reg, "deg2rad", "degrees to radians");
  ufunc<Deg2rad, LOOM_MATH_FLOATS(LOOM_MATH_UN)>(reg, "radians", "degrees to radians");
  ufunc<Rad2deg, LOOM_MATH_FLOATS(LOOM_MATH_UN)>(reg, "rad2deg", "radians to degrees");
  ufunc<Rad2deg, LOOM_MATH_FLOATS(LOOM_MATH_UN)>(reg, "degrees", "radians to degrees");
}

}  // namespace loom::math
