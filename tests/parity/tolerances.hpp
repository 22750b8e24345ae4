// Error bounds of the parity suite. Elementwise float results are measured against the long
// double reference in ulp of the result's dtype, as a fraction (|got - ref| / ulp(ref)), so a
// correctly rounded result is within 0.5. Sums (reductions, gufuncs) are bounded by Higham's
// gamma_n * sum|terms|, which holds for every association order (references.hpp). Integer results
// must be exact everywhere.
#pragma once
#include <map>
#include <string>

#include "common.hpp"

namespace parity {

struct UlpBound {
  double f32, f64;
};

// Largest error allowed against the reference, in ulp, per op and dtype. Values a little above
// the worst error measured on this suite's data (printed at the end of a run).
inline const std::map<std::string, UlpBound>& ulp_table() {
  static const std::map<std::string, UlpBound> t = {
      // IEEE 754 operations are correctly rounded: at most half an ulp.
      {"add", {0.5, 0.5}},
      {"subtract", {0.5, 0.5}},
      {"multiply", {0.5, 0.5}},
      {"divide", {0.5, 0.5}},
      {"square", {0.5, 0.5}},
      {"sqrt", {0.5, 0.5}},
      // Exact operations: no rounding at all.
      {"negative", {0, 0}},
      {"abs", {0, 0}},
      {"maximum", {0, 0}},
      {"minimum", {0, 0}},
      {"modf", {0, 0}},
      // floor quotient is an exact integer; the remainder rounds once (m + y).
      {"divmod", {0.5, 0.5}},
      // sqrt(fma(x, x, y * y)): y*y, the fma and the sqrt each round (seen: 1.17).
      {"hypot", {1.5, 1.5}},
      // xsimd's SIMD approximations. Worst seen over this suite and over 2^20-point sweeps of
      // [-87, 88] / [-700, 700] (exp), [1e-30, 1e30] (log): exp 1.51 / 0.87, log 0.74 / 0.74
      // (float32 / float64).
      {"exp", {2.0, 1.0}},
      {"log", {1.0, 1.0}},
      // loom's batch sin and cos (plugins/math/trig.hpp): float32 through float64, fdlibm's
      // kernels for float64. Worst seen over this suite, 2^21-point sweeps of [-1.5e6, 1.5e6] and
      // of log-uniform |x| in [1e-40, 1.5e6], and the values nearest k*pi/2 (k <= 1e6) and their
      // neighbours: sin 0.502 / 0.78, cos 0.502 / 0.78.
      {"sin", {0.6, 1.0}},
      {"cos", {0.6, 1.0}},
      // sin(x) * exp(y): both errors plus the product's rounding (seen: 3.03 / 2.35 over 2^24
      // points of [-10, 10] x [-20, 20] and 2^21 of [-1e3, 1e3] x [-80, 80] / [-700, 700]).
      {"sinexp", {3.5, 3.0}},
  };
  return t;
}

// Device loops (CUDA's libdevice, no fast math): the maximum ulp errors the CUDA Math API
// documents (CUDA C++ Programming Guide, "Mathematical Functions"), where they exceed the host's.
// IEEE operations (+ - * / sqrt) are correctly rounded there too (-prec-div, -prec-sqrt default).
inline const std::map<std::string, UlpBound>& device_ulp_table() {
  static const std::map<std::string, UlpBound> t = {
      {"sin", {2.0, 2.0}},    {"cos", {2.0, 2.0}}, {"exp", {2.0, 1.0}},
      {"log", {1.0, 1.0}},    {"hypot", {3.0, 2.0}},
      {"sinexp", {4.5, 3.5}},  // sin and exp errors plus the product's rounding
  };
  return t;
}

// The bound for one op and dtype (on a device target when `device`); -1 when not in the table.
inline double ulp_bound(const std::string& op, DType t, bool device = false) {
  if (device) {
    auto d = device_ulp_table().find(op);
    if (d != device_ulp_table().end()) return t == DType::float64 ? d->second.f64 : d->second.f32;
  }
  auto it = ulp_table().find(op);
  if (it == ulp_table().end()) return -1;
  return t == DType::float64 ? it->second.f64 : it->second.f32;
}

// Sums: |got - ref| <= kSumSlack * gamma_n(dtype) * sum|terms|. gamma_n is already a worst case
// for any order; the slack of 1 means none is added.
inline constexpr double kSumSlack = 1.0;

}  // namespace parity
