// The math plugin's operation table: one line an op, signatures from least to most inclusive
// (int32, int64, uint64, float32, float64), the first one every input casts to safely wins.
// math.cpp includes it after the host def headers, a math.cu after the CUDA ones: this file
// includes no def header and uses whichever loom::def::ufunc / reduce / gufunc / outs is in scope.
#pragma once
#include <cstdint>
#include <optional>

#include "functors.hpp"
#include "gufuncs.hpp"
#include "loom/registry.hpp"

namespace loom::math {

inline void register_math(loom::Registrar& reg) {
  using i32 = std::int32_t;
  using i64 = std::int64_t;
  using u64 = std::uint64_t;
  using f32 = float;
  using f64 = double;
  // Elementwise: integer loops wrap on overflow, as NumPy's do; int inputs to float-only ops
  // resolve to float64.
  loom::def::ufunc<Add, i32(i32, i32), i64(i64, i64), u64(u64, u64), f32(f32, f32), f64(f64, f64)>(
      reg, "add", "x + y", loom::def::identity(0));
  loom::def::ufunc<Subtract, i32(i32, i32), i64(i64, i64), u64(u64, u64), f32(f32, f32),
                   f64(f64, f64)>(reg, "subtract", "x - y");
  loom::def::ufunc<Multiply, i32(i32, i32), i64(i64, i64), u64(u64, u64), f32(f32, f32),
                   f64(f64, f64)>(reg, "multiply", "x * y", loom::def::identity(1));
  loom::def::ufunc<Divide, f32(f32, f32), f64(f64, f64)>(reg, "divide", "x / y (true division)");
  loom::def::ufunc<Square, i32(i32), i64(i64), f32(f32), f64(f64)>(reg, "square", "x * x");
  loom::def::ufunc<Negative, i32(i32), i64(i64), f32(f32), f64(f64)>(reg, "negative", "-x");
  loom::def::ufunc<Abs, i32(i32), i64(i64), f32(f32), f64(f64)>(reg, "abs", "|x|");
  loom::def::ufunc<Sqrt, f32(f32), f64(f64)>(reg, "sqrt", "square root");
  loom::def::ufunc<Exp, f32(f32), f64(f64)>(reg, "exp", "e to the x");
  loom::def::ufunc<Log, f32(f32), f64(f64)>(reg, "log", "natural logarithm");
  loom::def::ufunc<Sin, f32(f32), f64(f64)>(reg, "sin", "sine (radians)");
  loom::def::ufunc<Cos, f32(f32), f64(f64)>(reg, "cos", "cosine (radians)");
  loom::def::ufunc<SinExp, f32(f32, f32), f64(f64, f64)>(reg, "sinexp", "sin(x)*exp(y)");
  loom::def::ufunc<Hypot, f32(f32, f32), f64(f64, f64)>(
      reg, "hypot", "sqrt(x*x + y*y) without overflow", loom::def::identity(0));
  loom::def::ufunc<Maximum, i32(i32, i32), i64(i64, i64), u64(u64, u64), f32(f32, f32),
                   f64(f64, f64)>(reg, "maximum", "larger of x and y; NaN if either is NaN",
                                  loom::def::reorderable);
  loom::def::ufunc<Minimum, i32(i32, i32), i64(i64, i64), u64(u64, u64), f32(f32, f32),
                   f64(f64, f64)>(reg, "minimum", "smaller of x and y; NaN if either is NaN",
                                  loom::def::reorderable);
  loom::def::ufunc<DivMod, loom::def::outs<i32, i32>(i32, i32), loom::def::outs<i64, i64>(i64, i64),
                   loom::def::outs<f32, f32>(f32, f32), loom::def::outs<f64, f64>(f64, f64)>(
      reg, "divmod", "(x // y, x % y), floor division as np.divmod");
  loom::def::ufunc<Modf, loom::def::outs<f32, f32>(f32), loom::def::outs<f64, f64>(f64)>(
      reg, "modf", "(fractional part, integral part) as np.modf");

  // Reductions (np.sum, np.prod, np.max, np.min): sum and prod of smaller integers run in int64,
  // of uint64 in uint64 (exact); max and min of nothing is an error. Identities and
  // reorderability as NumPy declares them for add, multiply, maximum and minimum.
  loom::def::reduce<Add, i64(i64, i64), u64(u64, u64), f32(f32, f32), f64(f64, f64)>(
      reg, "sum", loom::def::identity(0), "sum of the elements");
  loom::def::reduce<Multiply, i64(i64, i64), u64(u64, u64), f32(f32, f32), f64(f64, f64)>(
      reg, "prod", loom::def::identity(1), "product of the elements");
  loom::def::reduce<Maximum, i32(i32, i32), i64(i64, i64), u64(u64, u64), f32(f32, f32),
                    f64(f64, f64)>(reg, "max", loom::def::reorderable,
                                   "largest element; NaN if any is NaN");
  loom::def::reduce<Minimum, i32(i32, i32), i64(i64, i64), u64(u64, u64), f32(f32, f32),
                    f64(f64, f64)>(reg, "min", loom::def::reorderable,
                                   "smallest element; NaN if any is NaN");

  // Generalized ufuncs.
  loom::def::gufunc<SumRow, i32(i32), f32(f32), f64(f64)>(reg, "sum_row", "(n,m)->(n)",
                                                          "sum of each row");
  loom::def::gufunc<Dot, f32(f32, f32), f64(f64, f64)>(reg, "dot", "(n),(n)->()", "inner product");
  loom::def::gufunc<Matmul, f32(f32, f32), f64(f64, f64)>(reg, "matmul", "(m,n),(n,p)->(m,p)",
                                                          "matrix product");
}

}  // namespace loom::math
