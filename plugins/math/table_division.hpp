// The division group's table (see table.hpp): defines register_division. Include it in one file per
// library.
#pragma once
#include "arith.hpp"
#include "complex_ops.hpp"
#include "dtypes.hpp"
#include "loom/registry.hpp"

namespace loom::math {

void register_division(Registrar& reg) {
  using namespace types;
  using loom::def::identity;
  using loom::def::ufunc;
  ufunc<Cx<HalfFold<Divide>, CDivide>, LOOM_MATH_HFLOATS(LOOM_MATH_BIN),
        LOOM_MATH_CFLOATS(LOOM_MATH_BIN)>(reg, "divide", "x / y (true division)");
  ufunc<Cx<HalfFold<Divide>, CDivide>, LOOM_MATH_HFLOATS(LOOM_MATH_BIN),
        LOOM_MATH_CFLOATS(LOOM_MATH_BIN)>(reg, "true_divide", "x / y, as divide");
  ufunc<Half<FloorDivide>, LOOM_MATH_HREALS(LOOM_MATH_BIN)>(
      reg, "floor_divide", "x // y, floor division; integer x // 0 is 0");
  ufunc<Half<Remainder>, LOOM_MATH_HREALS(LOOM_MATH_BIN)>(
      reg, "remainder", "x % y with the sign of y (Python's); integer x % 0 is 0");
  ufunc<Half<Remainder>, LOOM_MATH_HREALS(LOOM_MATH_BIN)>(reg, "mod", "x % y, as remainder");
  ufunc<Half<Fmod>, LOOM_MATH_HREALS(LOOM_MATH_BIN)>(
      reg, "fmod", "C's remainder, sign of x; integer fmod(x, 0) is 0");
  ufunc<DivMod, LOOM_MATH_HREALS(LOOM_MATH_DIVMOD)>(reg, "divmod",
                                                    "(x // y, x % y), floor division as np.divmod");
}

}  // namespace loom::math
