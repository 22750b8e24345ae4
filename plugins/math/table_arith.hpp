// The arithmetic group's table (see table.hpp): defines register_arith for whichever def headers
// the including math_arith.cpp / math_arith.cu put in scope. Include it in one file per library.
// Loops as NumPy's (np.<op>.types) over bool, int8 ... uint64, float32, float64.
#pragma once
#include "arith.hpp"
#include "complex_ops.hpp"
#include "dtypes.hpp"
#include "loom/registry.hpp"

namespace loom::math {

void register_arith(Registrar& reg) {
  using namespace types;
  using loom::def::identity;
  using loom::def::ufunc;
  // Integer loops wrap on overflow, as NumPy's do; integer inputs to float-only ops resolve to
  // the first float loop they cast to safely. docs/catalogue.md: every op's choices.
  ufunc<Cx<HalfFold<Add>, CAdd>, LOOM_MATH_HALL(LOOM_MATH_BIN), LOOM_MATH_CFLOATS(LOOM_MATH_BIN)>(
      reg, "add", "x + y (bool: x or y)", identity(0));
  ufunc<Cx<HalfFold<Subtract>, CSubtract>, LOOM_MATH_HREALS(LOOM_MATH_BIN),
        LOOM_MATH_CFLOATS(LOOM_MATH_BIN)>(reg, "subtract", "x - y");
  ufunc<Cx<HalfFold<Multiply>, CMultiply>, LOOM_MATH_HALL(LOOM_MATH_BIN),
        LOOM_MATH_CFLOATS(LOOM_MATH_BIN)>(reg, "multiply", "x * y (bool: x and y)", identity(1));

  // Reductions (np.sum, np.prod): bools and integers narrower than 64 bits reduce in int64 or
  // uint64 (core/src/calls/reduce_types.cpp, as NumPy), uint64 exactly. Identities and
  // reorderability as NumPy declares them for add and multiply. float16 accumulates in float and
  // rounds once (HalfFold, as NumPy's float16 reduce loops).
  loom::def::reduce<Cx<HalfFold<Add>, CAdd>, i64(i64, i64), u64(u64, u64),
                    LOOM_MATH_E(f16(f16, f16)) f32(f32, f32), f64(f64, f64),
                    LOOM_MATH_CFLOATS(LOOM_MATH_BIN)>(reg, "sum", identity(0),
                                                      "sum of the elements");
  loom::def::reduce<Cx<HalfFold<Multiply>, CMultiply>, i64(i64, i64), u64(u64, u64),
                    LOOM_MATH_E(f16(f16, f16)) f32(f32, f32), f64(f64, f64),
                    LOOM_MATH_CFLOATS(LOOM_MATH_BIN)>(reg, "prod", identity(1),
                                                      "product of the elements");
}

}  // namespace loom::math
