// The fmax and fmin group's table (see table.hpp): defines register_fminmax. Include it in one file
// per library.
#pragma once
#include "compare.hpp"
#include "complex_ops.hpp"
#include "dtypes.hpp"
#include "loom/registry.hpp"

namespace loom::math {

void register_fminmax(Registrar& reg) {
  using namespace types;
  using loom::def::identity;
  using loom::def::reorderable;
  using loom::def::ufunc;
  ufunc<Cx<Fmax, CFmax>, LOOM_MATH_HALL(LOOM_MATH_BIN), LOOM_MATH_CFLOATS(LOOM_MATH_BIN)>(
      reg, "fmax", "larger of x and y, ignoring a NaN", reorderable);
  ufunc<Cx<Fmin, CFmin>, LOOM_MATH_HALL(LOOM_MATH_BIN), LOOM_MATH_CFLOATS(LOOM_MATH_BIN)>(
      reg, "fmin", "smaller of x and y, ignoring a NaN", reorderable);
}

}  // namespace loom::math
