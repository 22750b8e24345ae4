// One floating-point value as NumPy 2 prints it (Dragon4's shortest digits,
// numpy/_core/arrayprint.py's FloatingFormat, and NumPy's str of a float scalar), for
// array_print.cpp. Internal to the core.
#pragma once
#include <cmath>
#include <string>
#include <vector>

#include "loom/dtype.hpp"

namespace loom::detail {

// Shortest decimal that reads back as the same value of dtype t (float16, float32, float64):
// significant digits and the exponent of the first one (x = 0.d1d2... * 10^(exp + 1)). |x| > 0.
struct Digits {
  std::string d;
  int exp;
};
Digits shortest(double x, DType t);

// An exponent as scientific notation writes it after the "e": its sign and at least `digits`
// digits ("+05").
std::string exp_str(int exp, int digits);

// NumPy's FloatingFormat (floatmode 'maxprec', precision 8, suppress False): the widths and the
// notation come from every value shown; `plus` is sign='+' (a complex number's imaginary part).
class FloatFormat {
 public:
  FloatFormat(const std::vector<double>& vals, DType t, bool plus);
  std::string operator()(double v) const;

 private:
  int sign_width(double v) const { return std::signbit(v) || plus_ ? 1 : 0; }
  DType t_;
  bool plus_;
  bool exp_ = false;
  int pad_left_ = 0, pad_right_ = 0, precision_ = 0, exp_digits_ = 2;
};

// NumPy's str of a float scalar: positional from 1e-4 up to 1e16, else scientific; unique digits.
std::string scalar_float(double v, DType t, bool trim_to_int);

}  // namespace loom::detail
