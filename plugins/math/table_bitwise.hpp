// The bitwise group's table (see table.hpp): defines register_bitwise. Include it in one file
// per library.
#pragma once
#include "bitwise.hpp"
#include "dtypes.hpp"
#include "loom/registry.hpp"

namespace loom::math {

void register_bitwise(Registrar& reg) {
  using namespace types;
  using loom::def::identity;
  using loom::def::ufunc;
  // Identities as NumPy's: all ones (-1) for and, 0 for or and xor; all reorderable.
  ufunc<BitwiseAnd, b1(b1, b1), LOOM_MATH_INTS(LOOM_MATH_BIN)>(reg, "bitwise_and", "x & y",
                                                               identity(-1));
  ufunc<BitwiseOr, b1(b1, b1), LOOM_MATH_INTS(LOOM_MATH_BIN)>(reg, "bitwise_or", "x | y",
                                                              identity(0));
  ufunc<BitwiseXor, b1(b1, b1), LOOM_MATH_INTS(LOOM_MATH_BIN)>(reg, "bitwise_xor", "x ^ y",
                                                               identity(0));
}

}  // namespace loom::math
