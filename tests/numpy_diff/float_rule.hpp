// The bounds one float or complex element of loom's result is held to against NumPy's: the
// rules compare.hpp states, per element (compare.cpp applies them to whole results).
#pragma once
#include <complex>
#include <initializer_list>
#include <loom/loom.hpp>

namespace numpy_diff {

using loom::DType;

// The unit roundoff of the coarser float dtype among those given (0: none is a float).
double unit_roundoff(std::initializer_list<DType> ts);
// The levels of loom's pairwise sum of n terms (compare.hpp, sums).
double depth(double n);

struct FloatRule {
  enum { exact, ulps1, sum, prod, prefix } kind = exact;
  double u = 0;                // unit roundoff of the comparison dtype
  DType cmp = DType::float64;  // the comparison dtype: the coarsest float dtype involved
  // Complex elements, exact and ulps1 rules: the parts' error allowed, in ulp of the larger part
  // of NumPy's value (docs/catalogue.md, "Complex": a product's parts cancel, so a small part is
  // not held to its own ulp). 1 for multiply: NumPy's AVX2/AVX-512 complex multiply fuses one
  // product, loom's rounds each (docs/catalogue.md).
  double cx_ulps = 0;
  // A complex multiply (call, outer) whose loop may fuse: each part, and the real part an out=
  // keeps, within 3 u |x||y| (u of the loop's parts, |x||y| the scale gen_cases.py writes; the
  // fused and the separately rounded products differ by up to one rounding of a product, and each
  // rounds the difference once), and 1 ulp more where the comparison dtype is coarser than the
  // loop's parts (both round once more). 0: no such bound.
  double cx_fused_u = 0;
};

// v rounded to the comparison dtype, as a loop of that dtype rounds it.
double in_cmp(DType cmp, double v);
// One float element: NumPy's e against loom's l under the rule, with the element's error scale
// and term count where the rule needs them.
bool float_ok(double e, double l, const FloatRule& r, double scale, double count);
// One complex element under the rule: sums, products and prefixes per part with the element's
// scale (|z| bounds each part; a complex multiply errs by up to sqrt(5) u |x||y|, so products and
// prefixes of multiply take 3 u); exact and ulps1 per part within cx_ulps (+1 for ulps1) of the
// larger part's ulp, or the fused bound. NaN parts must meet NaN, an infinite part the same
// infinity.
bool complex_ok(std::complex<double> e, std::complex<double> l, const FloatRule& r, double scale,
                double count);

}  // namespace numpy_diff
