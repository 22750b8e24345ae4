// The power, heaviside, gcd and lcm group's table (see table.hpp): defines register_power. Include
// it in one file per library.
#pragma once
#include "arith.hpp"
#include "complex_ops.hpp"
#include "dtypes.hpp"
#include "loom/registry.hpp"

namespace loom::math {

void register_power(Registrar& reg) {
  using namespace types;
  using loom::def::identity;
  using loom::def::ufunc;
  ufunc<Cx<Power, CPower>, LOOM_MATH_HREALS(LOOM_MATH_BIN), LOOM_MATH_CFLOATS(LOOM_MATH_BIN)>(
      reg, "power", "x ** y; integers wrap, a negative integer exponent gives trunc(1 / x**-y)");
  ufunc<Cx<Power, CPower>, f64(f64, f64), c128(c128, c128)>(reg, "float_power",
                                                            "x ** y in float64");
  ufunc<Half<Heaviside>, LOOM_MATH_HFLOATS(LOOM_MATH_BIN)>(
      reg, "heaviside", "0 for x < 0, h0 for x = 0, 1 for x > 0");
  ufunc<Gcd, LOOM_MATH_INTS(LOOM_MATH_BIN)>(reg, "gcd", "greatest common divisor, >= 0",
                                            identity(0));
  ufunc<Lcm, LOOM_MATH_INTS(LOOM_MATH_BIN)>(reg, "lcm", "least common multiple, >= 0");
}

}  // namespace loom::math
