// Error bounds of the parity suite. Elementwise float results are measured against the long
// double reference in ulp of the result's dtype, as a fraction (|got - ref| / ulp(ref)), so a
// correctly rounded result is within 0.5. Sums (reductions, gufuncs) are bounded by Higham's
// gamma_n * sum|terms|, which holds for every association order (references.hpp). Integer results
// must be exact everywhere.
#pragma once
#include <algorithm>
#include <map>
#include <set>
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
      // (float32 / float64). float32 log is f32_kernels.hpp's where the target has FMA: 0.533
      // over every positive float (loom_f32_sweep log), 0.505 on this suite.
      {"exp", {2.0, 1.0}},
      {"log", {1.0, 1.0}},
      // loom's batch sin and cos (plugins/math/trig.hpp): float32 through float64, fdlibm's
      // kernels for float64. Worst seen over this suite, 2^21-point sweeps of [-1.5e6, 1.5e6] and
      // of log-uniform |x| in [1e-40, 1.5e6], and the values nearest k*pi/2 (k <= 1e6) and their
      // neighbours: sin 0.502 / 0.78, cos 0.502 / 0.78.
      {"sin", {0.6, 1.0}},
      {"cos", {0.6, 1.0}},
      // The catalogue (docs/catalogue.md). Correctly rounded or exact by construction:
      {"true_divide", {0.5, 0.5}},
      {"floor_divide", {0.5, 0.5}},  // floor((x - fmod(x, y)) / y): the division rounds
      {"remainder", {0.5, 0.5}},     // m + y rounds once, as divmod
      {"mod", {0.5, 0.5}},
      {"fmod", {0, 0}},
      {"positive", {0, 0}},
      {"conjugate", {0, 0}},
      {"absolute", {0, 0}},
      {"fabs", {0, 0}},
      {"rint", {0, 0}},
      {"sign", {0, 0}},
      {"heaviside", {0, 0}},
      {"reciprocal", {0.5, 0.5}},
      {"gcd", {0, 0}},
      {"lcm", {0, 0}},
      {"bitwise_and", {0, 0}},
      {"bitwise_or", {0, 0}},
      {"bitwise_xor", {0, 0}},
      {"invert", {0, 0}},
      {"bitwise_not", {0, 0}},
      {"left_shift", {0, 0}},
      {"right_shift", {0, 0}},
      {"greater", {0, 0}},
      {"greater_equal", {0, 0}},
      {"less", {0, 0}},
      {"less_equal", {0, 0}},
      {"equal", {0, 0}},
      {"not_equal", {0, 0}},
      {"logical_and", {0, 0}},
      {"logical_or", {0, 0}},
      {"logical_xor", {0, 0}},
      {"logical_not", {0, 0}},
      {"fmax", {0, 0}},
      {"fmin", {0, 0}},
      {"isfinite", {0, 0}},
      {"isinf", {0, 0}},
      {"isnan", {0, 0}},
      {"signbit", {0, 0}},
      {"copysign", {0, 0}},
      {"ldexp", {0, 0}},
      {"frexp", {0, 0}},
      {"floor", {0, 0}},
      {"ceil", {0, 0}},
      {"trunc", {0, 0}},
      // x * (pi / 180) with the constant rounded to the dtype: two roundings.
      {"deg2rad", {1.5, 1.5}},
      {"radians", {1.5, 1.5}},
      {"rad2deg", {1.5, 1.5}},
      {"degrees", {1.5, 1.5}},
      // The host loops run these on batches (plugins/math/simd_libm.hpp): float32 lanes in float64
      // through xsimd's float64 function, float64 lanes through xsimd's, special values through
      // glibc's; scalar calls (reduction tails, accumulate, at) are glibc's. Each bound is a
      // little above the larger of glibc's worst on this suite (acosh 1.56 / 1.56, asinh 1.41 /
      // 1.49, atanh 1.62 / 1.55, tanh 1.98 / 2.01, sinh 1.54 / 1.57, cosh 1.02 / 1.00, atan2
      // 1.41 / 0.52, cbrt 0.96 / 2.95) and the batches' worst over special values and 2^20-point
      // sweeps (uniform over the domain, log-uniform magnitudes of both signs down to subnormals):
      // float32 all within 0.51 but cbrt 0.93, tan 0.89; float64 exp2 1.32, expm1 2.00, log2 0.60,
      // log10 0.60, log1p 0.73, cbrt 3.00, tan 2.05 (sin / cos), arcsin 1.18, arccos 1.20,
      // arctan 2.01, arctan2 2.53, sinh 2.20, cosh 2.20, tanh 1.23, arcsinh 1.54, arccosh 1.36,
      // arctanh 1.74; float64 power is glibc's lane by lane. float32 arctan2 and power run loom's
      // own kernels in float lanes where the target has FMA (plugins/math/f32_kernels.hpp; in
      // float64 without: 0.5001 / 0.5000): 0.90 / 0.53 on this suite, 0.97 / 0.56 over 10^8
      // random pairs each (loom_f32_sweep; arctan2's bound of 2 stays above).
      {"power", {1.0, 1.0}},
      {"float_power", {1.0, 1.0}},
      {"cbrt", {1.5, 3.5}},
      {"exp2", {1.0, 1.5}},
      {"expm1", {1.0, 2.5}},
      {"log2", {1.0, 1.0}},
      {"log10", {2.0, 2.0}},
      {"log1p", {1.0, 1.0}},
      {"tan", {1.0, 2.5}},
      {"arcsin", {1.0, 1.5}},
      {"arccos", {1.0, 1.5}},
      {"arctan", {1.0, 2.5}},
      {"arctan2", {2.0, 3.0}},
      {"sinh", {2.0, 2.5}},
      {"cosh", {1.5, 2.5}},
      {"tanh", {2.5, 2.5}},
      {"arcsinh", {2.0, 2.0}},
      {"arccosh", {2.0, 2.0}},
      {"arctanh", {2.0, 2.0}},
      // npy_logaddexp's steps: exp, log1p and the sum each round (glibc, non-negative inputs:
      // logaddexp 0.65 / 0.70, logaddexp2 1.15 / 0.96; float32 batches run in float64: within 0.5
      // over sweeps of [-100, 100]^2 and log-uniform pairs).
      {"logaddexp", {1.0, 1.0}},
      {"logaddexp2", {1.5, 1.5}},
      // sin(x) * exp(y): both errors plus the product's rounding (seen: 3.03 / 2.35 over 2^24
      // points of [-10, 10] x [-20, 20] and 2^21 of [-1e3, 1e3] x [-80, 80] / [-700, 700]).
      {"sinexp", {3.5, 3.0}},
  };
  return t;
}

// Device loops (CUDA's libdevice, no fast math): the maximum ulp errors the CUDA Math API
// documents (CUDA C++ Programming Guide, "Mathematical Functions"), where they exceed the host's.
// IEEE operations (+ - * / sqrt) are correctly rounded there too (-prec-div, -prec-sqrt default).
// The catalogue's entries count as the guide does, whole ulps from the correctly rounded result,
// which is up to half an ulp from the exact value: doc + 0.5 against the long double reference
// (an H100 run showed coshf 2.04, exp2f 2.01, expm1 1.09 / 1.05, log10 and log2 1.12 / 1.14 ulp,
// cosh 1.08, against documented 2, 2, 1, 1, 1).
inline const std::map<std::string, UlpBound>& device_ulp_table() {
  static const std::map<std::string, UlpBound> t = {
      {"sin", {2.0, 2.0}},
      {"cos", {2.0, 2.0}},
      {"exp", {2.0, 1.0}},
      {"log", {1.0, 1.0}},
      {"hypot", {3.0, 2.0}},
      {"sinexp", {4.5, 3.5}},  // sin and exp errors plus the product's rounding
      // The catalogue's libdevice functions: the documented maximum ulp errors + 0.5.
      {"power", {4.5, 2.5}},
      {"float_power", {4.5, 2.5}},
      {"cbrt", {1.5, 1.5}},
      {"exp2", {2.5, 2.5}},
      {"expm1", {1.5, 1.5}},
      {"log2", {1.5, 1.5}},
      {"log10", {2.5, 1.5}},
      {"log1p", {1.5, 1.5}},
      {"tan", {4.5, 2.5}},
      {"arcsin", {2.5, 2.5}},
      {"arccos", {2.5, 2.5}},
      {"arctan", {2.5, 2.5}},
      {"arctan2", {3.5, 2.5}},
      {"sinh", {3.5, 2.5}},
      {"cosh", {2.5, 1.5}},
      {"tanh", {2.5, 2.5}},
      {"arcsinh", {3.5, 2.5}},
      {"arccosh", {4.5, 2.5}},
      {"arctanh", {3.5, 2.5}},
      {"logaddexp", {4.5, 3.5}},
      {"logaddexp2", {4.5, 3.5}},
  };
  return t;
}

// float16 loops compute in float and round once to float16 (plugins/math/half.hpp, as NumPy):
// a float result within e float ulp is within 0.5 + e / 8192 float16 ulp (float16's ulp is 2^13
// float ulps wherever the result is a normal float16, more below), and exact ops stay exact.
inline double float16_bound(double f32_bound) {
  return f32_bound <= 0 ? f32_bound : 0.5 + f32_bound / 8192;
}

// The bound for one op and dtype (on a device target when `device`); -1 when not in the table.
inline double ulp_bound(const std::string& op, DType t, bool device = false) {
  // ldexp is exact in float but rounds where a float16 result is subnormal (as NumPy's).
  if (t == DType::float16 && op == "ldexp") return 0.5;
  if (t == DType::float16) return float16_bound(ulp_bound(op, DType::float32, device));
  if (device) {
    auto d = device_ulp_table().find(op);
    if (d != device_ulp_table().end()) return t == DType::float64 ? d->second.f64 : d->second.f32;
  }
  auto it = ulp_table().find(op);
  if (it == ulp_table().end()) return -1;
  return t == DType::float64 ? it->second.f64 : it->second.f32;
}

// Complex loops (complex64, complex128), in Checker::cvalue's measure: the larger part error in ulp
// of the larger reference part, max(|re|, |im|). + and - round each part once (0.5); the others
// are a little above the worst seen on this suite's data (LOOM_PARITY_REPORT=1; docs/catalogue.md,
// "Complex loops"). Exact ops (negative, conjugate, comparisons, selections ...) are 0.
struct ComplexBound {
  double c64, c128;
};
inline const std::map<std::string, ComplexBound>& complex_ulp_table() {
  static const std::map<std::string, ComplexBound> t = {
      {"add", {0.5, 0.5}},
      {"subtract", {0.5, 0.5}},
      {"negative", {0, 0}},
      {"positive", {0, 0}},
      {"conjugate", {0, 0}},
      {"rint", {0, 0}},
      {"greater", {0, 0}},
      {"greater_equal", {0, 0}},
      {"less", {0, 0}},
      {"less_equal", {0, 0}},
      {"equal", {0, 0}},
      {"not_equal", {0, 0}},
      {"logical_and", {0, 0}},
      {"logical_or", {0, 0}},
      {"logical_xor", {0, 0}},
      {"logical_not", {0, 0}},
      {"maximum", {0, 0}},
      {"minimum", {0, 0}},
      {"fmax", {0, 0}},
      {"fmin", {0, 0}},
      {"isfinite", {0, 0}},
      {"isinf", {0, 0}},
      {"isnan", {0, 0}},
      // Worst seen (complex64 / complex128), then the bound: hypot (a real result, in its own
      // ulp) 0.50 / 0.56; NumPy's formulas rounded step by step: multiply 1.56 / 1.59, square
      // 1.57 / 1.61, divide 3.17 / 3.33 (Smith's), reciprocal 1.97 / 1.96, sign 1.46 / 1.45.
      {"absolute", {1.0, 1.0}},
      {"abs", {1.0, 1.0}},
      {"multiply", {2.0, 2.0}},
      {"square", {2.0, 2.0}},
      {"divide", {4.0, 4.0}},
      {"true_divide", {4.0, 4.0}},
      {"reciprocal", {2.5, 2.5}},
      {"sign", {2.0, 2.0}},
      // glibc's complex functions: sqrt 1.41 / 1.27, exp 1.85 / 1.86, log 1.86 / 1.92, sin
      // 2.50 / 2.66, cos 2.65 / 2.71, tan 5.18 / 5.75, arcsin 2.19 / 2.22, arccos 1.80 / 1.87,
      // arctan 3.67 / 2.31, sinh 2.68 / 2.67, cosh 2.64 / 2.67, tanh 5.28 / 5.77, arcsinh
      // 2.86 / 2.53, arccosh 2.06 / 1.99, arctanh 3.13 / 2.03; and NumPy's formulas over them:
      // log2 2.19 / 1.91, log10 2.47 / 2.46, expm1 2.65 / 2.61.
      {"sqrt", {2.0, 2.0}},
      {"exp", {2.5, 2.5}},
      {"log", {2.5, 2.5}},
      {"log2", {3.0, 3.0}},
      {"log10", {3.0, 3.0}},
      {"expm1", {3.0, 3.0}},
      {"log1p", {3.0, 3.0}},
      {"sin", {3.0, 3.0}},
      {"cos", {3.0, 3.0}},
      {"tan", {6.5, 6.5}},
      {"arcsin", {3.0, 3.0}},
      {"arccos", {3.0, 3.0}},
      {"arctan", {4.0, 4.0}},
      {"sinh", {3.0, 3.0}},
      {"cosh", {3.0, 3.0}},
      {"tanh", {6.5, 6.5}},
      {"arcsinh", {3.5, 3.5}},
      {"arccosh", {3.0, 3.0}},
      {"arctanh", {3.5, 3.5}},
      // Errors that grow with the arguments, as NumPy's: exp2(z) = exp(z ln 2) with ln 2 rounded
      // to the dtype (36.0 / 46.7 for |Re z| <= 60), glibc's cpow for non-integer powers (23.6 /
      // 25.5 over bases and exponents of parts up to 3 and 4).
      {"exp2", {48.0, 48.0}},
      {"power", {32.0, 32.0}},
      {"float_power", {32.0, 32.0}},
  };
  return t;
}
// The same on a device target: Thrust's functions (complex_ops.hpp) and NumPy's formulas over
// CUDA's real functions. Worst seen on an H100 (complex64 / complex128; docs/catalogue.md): tan
// 8 / 7, tanh 8 / 7, cosh 5 / 4, sin, sinh, cos 4, arcsinh 3.1 / 4, log10 4 / 3, expm1 6 / 6,
// exp2 36.0 / 46.7 (as on the host), abs 1 / 2, log 2.6 / 2.7 and log2 3.4 near |z| = 1, sign
// 2.2 (complex128), power 36.7 (complex128); the others within the host's bound. The bound: the
// host's, or the device's worst plus one ulp where that is larger.
inline double complex_ulp_bound(const std::string& op, DType t, bool device = false) {
  auto it = complex_ulp_table().find(op);
  if (it == complex_ulp_table().end()) return -1;
  const double b = t == DType::complex64 ? it->second.c64 : it->second.c128;
  if (!device || b <= 0.5) return b;
  static const std::map<std::string, double> worst = {
      {"abs", 2},           {"absolute", 2}, {"tan", 8},    {"tanh", 8},    {"cosh", 5},
      {"cos", 4},           {"sin", 4},      {"sinh", 4},   {"arcsinh", 4}, {"log10", 4},
      {"expm1", 6},         {"log1p", 4},    {"exp", 3.5},  {"arccos", 3},  {"arccosh", 3},
      {"arcsin", 3.2},      {"log", 2.7},    {"log2", 3.4}, {"sign", 2.2},  {"power", 36.7},
      {"float_power", 36.7}};
  auto w = worst.find(op);
  return w == worst.end() ? b : std::max(b, w->second + 1);
}

// Ops whose cuda results for inputs with an infinite or NaN part differ from glibc's (Thrust's
// special values, measured on an H100): only the class of such results is compared there.
inline bool complex_device_specials_differ(const std::string& op) {
  static const std::set<std::string> ops = {
      "exp",     "exp2", "log",   "log2",        "log10",  "sin",    "cos",     "tan",
      "sinh",    "cosh", "tanh",  "arcsin",      "arccos", "arctan", "arcsinh", "arccosh",
      "arctanh", "sqrt", "power", "float_power", "expm1",  "log1p"};
  return ops.count(op) > 0;
}

// Sums: |got - ref| <= kSumSlack * gamma_n(dtype) * sum|terms|. gamma_n is already a worst case
// for any order; the slack of 1 means none is added.
inline constexpr double kSumSlack = 1.0;

// float16 sum and prod accumulate in float and round to float16 once per fold (plugins/math's
// HalfFold, as NumPy's float16 reduce loops): float's gamma_n, plus a few roundings to float16 of
// a value at most `mag` (sum|terms|, or |product|): the result's, and where a reduction is cut
// (parallel's chunks and their combining tree, the runs of a several-axis reduction) each part's;
// 8 covers the sizes the suite uses. (float16's own gamma_n is meaningless past 2^11 terms.)
inline double float16_fold_bound(std::int64_t n, long double mag) {
  const long double u32 = std::ldexp(1.0L, -24), gamma32 = n * u32 / (1 - n * u32);
  return static_cast<double>((gamma32 + 8 * std::ldexp(1.0L, -11)) * mag);
}

}  // namespace parity
