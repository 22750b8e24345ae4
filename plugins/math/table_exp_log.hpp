// The exponential and logarithm group's table (see table.hpp): defines register_exp_log.
// Include it in one file per library.
#pragma once
#include "complex_ops.hpp"
#include "dtypes.hpp"
#include "exp_log.hpp"
#include "loom/registry.hpp"

namespace loom::math {

void register_exp_log(Registrar& reg) {
  using namespace types;
  using loom::def::identity;
  using loom::def::ufunc;
  ufunc<Cx<Exp, CExp>, LOOM_MATH_HFLOATS(LOOM_MATH_UN), LOOM_MATH_CFLOATS(LOOM_MATH_UN)>(
      reg, "exp", "e to the x");
  ufunc<Cx<Exp2, CExp2>, LOOM_MATH_HFLOATS(LOOM_MATH_UN), LOOM_MATH_CFLOATS(LOOM_MATH_UN)>(
      reg, "exp2", "2 to the x");
  ufunc<Cx<Expm1, CExpm1>, LOOM_MATH_HFLOATS(LOOM_MATH_UN), LOOM_MATH_CFLOATS(LOOM_MATH_UN)>(
      reg, "expm1", "e to the x, minus 1");
  ufunc<Cx<Log, CLog>, LOOM_MATH_HFLOATS(LOOM_MATH_UN), LOOM_MATH_CFLOATS(LOOM_MATH_UN)>(
      reg, "log", "natural logarithm");
  ufunc<Cx<Log2, CLog2>, LOOM_MATH_HFLOATS(LOOM_MATH_UN), LOOM_MATH_CFLOATS(LOOM_MATH_UN)>(
      reg, "log2", "base-2 logarithm");
  ufunc<Cx<Log10, CLog10>, LOOM_MATH_HFLOATS(LOOM_MATH_UN), LOOM_MATH_CFLOATS(LOOM_MATH_UN)>(
      reg, "log10", "base-10 logarithm");
  ufunc<Cx<Log1p, CLog1p>, LOOM_MATH_HFLOATS(LOOM_MATH_UN), LOOM_MATH_CFLOATS(LOOM_MATH_UN)>(
      reg, "log1p", "log(1 + x)");
  // Identity -inf and reorderable, as NumPy declares them.
  ufunc<Half<LogAddExp>, LOOM_MATH_HFLOATS(LOOM_MATH_BIN)>(reg, "logaddexp", "log(exp(x) + exp(y))",
                                                           identity(-HUGE_VAL));
  ufunc<Half<LogAddExp2>, LOOM_MATH_HFLOATS(LOOM_MATH_BIN)>(reg, "logaddexp2", "log2(2**x + 2**y)",
                                                            identity(-HUGE_VAL));
  ufunc<SinExp, LOOM_MATH_FLOATS(LOOM_MATH_BIN)>(reg, "sinexp", "sin(x)*exp(y)");
}

}  // namespace loom::math
