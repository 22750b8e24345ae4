// The invert and shift group's table (see table.hpp): defines register_shift. Include it in one
// file per library.
#pragma once
#include "bitwise.hpp"
#include "dtypes.hpp"
#include "loom/registry.hpp"

namespace loom::math {

void register_shift(Registrar& reg) {
  using namespace types;
  using loom::def::identity;
  using loom::def::ufunc;
  ufunc<Invert, b1(b1), LOOM_MATH_INTS(LOOM_MATH_UN)>(reg, "invert", "~x (bool: not x)");
  ufunc<Invert, b1(b1), LOOM_MATH_INTS(LOOM_MATH_UN)>(reg, "bitwise_not", "~x, as invert");
  ufunc<LeftShift, LOOM_MATH_INTS(LOOM_MATH_BIN)>(reg, "left_shift",
                                                  "x << n; 0 for n < 0 or n >= the width");
  ufunc<RightShift, LOOM_MATH_INTS(LOOM_MATH_BIN)>(
      reg, "right_shift", "x >> n, arithmetic; 0 (-1 for x < 0) for n < 0 or n >= the width");
}

}  // namespace loom::math
