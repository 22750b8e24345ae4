// The generalized ufuncs' table (see table.hpp): defines register_gufuncs. Include it in one file
// per library. matmul is the linalg plugin's (plugins/linalg, NumPy's optional core dims).
#pragma once
#include "dtypes.hpp"
#include "gufuncs.hpp"
#include "loom/registry.hpp"

namespace loom::math {

void register_gufuncs(Registrar& reg) {
  using namespace types;
  loom::def::gufunc<SumRow, i32(i32), f32(f32), f64(f64)>(reg, "sum_row", "(n,m)->(n)",
                                                          "sum of each row");
  loom::def::gufunc<Dot, f32(f32, f32), f64(f64, f64)>(reg, "dot", "(n),(n)->()", "inner product");
}

}  // namespace loom::math
