// The long double references of the complex loops (complex64, complex128): each op's value in
// std::complex<long double>, from NumPy's definitions (its formulas for + - * /, square,
// reciprocal, sign, pow's integer powers, exp2 ... log1p, the lexicographic order) and the C
// library's long double complex functions (cexpl, clogl, csqrtl, csinl ... catanhl, cpowl).
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "common.hpp"

namespace parity {

struct ComplexRef {
  int nin = 1;
  // Random inputs: real and imaginary parts drawn independently from these.
  Domain re{-10, 10}, im{-10, 10};
  Domain re2{-10, 10}, im2{-10, 10};  // the second input's
  // out = f(in): complex results, real ones (absolute) in out.real(), bool ones as 0 or 1.
  std::function<CL(const CL* in)> f;
  bool zero_sign = true;  // a zero part must carry the reference's sign
};

const ComplexRef* complex_ref(const std::string& op);

// The op's long double reference with each step rounded to complex dtype t, for ordered folds.
CL complex_step(const ComplexRef& ref, DType t, CL a, CL b);

}  // namespace parity
