// The maximum and minimum group's table (see table.hpp): defines register_minmax. Include it in one
// file per library.
#pragma once
#include "compare.hpp"
#include "complex_ops.hpp"
#include "dtypes.hpp"
#include "loom/registry.hpp"

namespace loom::math {

void register_minmax(Registrar& reg) {
  using namespace types;
  using loom::def::identity;
  using loom::def::reorderable;
  using loom::def::ufunc;
  ufunc<Cx<Maximum, CMaximum>, LOOM_MATH_HALL(LOOM_MATH_BIN), LOOM_MATH_CFLOATS(LOOM_MATH_BIN)>(
      reg, "maximum", "larger of x and y; NaN if either is NaN", reorderable);
  ufunc<Cx<Minimum, CMinimum>, LOOM_MATH_HALL(LOOM_MATH_BIN), LOOM_MATH_CFLOATS(LOOM_MATH_BIN)>(
      reg, "minimum", "smaller of x and y; NaN if either is NaN", reorderable);
  // np.max, np.min: max and min of nothing is an error (no identity).
  loom::def::reduce<Cx<Maximum, CMaximum>, LOOM_MATH_HALL(LOOM_MATH_BIN),
                    LOOM_MATH_CFLOATS(LOOM_MATH_BIN)>(reg, "max", reorderable,
                                                      "largest element; NaN if any is NaN");
  loom::def::reduce<Cx<Minimum, CMinimum>, LOOM_MATH_HALL(LOOM_MATH_BIN),
                    LOOM_MATH_CFLOATS(LOOM_MATH_BIN)>(reg, "min", reorderable,
                                                      "smallest element; NaN if any is NaN");
}

}  // namespace loom::math
