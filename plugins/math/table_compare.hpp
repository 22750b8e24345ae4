// The comparison and logical group's table (see table.hpp): defines register_compare. Include it
// in one file per library.
#pragma once
#include "compare.hpp"
#include "complex_ops.hpp"
#include "dtypes.hpp"
#include "loom/registry.hpp"

namespace loom::math {

void register_compare(Registrar& reg) {
  using namespace types;
  using loom::def::identity;
  using loom::def::reorderable;
  using loom::def::ufunc;
  // Comparisons: bool results; int64 against uint64 compares exactly (NumPy's qQ, Qq loops).
  ufunc<Cx<Greater, CGreater>, LOOM_MATH_HALL(LOOM_MATH_PRED2), b1(i64, u64), b1(u64, i64),
        LOOM_MATH_CFLOATS(LOOM_MATH_PRED2)>(reg, "greater", "x > y");
  ufunc<Cx<GreaterEqual, CGreaterEqual>, LOOM_MATH_HALL(LOOM_MATH_PRED2), b1(i64, u64),
        b1(u64, i64), LOOM_MATH_CFLOATS(LOOM_MATH_PRED2)>(reg, "greater_equal", "x >= y");
  ufunc<Cx<Less, CLess>, LOOM_MATH_HALL(LOOM_MATH_PRED2), b1(i64, u64), b1(u64, i64),
        LOOM_MATH_CFLOATS(LOOM_MATH_PRED2)>(reg, "less", "x < y");
  ufunc<Cx<LessEqual, CLessEqual>, LOOM_MATH_HALL(LOOM_MATH_PRED2), b1(i64, u64), b1(u64, i64),
        LOOM_MATH_CFLOATS(LOOM_MATH_PRED2)>(reg, "less_equal", "x <= y");
  ufunc<Cx<Equal, CEqual>, LOOM_MATH_HALL(LOOM_MATH_PRED2), b1(i64, u64), b1(u64, i64),
        LOOM_MATH_CFLOATS(LOOM_MATH_PRED2)>(reg, "equal", "x == y");
  ufunc<Cx<NotEqual, CNotEqual>, LOOM_MATH_HALL(LOOM_MATH_PRED2), b1(i64, u64), b1(u64, i64),
        LOOM_MATH_CFLOATS(LOOM_MATH_PRED2)>(reg, "not_equal", "x != y");
  // Logical: truth is nonzero (NaN is true). Identities and reorderability of the bool loops'
  // reductions as NumPy's (True for and, False for or and xor).
  ufunc<Cx<LogicalAnd, CLogicalAnd>, LOOM_MATH_HALL(LOOM_MATH_PRED2),
        LOOM_MATH_CFLOATS(LOOM_MATH_PRED2)>(reg, "logical_and", "x and y", identity(1));
  ufunc<Cx<LogicalOr, CLogicalOr>, LOOM_MATH_HALL(LOOM_MATH_PRED2),
        LOOM_MATH_CFLOATS(LOOM_MATH_PRED2)>(reg, "logical_or", "x or y", identity(0));
  ufunc<Cx<LogicalXor, CLogicalXor>, LOOM_MATH_HALL(LOOM_MATH_PRED2),
        LOOM_MATH_CFLOATS(LOOM_MATH_PRED2)>(reg, "logical_xor", "x xor y", identity(0));
  ufunc<Cx<LogicalNot, CLogicalNot>, LOOM_MATH_HALL(LOOM_MATH_PRED1),
        LOOM_MATH_CFLOATS(LOOM_MATH_PRED1)>(reg, "logical_not", "not x");
  loom::def::reduce<LogicalOr, b1(b1, b1)>(reg, "any", identity(0), "whether any element is true");
  loom::def::reduce<LogicalAnd, b1(b1, b1)>(reg, "all", identity(1),
                                            "whether every element is true");
}

}  // namespace loom::math
