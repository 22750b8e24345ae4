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
  ufunc<Half<Sin>, LOOM_MATH_HFLOATS(LOOM_MATH_UN)>(reg, "sin", "sine (radians)");
  ufunc<Half<Cos>, LOOM_MATH_HFLOATS(LOOM_MATH_UN)>(reg, "cos", "cosine (radians)");
  ufunc<Half<Tan>, LOOM_MATH_HFLOATS(LOOM_MATH_UN)>(reg, "tan", "tangent (radians)");
  ufunc<Half<Arcsin>, LOOM_MATH_HFLOATS(LOOM_MATH_UN)>(reg, "arcsin", "inverse sine");
  ufunc<Half<Arccos>, LOOM_MATH_HFLOATS(LOOM_MATH_UN)>(reg, "arccos", "inverse cosine");
  ufunc<Half<Arctan>, LOOM_MATH_HFLOATS(LOOM_MATH_UN)>(reg, "arctan", "inverse tangent");
  ufunc<Half<Arctan2>, LOOM_MATH_HFLOATS(LOOM_MATH_BIN)>(reg, "arctan2",
                                                         "angle of the point (x2, x1)");
  ufunc<Half<Hypot>, LOOM_MATH_HFLOATS(LOOM_MATH_BIN)>(
      reg, "hypot", "sqrt(x*x + y*y) without overflow", loom::def::identity(0));
  ufunc<Half<Sinh>, LOOM_MATH_HFLOATS(LOOM_MATH_UN)>(reg, "sinh", "hyperbolic sine");
  ufunc<Half<Cosh>, LOOM_MATH_HFLOATS(LOOM_MATH_UN)>(reg, "cosh", "hyperbolic cosine");
  ufunc<Half<Tanh>, LOOM_MATH_HFLOATS(LOOM_MATH_UN)>(reg, "tanh", "hyperbolic tangent");
  ufunc<Half<Arcsinh>, LOOM_MATH_HFLOATS(LOOM_MATH_UN)>(reg, "arcsinh", "inverse hyperbolic sine");
  ufunc<Half<Arccosh>, LOOM_MATH_HFLOATS(LOOM_MATH_UN)>(reg, "arccosh",
                                                        "inverse hyperbolic cosine");
  ufunc<Half<Arctanh>, LOOM_MATH_HFLOATS(LOOM_MATH_UN)>(reg, "arctanh",
                                                        "inverse hyperbolic tangent");
  ufunc<Half<Deg2rad>, LOOM_MATH_HFLOATS(LOOM_MATH_UN)>(reg, "deg2rad", "degrees to radians");
  ufunc<Half<Deg2rad>, LOOM_MATH_HFLOATS(LOOM_MATH_UN)>(reg, "radians", "degrees to radians");
  ufunc<Half<Rad2deg>, LOOM_MATH_HFLOATS(LOOM_MATH_UN)>(reg, "rad2deg", "radians to degrees");
  ufunc<Half<Rad2deg>, LOOM_MATH_HFLOATS(LOOM_MATH_UN)>(reg, "degrees", "radians to degrees");
}

}  // namespace loom::math
