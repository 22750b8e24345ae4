// The complex references, written from NumPy's definitions and the C library's long double
// complex functions, never from loom's functors (plugins/math/complex_ops.hpp).
#include "complex_refs.hpp"

#include <cmath>
#include <limits>
#include <map>

namespace parity {

namespace {

using L = long double;
constexpr L kNaN = std::numeric_limits<L>::quiet_NaN();

L re(CL z) { return z.real(); }
L im(CL z) { return z.imag(); }
bool nonzero(CL z) { return re(z) != 0 || im(z) != 0; }
bool any_nan(CL z) { return std::isnan(re(z)) || std::isnan(im(z)); }

// NumPy's product and Smith's quotient (its loops' formulas: no C99 recovery of infinities).
CL mul(CL a, CL b) { return {re(a) * re(b) - im(a) * im(b), re(a) * im(b) + im(a) * re(b)}; }
CL div(CL a, CL b) {
  const L ar = re(a), ai = im(a), br = re(b), bi = im(b);
  if (std::fabs(br) >= std::fabs(bi)) {
    if (br == 0 && bi == 0) return {ar / std::fabs(br), ai / std::fabs(bi)};
    const L rat = bi / br, scl = 1 / (br + bi * rat);
    return {(ar + ai * rat) * scl, (ai - ar * rat) * scl};
  }
  const L rat = br / bi, scl = 1 / (bi + br * rat);
  return {(ar * rat + ai) * scl, (ai * rat - ar) * scl};
}

// NumPy's lexicographic order: real parts first, a NaN part makes it false.
bool ge(CL x, CL y) {
  return (re(x) > re(y) && !std::isnan(im(x)) && !std::isnan(im(y))) ||
         (re(x) == re(y) && im(x) >= im(y));
}
bool gt(CL x, CL y) {
  return (re(x) > re(y) && !std::isnan(im(x)) && !std::isnan(im(y))) ||
         (re(x) == re(y) && im(x) > im(y));
}

// npy_cpow: z**0 = 1, 0**w = 0 (Re w > 0) or NaN, integer |n| < 100 by products, else cpow.
CL power(CL a, CL b) {
  if (re(b) == 0 && im(b) == 0) return {1, 0};
  if (re(a) == 0 && im(a) == 0) return re(b) > 0 ? CL{0, 0} : CL{kNaN, kNaN};
  const L br = re(b);
  if (im(b) == 0 && br > -100 && br < 100 && std::trunc(br) == br) {
    // NumPy's steps, whose infinities and NaNs the result keeps: n = 1, 2, 3 written out, else
    // binary powering from 1 (1 * (inf + 0i) is inf + NaN i), then 1 / z**|n| for n < 0.
    int n = static_cast<int>(br);
    if (n == 1) return a;
    if (n == 2) return mul(a, a);
    if (n == 3) return mul(a, mul(a, a));
    n = n < 0 ? -n : n;
    CL r{1, 0}, p = a;
    for (int mask = 1; mask <= n; mask <<= 1) {
      if (n & mask) r = mul(r, p);
      p = mul(p, p);
    }
    return br < 0 ? div(CL{1, 0}, r) : r;
  }
  return std::pow(a, b);
}

// NumPy 2's sign: z / |z|, with its rules for infinite and NaN parts.
CL sign(CL z) {
  const L a = std::hypot(re(z), im(z));
  if (std::isnan(a)) return {kNaN, kNaN};
  if (std::isinf(a)) {
    if (std::isinf(re(z)))
      return std::isinf(im(z)) ? CL{kNaN, kNaN} : CL{re(z) > 0 ? 1.0L : -1.0L, 0};
    return {0, im(z) > 0 ? 1.0L : -1.0L};
  }
  if (a == 0) return {0, 0};
  return {re(z) / a, im(z) / a};
}

CL reciprocal(CL z) {  // NumPy's loop: Smith's method on 1 / z
  const L r = re(z), i = im(z);
  if (std::fabs(i) <= std::fabs(r)) {
    const L q = i / r, d = r + i * q;
    return {1 / d, -q / d};
  }
  const L q = r / i, d = r * q + i;
  return {q / d, -1 / d};
}

ComplexRef un(std::function<CL(CL)> f, Domain r = {-10, 10}, Domain i = {-10, 10}) {
  ComplexRef c;
  c.nin = 1, c.re = r, c.im = i;
  c.f = [f](const CL* in) { return f(in[0]); };
  return c;
}
ComplexRef bin(std::function<CL(CL, CL)> f, Domain r = {-10, 10}, Domain i = {-10, 10},
               Domain r2 = {-10, 10}, Domain i2 = {-10, 10}) {
  ComplexRef c;
  c.nin = 2, c.re = r, c.im = i, c.re2 = r2, c.im2 = i2;
  c.f = [f](const CL* in) { return f(in[0], in[1]); };
  return c;
}
CL truth(bool b) { return {b ? 1.0L : 0.0L, 0}; }

const std::map<std::string, ComplexRef>& table() {
  static const std::map<std::string, ComplexRef> t = [] {
    std::map<std::string, ComplexRef> m;
    const L ln2 = std::log(2.0L);
    m["add"] = bin([](CL x, CL y) { return CL{re(x) + re(y), im(x) + im(y)}; });
    m["subtract"] = bin([](CL x, CL y) { return CL{re(x) - re(y), im(x) - im(y)}; });
    m["multiply"] = bin(mul);
    m["divide"] = bin(div);
    m["true_divide"] = m["divide"];
    m["power"] = bin(power, {-3, 3}, {-3, 3}, {-4, 4}, {-2, 2});
    m["float_power"] = m["power"];
    m["negative"] = un([](CL z) { return -z; });
    m["positive"] = un([](CL z) { return z; });
    m["conjugate"] = un([](CL z) { return std::conj(z); });
    m["absolute"] = un([](CL z) { return CL{std::hypot(re(z), im(z)), 0}; });
    m["abs"] = m["absolute"];
    m["sign"] = un(sign);
    m["square"] = un([](CL z) { return mul(z, z); });
    m["reciprocal"] = un(reciprocal);
    m["rint"] = un(
        [](CL z) {
          return CL{std::nearbyint(re(z)), std::nearbyint(im(z))};
        },
        {-1e6, 1e6}, {-1e6, 1e6});
    m["sqrt"] = un([](CL z) { return std::sqrt(z); });
    m["exp"] = un([](CL z) { return std::exp(z); }, {-40, 40});
    m["exp2"] = un([ln2](CL z) { return std::exp(z * ln2); }, {-60, 60});
    m["expm1"] = un(
        [](CL z) {
          const L x = re(z), y = im(z), a = std::sin(y / 2);
          return CL{std::expm1(x) * std::cos(y) - 2 * a * a, std::exp(x) * std::sin(y)};
        },
        {-40, 40});
    m["log"] = un([](CL z) { return std::log(z); });
    m["log2"] = un([ln2](CL z) { return std::log(z) / ln2; });
    m["log10"] = un([](CL z) { return std::log10(z); });
    // NumPy's formula, log(hypot(1 + x, y)), loses relative accuracy as z nears 0 (as NumPy's
    // does): the random inputs keep Re z >= 0.5.
    m["log1p"] = un(
        [](CL z) {
          const L x1 = re(z) + 1;
          return CL{std::log(std::hypot(x1, im(z))), std::atan2(im(z), x1)};
        },
        {0.5, 10});
    m["sin"] = un([](CL z) { return std::sin(z); }, {-10, 10}, {-40, 40});
    m["cos"] = un([](CL z) { return std::cos(z); }, {-10, 10}, {-40, 40});
    m["tan"] = un([](CL z) { return std::tan(z); });
    m["arcsin"] = un([](CL z) { return std::asin(z); });
    m["arccos"] = un([](CL z) { return std::acos(z); });
    m["arctan"] = un([](CL z) { return std::atan(z); });
    m["sinh"] = un([](CL z) { return std::sinh(z); }, {-40, 40});
    m["cosh"] = un([](CL z) { return std::cosh(z); }, {-40, 40});
    m["tanh"] = un([](CL z) { return std::tanh(z); });
    m["arcsinh"] = un([](CL z) { return std::asinh(z); });
    m["arccosh"] = un([](CL z) { return std::acosh(z); });
    m["arctanh"] = un([](CL z) { return std::atanh(z); });
    m["greater"] = bin([](CL x, CL y) { return truth(gt(x, y)); });
    m["greater_equal"] = bin([](CL x, CL y) { return truth(ge(x, y)); });
    m["less"] = bin([](CL x, CL y) { return truth(gt(y, x)); });
    m["less_equal"] = bin([](CL x, CL y) { return truth(ge(y, x)); });
    m["equal"] = bin([](CL x, CL y) { return truth(re(x) == re(y) && im(x) == im(y)); });
    m["not_equal"] = bin([](CL x, CL y) { return truth(re(x) != re(y) || im(x) != im(y)); });
    m["logical_and"] = bin([](CL x, CL y) { return truth(nonzero(x) && nonzero(y)); });
    m["logical_or"] = bin([](CL x, CL y) { return truth(nonzero(x) || nonzero(y)); });
    m["logical_xor"] = bin([](CL x, CL y) { return truth(nonzero(x) != nonzero(y)); });
    m["logical_not"] = un([](CL z) { return truth(!nonzero(z)); });
    m["maximum"] = bin([](CL x, CL y) { return any_nan(x) || ge(x, y) ? x : y; });
    m["minimum"] = bin([](CL x, CL y) { return any_nan(x) || ge(y, x) ? x : y; });
    m["fmax"] = bin([](CL x, CL y) { return any_nan(y) || ge(x, y) ? x : y; });
    m["fmin"] = bin([](CL x, CL y) { return any_nan(y) || ge(y, x) ? x : y; });
    m["isnan"] = un([](CL z) { return truth(any_nan(z)); });
    m["isinf"] = un([](CL z) { return truth(std::isinf(re(z)) || std::isinf(im(z))); });
    m["isfinite"] = un([](CL z) { return truth(std::isfinite(re(z)) && std::isfinite(im(z))); });
    // Small inputs keep products of the random scenarios finite.
    for (auto op : {"multiply", "square"})
      m[op].re = m[op].im = m[op].re2 = m[op].im2 = {-1e3, 1e3};
    return m;
  }();
  return t;
}

CL round_c(DType t, CL z) {
  const DType c = component(t);
  return {round_to(c, re(z)), round_to(c, im(z))};
}

}  // namespace

const ComplexRef* complex_ref(const std::string& op) {
  auto it = table().find(op);
  return it == table().end() ? nullptr : &it->second;
}

CL complex_step(const ComplexRef& ref, DType t, CL a, CL b) {
  const CL in[2] = {a, b};
  return round_c(t, ref.f(in));
}

}  // namespace parity
