#include "float_rule.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "loom/float16.hpp"

namespace numpy_diff {

double unit_roundoff(std::initializer_list<DType> ts) {
  double u = 0;
  for (DType t : ts) {
    if (t == DType::float16) u = std::max(u, std::ldexp(1.0, -11));
    if (t == DType::float32 || t == DType::complex64) u = std::max(u, std::ldexp(1.0, -24));
    if (t == DType::float64 || t == DType::complex128) u = std::max(u, std::ldexp(1.0, -53));
  }
  return u;
}

double depth(double n) { return 52 + 2 * std::ceil(std::log2(std::max(n, 1.0))); }

// v rounded to the comparison dtype, as a loop of that dtype rounds it.
double in_cmp(DType cmp, double v) {
  if (cmp == DType::float16) return static_cast<float>(loom::float16_t::from_double(v));
  if (cmp == DType::float32) return static_cast<float>(v);
  return v;
}
namespace {

// The distance from v (a value of the comparison dtype) to the next one up.
double ulp_up(DType cmp, double v) {
  if (cmp == DType::float16) {
    const loom::float16_t h = loom::float16_t::from_double(v);
    const auto next = loom::float16_t::from_bits(
        static_cast<std::uint16_t>(v >= 0 ? h.bits + 1 : (h.bits == 0x8000 ? 1 : h.bits - 1)));
    return std::fabs(static_cast<float>(next) - v);
  }
  if (cmp == DType::float32) {
    return std::fabs(std::nextafter(static_cast<float>(v), INFINITY) - static_cast<float>(v));
  }
  return std::fabs(std::nextafter(v, INFINITY) - v);
}
// The comparison dtype's smallest normal.
double tiny_of(DType cmp) {
  if (cmp == DType::float16) return std::ldexp(1.0, -14);
  if (cmp == DType::float32) return std::numeric_limits<float>::min();
  return std::numeric_limits<double>::min();
}

// A complex multiply's fused part (cx_fused_u): its error allowed at NumPy's part e.
double fused_tol(const FloatRule& r, double e, double scale) {
  if (r.cx_fused_u == 0) return 0;
  return 3 * r.cx_fused_u * scale + (r.u > r.cx_fused_u ? ulp_up(r.cmp, e) : 0);
}

}  // namespace

bool float_ok(double e, double l, const FloatRule& r, double scale, double count) {
  // Compare in the coarser dtype: round NumPy's float64 value as loom's float32 or float16 loop
  // would.
  e = in_cmp(r.cmp, e);
  l = in_cmp(r.cmp, l);
  if (std::isnan(e) || std::isnan(l)) return std::isnan(e) && std::isnan(l);
  if (std::isinf(e) || std::isinf(l)) return e == l;
  if (e == l) return true;
  const double cx_real = fused_tol(r, e, scale);
  switch (r.kind) {
    case FloatRule::exact:
      return std::fabs(l - e) <= cx_real;
    case FloatRule::ulps1: {
      return std::fabs(l - e) <= ulp_up(r.cmp, e) + cx_real;
    }
    case FloatRule::sum:
      return std::fabs(l - e) <= (count - 1 + depth(count) + 2) * r.u * scale;
    case FloatRule::prod:
    case FloatRule::prefix: {
      // A multiply that underflows also errs by up to half the smallest subnormal, u times the
      // smallest normal, absolutely; allowing later factors to grow that by up to 1/u gives
      // (n + 1) times the smallest normal (seed 126789671: NumPy's order sticks at 50
      // subnormals where parallel's blocked scan underflows to 0, the exact value ~5.7e-49).
      return std::fabs(l - e) <= 2 * (count + 1) * r.u * scale + (count + 1) * tiny_of(r.cmp);
    }
  }
  return false;
}

bool complex_ok(std::complex<double> e, std::complex<double> l, const FloatRule& r, double scale,
                double count) {
  if (r.kind == FloatRule::prod || r.kind == FloatRule::prefix) {
    // An infinite factor makes a complex product's parts depend on the grouping ((1+0j)(-inf+0j)
    // is -inf+nanj, and times -0.8 gives nan+nanj; -0.8(-inf) first gives inf+nanj): where
    // either side has a part that is not finite, both must have one.
    auto finite = [](std::complex<double> z) {
      return std::isfinite(z.real()) && std::isfinite(z.imag());
    };
    if (!finite(e) || !finite(l)) return !finite(e) && !finite(l);
  }
  if (r.kind == FloatRule::sum || r.kind == FloatRule::prod || r.kind == FloatRule::prefix) {
    FloatRule pr = r;
    if (r.kind != FloatRule::sum) pr.u = 3 * r.u;
    return float_ok(e.real(), l.real(), pr, scale, count) &&
           float_ok(e.imag(), l.imag(), pr, scale, count);
  }
  const double er = in_cmp(r.cmp, e.real()), ei = in_cmp(r.cmp, e.imag()),
               lr = in_cmp(r.cmp, l.real()), li = in_cmp(r.cmp, l.imag());
  const double big =
      std::max(std::isfinite(er) ? std::fabs(er) : 0.0, std::isfinite(ei) ? std::fabs(ei) : 0.0);
  const double tol = (r.cx_ulps + (r.kind == FloatRule::ulps1 ? 1 : 0)) * ulp_up(r.cmp, big);
  auto part = [&](double a, double b) {
    if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
    if (std::isinf(a) || std::isinf(b)) return a == b;
    return a == b || std::fabs(a - b) <= std::max(tol, fused_tol(r, a, scale));
  };
  return part(er, lr) && part(ei, li);
}

}  // namespace numpy_diff
