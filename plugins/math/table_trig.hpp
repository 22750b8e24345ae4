// The trigonometric and hyperbolic group's table (see table.hpp): defines register_trig.
// Include it in one file per library.
#pragma once
#include "complex_ops.hpp"
#include "dtypes.hpp"
#include "loom/registry.hpp"
#include "trigonometric.hpp"

namespace loom::math {

void register_trig(Registrar& reg) {
  using namespace types;
  using loom::def::ufunc;
  ufunc<Cx<Sin, CSin>, LOOM_MATH_HFLOATS(LOOM_MATH_UN), LOOM_MATH_CFLOATS(LOOM_MATH_UN)>(
      reg, "sin", "sine (radians)");
  ufunc<Cx<Cos, CCos>, LOOM_MATH_HFLOATS(LOOM_MATH_UN), LOOM_MATH_CFLOATS(LOOM_MATH_UN)>(
      reg, "cos", "cosine (radians)");
  ufunc<Cx<Tan, CTan>, LOOM_MATH_HFLOATS(LOOM_MATH_UN), LOOM_MATH_CFLOATS(LOOM_MATH_UN)>(
      reg, "tan", "tangent (radians)");
  ufunc<Cx<Arcsin, CArcsin>, LOOM_MATH_HFLOATS(LOOM_MATH_UN), LOOM_MATH_CFLOATS(LOOM_MATH_UN)>(
      reg, "arcsin", "inverse sine");
  ufunc<Cx<Arccos, CArccos>, LOOM_MATH_HFLOATS(LOOM_MATH_UN), LOOM_MATH_CFLOATS(LOOM_MATH_UN)>(
      reg, "arccos", "inverse cosine");
  ufunc<Cx<Arctan, CArctan>, LOOM_MATH_HFLOATS(LOOM_MATH_UN), LOOM_MATH_CFLOATS(LOOM_MATH_UN)>(
      reg, "arctan", "inverse tangent");
  ufunc<Half<Arctan2>, LOOM_MATH_HFLOATS(LOOM_MATH_BIN)>(reg, "arctan2",
                                                         "angle of the point (x2, x1)");
  ufunc<Half<Hypot>, LOOM_MATH_HFLOATS(LOOM_MATH_BIN)>(
      reg, "hypot", "sqrt(x*x + y*y) without overflow", loom::def::identity(0));
  ufunc<Cx<Sinh, CSinh>, LOOM_MATH_HFLOATS(LOOM_MATH_UN), LOOM_MATH_CFLOATS(LOOM_MATH_UN)>(
      reg, "sinh", "hyperbolic sine");
  ufunc<Cx<Cosh, CCosh>, LOOM_MATH_HFLOATS(LOOM_MATH_UN), LOOM_MATH_CFLOATS(LOOM_MATH_UN)>(
      reg, "cosh", "hyperbolic cosine");
  ufunc<Cx<Tanh, CTanh>, LOOM_MATH_HFLOATS(LOOM_MATH_UN), LOOM_MATH_CFLOATS(LOOM_MATH_UN)>(
      reg, "tanh", "hyperbolic tangent");
  ufunc<Cx<Arcsinh, CArcsinh>, LOOM_MATH_HFLOATS(LOOM_MATH_UN), LOOM_MATH_CFLOATS(LOOM_MATH_UN)>(
      reg, "arcsinh", "inverse hyperbolic sine");
  ufunc<Cx<Arccosh, CArccosh>, LOOM_MATH_HFLOATS(LOOM_MATH_UN), LOOM_MATH_CFLOATS(LOOM_MATH_UN)>(
      reg, "arccosh", "inverse hyperbolic cosine");
  ufunc<Cx<Arctanh, CArctanh>, LOOM_MATH_HFLOATS(LOOM_MATH_UN), LOOM_MATH_CFLOATS(LOOM_MATH_UN)>(
      reg, "arctanh", "inverse hyperbolic tangent");
  ufunc<Half<Deg2rad>, LOOM_MATH_HFLOATS(LOOM_MATH_UN)>(reg, "deg2rad", "degrees to radians");
  ufunc<Half<Deg2rad>, LOOM_MATH_HFLOATS(LOOM_MATH_UN)>(reg, "radians", "degrees to radians");
  ufunc<Half<Rad2deg>, LOOM_MATH_HFLOATS(LOOM_MATH_UN)>(reg, "rad2deg", "radians to degrees");
  ufunc<Half<Rad2deg>, LOOM_MATH_HFLOATS(LOOM_MATH_UN)>(reg, "degrees", "radians to degrees");
}

}  // namespace loom::math
