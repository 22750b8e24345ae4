// The reference table: every math op's value in long double (64-bit significand), written from
// the C library's long double functions and NumPy's definitions, never from loom's functors.
#include "references.hpp"

#include <cmath>
#include <limits>
#include <map>

namespace parity {

namespace {

using L = long double;
constexpr L kNaN = std::numeric_limits<L>::quiet_NaN();

// NumPy's npy_divmod (numpy/_core/src/npymath/npy_math_internal.h.src) in long double: a floor
// quotient and a remainder with the divisor's sign. For the inputs the suite draws, x - fmod(x, y)
// and the division are exact in long double, so this is floor(x / y) exactly.
void divmod(L x, L y, L& q, L& r) {
  L m = std::fmod(x, y);
  if (y == 0) {
    q = x / y;
    r = m;
    return;
  }
  L d = (x - m) / y;
  if (m != 0) {
    if ((y < 0) != (m < 0)) {
      m += y;
      d -= 1;
    }
  } else {
    m = std::copysign(L(0), y);
  }
  if (d != 0) {
    L fd = std::floor(d);
    if (d - fd > 0.5L) fd += 1;
    q = fd;
  } else {
    q = std::copysign(L(0), x / y);
  }
  r = m;
}

L nan_max(L a, L b) { return std::isnan(a) || std::isnan(b) ? kNaN : (a >= b ? a : b); }
L nan_min(L a, L b) { return std::isnan(a) || std::isnan(b) ? kNaN : (a <= b ? a : b); }

UfuncRef make_ref(int nin, int nout, std::vector<Domain> flt, std::vector<Domain> intg,
                  std::function<void(const L*, L*)> f) {
  UfuncRef r;
  r.nin = nin, r.nout = nout, r.flt = std::move(flt), r.intg = std::move(intg), r.f = std::move(f);
  return r;
}
UfuncRef unary(Domain flt, Domain intg, L (*fn)(L)) {
  return make_ref(1, 1, {flt}, {intg}, [fn](const L* in, L* out) { out[0] = fn(in[0]); });
}
UfuncRef binary(Domain fx, Domain fy, Domain ix, Domain iy, L (*fn)(L, L)) {
  return make_ref(2, 1, {fx, fy}, {ix, iy},
                  [fn](const L* in, L* out) { out[0] = fn(in[0], in[1]); });
}

// Integer ops on the two's complement bits of a value (uint64 values above 2^63 included); the
// caller wraps the result into the loop's dtype.
std::int64_t bits_of(L x) {
  return x >= 0x1p63L ? static_cast<std::int64_t>(static_cast<std::uint64_t>(x))
                      : static_cast<std::int64_t>(x);
}
L from_bits(std::int64_t v) { return static_cast<L>(v); }
L int_floor_div(L x, L y) { return y == 0 ? 0 : std::floor(x / y); }
L int_mod(L x, L y) { return y == 0 ? 0 : x - y * std::floor(x / y); }
L gcd_ref(L x, L y) {
  std::uint64_t a = static_cast<std::uint64_t>(std::fabs(x)),
                b = static_cast<std::uint64_t>(std::fabs(y));
  while (b != 0) {
    const std::uint64_t t = a % b;
    a = b;
    b = t;
  }
  return static_cast<L>(a);
}
L lcm_ref(L x, L y) {
  const L g = gcd_ref(x, y);
  return g == 0 ? 0 : std::fabs(x) / g * std::fabs(y);
}
// x ** y for integers: exact while below 2^64 (the suite's domain); negative exponents as loom
// defines them (docs/catalogue.md): trunc(1 / x**-y), 0 for x = 0.
L int_pow(L x, L y) {
  if (y < 0) return x == 1 ? 1 : (x == -1 ? (std::fmod(y, 2) == 0 ? 1 : -1) : 0);
  std::uint64_t r = 1;  // modulo 2^64: the low bits every integer dtype keeps
  const auto b = static_cast<std::uint64_t>(bits_of(x));
  for (L k = 0; k < y; ++k) r *= b;
  return from_bits(static_cast<std::int64_t>(r));
}
L logaddexp_ref(L x, L y) {
  if (x == y) return x + std::log(2.0L);
  const L d = x - y;
  if (std::isnan(d)) return d;
  return (d > 0 ? x : y) + std::log1p(std::exp(-std::fabs(d)));
}
L logaddexp2_ref(L x, L y) {
  if (x == y) return x + 1;
  const L d = x - y;
  if (std::isnan(d)) return d;
  return (d > 0 ? x : y) + std::log2(1 + std::exp2(-std::fabs(d)));
}
L fmax_ref(L a, L b) { return std::isnan(b) ? a : (std::isnan(a) ? b : (a >= b ? a : b)); }
L fmin_ref(L a, L b) { return std::isnan(b) ? a : (std::isnan(a) ? b : (a <= b ? a : b)); }
L sign_ref(L x) { return x > 0 ? 1 : (x < 0 ? -1 : (x == 0 ? 0 : x)); }

const Domain kWide{-1e3, 1e3};
const Domain kIntWide{-1e9, 1e9};   // sums and differences stay inside int32
const Domain kIntSmall{-3e4, 3e4};  // products stay inside int32
const Domain kPositive{1e-30, 1e30, false, true};

// Multiples of pi (sin's zeros) or of pi plus pi/2 (cos's): the result is tiny, so any error in
// the argument reduction shows up as many ulp. k up to 40 keeps |x| on both sides of 20 pi.
std::vector<double> near_zeros(double shift) {
  std::vector<double> v;
  for (int k = -40; k <= 40; ++k)
    v.push_back(static_cast<double>((k + shift) * 3.14159265358979323846264338327950288L));
  return v;
}

void add_hard_inputs(std::map<std::string, UfuncRef>& m) {
  m["sin"].hard = {near_zeros(0)};
  m["cos"].hard = {near_zeros(0.5)};
  const auto zeros = near_zeros(0);
  m["sinexp"].hard = {zeros, std::vector<double>(zeros.size(), 0.5)};
  // float32 overflows above 88.72 and goes subnormal below -87.3; float64 at 709.78 and -708.4.
  m["exp"].hard = {{88.5,   88.7,   88.72,  88.8,   -87.0, -87.5, -95.0,  -100.0,
                    -103.0, -104.0, -110.0, 709.0,  709.7, 709.8, -708.0, -709.0,
                    -720.0, -740.0, -744.0, -746.0, 1e-8,  -1e-8, 1e-20}};
  m["log"].hard = {{1 + 0x1p-23, 1 - 0x1p-24, 1 + 0x1p-52, 1 - 0x1p-53, 1 + 1e-6, 1 - 1e-6, 1.0,
                    2.0, 0.5, 0x1p-149, 0x1p-140, 0x1p-126, 0x1p-1074, 0x1p-1040, 0x1p-1022}};
}

const std::map<std::string, UfuncRef>& ufunc_table() {
  static const std::map<std::string, UfuncRef> t = [] {
    std::map<std::string, UfuncRef> m;
    m["add"] = binary(kWide, kWide, kIntWide, kIntWide, [](L x, L y) { return x + y; });
    m["subtract"] = binary(kWide, kWide, kIntWide, kIntWide, [](L x, L y) { return x - y; });
    m["multiply"] = binary(kWide, kWide, kIntSmall, kIntSmall, [](L x, L y) { return x * y; });
    m["divide"] = binary(kWide, {1e-3, 1e3, true}, kIntWide, {1, 1e4, true, false, true},
                         [](L x, L y) { return x / y; });
    m["square"] = unary(kWide, kIntSmall, [](L x) { return x * x; });
    m["negative"] = unary(kWide, kIntWide, [](L x) { return -x; });
    m["abs"] = unary(kWide, kIntWide, [](L x) { return std::fabs(x); });
    m["sqrt"] = unary(kPositive, {0, 1e9}, [](L x) { return std::sqrt(x); });
    m["exp"] = unary({-80, 80}, {-80, 80}, [](L x) { return std::exp(x); });
    m["log"] = unary(kPositive, {1, 1e9}, [](L x) { return std::log(x); });
    m["sin"] = unary({-100, 100}, {-100, 100}, [](L x) { return std::sin(x); });
    m["cos"] = unary({-100, 100}, {-100, 100}, [](L x) { return std::cos(x); });
    m["sinexp"] = binary({-10, 10}, {-20, 20}, {-10, 10}, {-20, 20},
                         [](L x, L y) { return std::sin(x) * std::exp(y); });
    m["hypot"] =
        binary(kWide, kWide, kIntSmall, kIntSmall, [](L x, L y) { return std::hypot(x, y); });
    m["maximum"] = binary(kWide, kWide, kIntWide, kIntWide, nan_max);
    m["minimum"] = binary(kWide, kWide, kIntWide, kIntWide, nan_min);
    m["maximum"].zero_sign = m["minimum"].zero_sign = false;  // max(-0, +0): either zero
    m["divmod"] =
        make_ref(2, 2, {kWide, {0.5, 50, true}}, {{-1e6, 1e6}, {1, 100, true, false, true}},
                 [](const L* in, L* out) { divmod(in[0], in[1], out[0], out[1]); });
    m["modf"] = make_ref(1, 2, {{-1e6, 1e6}}, {{-1e6, 1e6}}, [](const L* in, L* out) {
      out[0] = std::modf(in[0], &out[1]);  // (fractional, integral), as np.modf
    });
    // The catalogue (docs/catalogue.md): integer results are checked exactly after wrapping into
    // the loop's dtype, bool results as the reference's truth.
    const Domain divisor{1, 1e4, true, false, true}, fdivisor{0.5, 50, true};
    // logaddexp's result loses relative accuracy where it cancels to near 0 (x + log1p(...) with
    // x < 0), in NumPy's formula as in loom's: non-negative inputs keep the bound meaningful.
    const Domain kLogAdd{0, 100};
    m["true_divide"] = m["divide"];
    m["floor_divide"] = binary(kWide, fdivisor, kIntWide, divisor, int_floor_div);
    m["floor_divide"].f = [](const L* in, L* out) {
      L q, r;
      divmod(in[0], in[1], q, r);
      out[0] = q;
    };
    m["remainder"] = binary(kWide, fdivisor, kIntWide, divisor, int_mod);
    m["remainder"].f = [](const L* in, L* out) {
      L q, r;
      divmod(in[0], in[1], q, r);
      out[0] = r;
    };
    m["mod"] = m["remainder"];
    m["fmod"] =
        binary(kWide, fdivisor, kIntWide, divisor, [](L x, L y) { return std::fmod(x, y); });
    m["power"] =
        binary({0.1, 10}, {-10, 10}, {-6, 6}, {0, 20}, [](L x, L y) { return std::pow(x, y); });
    m["power"].int_f = [](const L* in, L* out) { out[0] = int_pow(in[0], in[1]); };
    m["float_power"] =
        binary({0.1, 10}, {-30, 30}, {-6, 6}, {0, 20}, [](L x, L y) { return std::pow(x, y); });
    m["positive"] = unary(kWide, kIntWide, [](L x) { return x; });
    m["conjugate"] = m["positive"];
    m["absolute"] = m["abs"];
    m["fabs"] = m["abs"];
    m["rint"] = unary({-1e6, 1e6}, kIntWide, [](L x) { return std::nearbyint(x); });
    m["sign"] = unary(kWide, kIntWide, sign_ref);
    m["heaviside"] = binary(kWide, kWide, kIntWide, kIntWide,
                            [](L x, L h0) { return x < 0 ? 0 : (x > 0 ? 1 : (x == 0 ? h0 : x)); });
    m["cbrt"] = unary({-1e30, 1e30}, kIntWide, [](L x) { return std::cbrt(x); });
    m["reciprocal"] = unary({1e-3, 1e3, true, true}, kIntSmall, [](L x) { return 1 / x; });
    m["reciprocal"].int_f = [](const L* in, L* out) {
      out[0] = in[0] == 1 ? 1 : (in[0] == -1 ? -1 : 0);  // 1 / 0 is 0 (docs/catalogue.md)
    };
    m["gcd"] = binary(kWide, kWide, kIntSmall, kIntSmall, gcd_ref);
    m["lcm"] = binary(kWide, kWide, kIntSmall, kIntSmall, lcm_ref);
    m["exp2"] = unary({-120, 120}, kIntWide, [](L x) { return std::exp2(x); });
    m["expm1"] = unary({-80, 80}, kIntWide, [](L x) { return std::expm1(x); });
    m["log2"] = unary(kPositive, kIntWide, [](L x) { return std::log2(x); });
    m["log10"] = unary(kPositive, kIntWide, [](L x) { return std::log10(x); });
    m["log1p"] = unary({-0.999, 1e30}, kIntWide, [](L x) { return std::log1p(x); });
    m["logaddexp"] = binary(kLogAdd, kLogAdd, kIntWide, kIntWide, logaddexp_ref);
    m["logaddexp2"] = binary(kLogAdd, kLogAdd, kIntWide, kIntWide, logaddexp2_ref);
    m["tan"] = unary({-100, 100}, kIntWide, [](L x) { return std::tan(x); });
    m["arcsin"] = unary({-1, 1}, kIntWide, [](L x) { return std::asin(x); });
    m["arccos"] = unary({-1, 1}, kIntWide, [](L x) { return std::acos(x); });
    m["arctan"] = unary({1e-10, 1e10, true, true}, kIntWide, [](L x) { return std::atan(x); });
    m["arctan2"] =
        binary(kWide, kWide, kIntWide, kIntWide, [](L y, L x) { return std::atan2(y, x); });
    m["sinh"] = unary({-80, 80}, kIntWide, [](L x) { return std::sinh(x); });
    m["cosh"] = unary({-80, 80}, kIntWide, [](L x) { return std::cosh(x); });
    m["tanh"] = unary({-20, 20}, kIntWide, [](L x) { return std::tanh(x); });
    m["arcsinh"] = unary({1e-10, 1e30, true, true}, kIntWide, [](L x) { return std::asinh(x); });
    m["arccosh"] = unary({1, 1e30, false, true}, kIntWide, [](L x) { return std::acosh(x); });
    m["arctanh"] = unary({-0.999, 0.999}, kIntWide, [](L x) { return std::atanh(x); });
    m["deg2rad"] = unary({-1e4, 1e4}, kIntWide,
                         [](L x) { return x * (3.141592653589793238462643383279502884L / 180); });
    m["radians"] = m["deg2rad"];
    m["rad2deg"] = unary({-1e3, 1e3}, kIntWide,
                         [](L x) { return x * (180 / 3.141592653589793238462643383279502884L); });
    m["degrees"] = m["rad2deg"];
    // Bitwise: on two's complement bits; shift counts inside every width (edges: int_edges).
    m["bitwise_and"] = binary(kWide, kWide, kIntWide, kIntWide,
                              [](L x, L y) { return from_bits(bits_of(x) & bits_of(y)); });
    m["bitwise_or"] = binary(kWide, kWide, kIntWide, kIntWide,
                             [](L x, L y) { return from_bits(bits_of(x) | bits_of(y)); });
    m["bitwise_xor"] = binary(kWide, kWide, kIntWide, kIntWide,
                              [](L x, L y) { return from_bits(bits_of(x) ^ bits_of(y)); });
    m["invert"] = unary(kWide, kIntWide, [](L x) { return from_bits(~bits_of(x)); });
    m["invert"].bool_loops = false;  // bool: not x
    m["bitwise_not"] = m["invert"];
    m["left_shift"] =
        binary(kWide, kWide, kIntWide, {0, 7}, [](L x, L n) { return x * std::exp2(n); });
    m["right_shift"] = binary(kWide, kWide, kIntWide, {0, 7},
                              [](L x, L n) { return std::floor(x / std::exp2(n)); });
    // Comparison and logical: bool results (NaN compares false, and is true).
    const Domain kSmallInt{-3, 3};  // equal values are common
    m["greater"] = binary(kWide, kWide, kSmallInt, kSmallInt, [](L x, L y) -> L { return x > y; });
    m["greater_equal"] =
        binary(kWide, kWide, kSmallInt, kSmallInt, [](L x, L y) -> L { return x >= y; });
    m["less"] = binary(kWide, kWide, kSmallInt, kSmallInt, [](L x, L y) -> L { return x < y; });
    m["less_equal"] =
        binary(kWide, kWide, kSmallInt, kSmallInt, [](L x, L y) -> L { return x <= y; });
    m["equal"] = binary(kWide, kWide, kSmallInt, kSmallInt, [](L x, L y) -> L { return x == y; });
    m["not_equal"] =
        binary(kWide, kWide, kSmallInt, kSmallInt, [](L x, L y) -> L { return x != y; });
    m["logical_and"] =
        binary(kWide, kWide, kSmallInt, kSmallInt, [](L x, L y) -> L { return x != 0 && y != 0; });
    m["logical_or"] =
        binary(kWide, kWide, kSmallInt, kSmallInt, [](L x, L y) -> L { return x != 0 || y != 0; });
    m["logical_xor"] = binary(kWide, kWide, kSmallInt, kSmallInt,
                              [](L x, L y) -> L { return (x != 0) != (y != 0); });
    m["logical_not"] = unary(kWide, kSmallInt, [](L x) -> L { return x == 0; });
    m["fmax"] = binary(kWide, kWide, kIntWide, kIntWide, fmax_ref);
    m["fmin"] = binary(kWide, kWide, kIntWide, kIntWide, fmin_ref);
    m["fmax"].zero_sign = m["fmin"].zero_sign = false;
    // Floating.
    m["isfinite"] = unary(kWide, kIntWide, [](L x) -> L { return std::isfinite(x); });
    m["isinf"] = unary(kWide, kIntWide, [](L x) -> L { return std::isinf(x); });
    m["isnan"] = unary(kWide, kIntWide, [](L x) -> L { return std::isnan(x); });
    m["signbit"] = unary(kWide, kIntWide, [](L x) -> L { return std::signbit(x); });
    m["copysign"] =
        binary(kWide, kWide, kIntWide, kIntWide, [](L x, L y) { return std::copysign(x, y); });
    m["ldexp"] = binary(kWide, kWide, kIntWide, {-20, 20},
                        [](L x, L e) { return std::ldexp(x, static_cast<int>(e)); });
    m["frexp"] = make_ref(1, 2, {kWide}, {kIntWide}, [](const L* in, L* out) {
      int e = 0;
      out[0] = std::frexp(in[0], &e);
      out[1] = std::isfinite(in[0]) ? e : 0;
    });
    m["floor"] = unary(kWide, kIntWide, [](L x) { return std::floor(x); });
    m["ceil"] = unary(kWide, kIntWide, [](L x) { return std::ceil(x); });
    m["trunc"] = unary(kWide, kIntWide, [](L x) { return std::trunc(x); });
    add_hard_inputs(m);
    return m;
  }();
  return t;
}

const std::map<std::string, ReduceRef>& reduce_table() {
  static const std::map<std::string, ReduceRef> t = [] {
    std::map<std::string, ReduceRef> m;
    m["sum"] = {kWide, {-1e6, 1e6}, 0.0L, [](const std::vector<L>& x, L& v, L& mag) {
                  v = 0, mag = 0;
                  for (L e : x) v += e, mag += std::fabs(e);
                }};
    // Magnitudes in [0.5, 2]: 210 factors stay far from overflow; integers are ±1.
    m["prod"] = {{0.5, 2, true},
                 {-1, 1, false, false, true},
                 1.0L,
                 [](const std::vector<L>& x, L& v, L& mag) {
                   v = 1;
                   for (L e : x) v *= e;
                   mag = std::fabs(v);  // each product rounds relative to the running value
                 }};
    m["prod"].large = false;
    m["max"] = {kWide, kIntWide, std::nullopt, [](const std::vector<L>& x, L& v, L& mag) {
                  v = x.at(0), mag = 0;
                  for (L e : x) v = nan_max(v, e);
                }};
    m["min"] = {kWide, kIntWide, std::nullopt, [](const std::vector<L>& x, L& v, L& mag) {
                  v = x.at(0), mag = 0;
                  for (L e : x) v = nan_min(v, e);
                }};
    // np.any, np.all: bool inputs (their only loop), exact.
    m["any"] = {{0, 1}, {0, 1}, 0.0L, [](const std::vector<L>& x, L& v, L& mag) {
                  v = 0, mag = 0;
                  for (L e : x) v = v != 0 || e != 0;
                }};
    m["all"] = {{0, 1}, {0, 1}, 1.0L, [](const std::vector<L>& x, L& v, L& mag) {
                  v = 1, mag = 0;
                  for (L e : x) v = v != 0 && e != 0;
                }};
    return m;
  }();
  return t;
}

const std::map<std::string, GufuncRef>& gufunc_table() {
  static const std::map<std::string, GufuncRef> t = [] {
    const Domain f{-10, 10}, i{-100, 100};
    std::map<std::string, GufuncRef> m;
    m["sum_row"] = {f, i, [](const std::vector<Core>& in, std::vector<Core>& out) {
                      const auto n = in[0].shape[0], k = in[0].shape[1];
                      out[0].v.assign(n, 0), out[0].mag.assign(n, 0), out[0].terms = k;
                      for (std::int64_t r = 0; r < n; ++r) {
                        for (std::int64_t c = 0; c < k; ++c) {
                          out[0].v[r] += in[0].v[r * k + c];
                          out[0].mag[r] += std::fabs(in[0].v[r * k + c]);
                        }
                      }
                    }};
    m["dot"] = {f, i, [](const std::vector<Core>& in, std::vector<Core>& out) {
                  const auto n = in[0].shape[0];
                  out[0].v.assign(1, 0), out[0].mag.assign(1, 0), out[0].terms = n;
                  for (std::int64_t k = 0; k < n; ++k) {
                    out[0].v[0] += in[0].v[k] * in[1].v[k];
                    out[0].mag[0] += std::fabs(in[0].v[k] * in[1].v[k]);
                  }
                }};
    m["matmul"] = {f, i, [](const std::vector<Core>& in, std::vector<Core>& out) {
                     const auto rows = in[0].shape[0], n = in[0].shape[1], cols = in[1].shape[1];
                     out[0].v.assign(rows * cols, 0), out[0].mag.assign(rows * cols, 0);
                     out[0].terms = n;
                     for (std::int64_t r = 0; r < rows; ++r) {
                       for (std::int64_t c = 0; c < cols; ++c) {
                         for (std::int64_t k = 0; k < n; ++k) {
                           const L p = in[0].v[r * n + k] * in[1].v[k * cols + c];
                           out[0].v[r * cols + c] += p;
                           out[0].mag[r * cols + c] += std::fabs(p);
                         }
                       }
                     }
                   }};
    return m;
  }();
  return t;
}

template <class M>
const typename M::mapped_type* find(const M& m, const std::string& k) {
  auto it = m.find(k);
  return it == m.end() ? nullptr : &it->second;
}

}  // namespace

const UfuncRef* ufunc_ref(const std::string& op) { return find(ufunc_table(), op); }
const ReduceRef* reduce_ref(const std::string& op) { return find(reduce_table(), op); }
const GufuncRef* gufunc_ref(const std::string& op) { return find(gufunc_table(), op); }

std::vector<IntEdge> int_edges(const std::string& op, int bits, bool is_unsigned) {
  if (is_unsigned) {  // values as int64 bit patterns: -1 is the largest value (64 bits only)
    if (bits != 64) return {};
    const std::int64_t max = -1, top = std::numeric_limits<std::int64_t>::min();  // 2^63
    if (op == "add") return {{{max, 1}, {0}}, {{max, max}, {-2}}, {{top, top}, {0}}};
    if (op == "subtract")
      return {
          {{0, 1}, {max}}, {{1, max}, {2}}, {{top, 1}, {std::numeric_limits<std::int64_t>::max()}}};
    if (op == "multiply") return {{{max, 2}, {-2}}, {{top, 2}, {0}}, {{max, max}, {1}}};
    if (op == "maximum") return {{{0, max}, {max}}, {{top, 1}, {top}}};
    if (op == "minimum") return {{{0, max}, {0}}, {{top, max}, {top}}};
    return {};
  }
  const std::int64_t lo =
      bits == 64 ? std::numeric_limits<std::int64_t>::min() : -(std::int64_t{1} << (bits - 1));
  const std::int64_t hi = -(lo + 1);
  const std::int64_t half = std::int64_t{1} << (bits / 2);  // half * half wraps to 0
  if (op == "add") return {{{hi, 1}, {lo}}, {{lo, -1}, {hi}}, {{hi, hi}, {-2}}};
  if (op == "subtract") return {{{lo, 1}, {hi}}, {{hi, -1}, {lo}}, {{0, lo}, {lo}}};
  if (op == "multiply") return {{{hi, 2}, {-2}}, {{lo, -1}, {lo}}, {{half, half}, {0}}};
  if (op == "square") return {{{lo}, {0}}, {{half}, {0}}, {{hi}, {1}}};
  if (op == "negative") return {{{lo}, {lo}}, {{hi}, {lo + 1}}};
  if (op == "abs") return {{{lo}, {lo}}, {{lo + 1}, {hi}}};
  if (op == "maximum") return {{{lo, hi}, {hi}}, {{lo, lo}, {lo}}};
  if (op == "minimum") return {{{lo, hi}, {lo}}, {{hi, hi}, {hi}}};
  if (op == "power") {  // negative exponents: trunc(1 / x**-y), 0 for x = 0
    return {{{2, -1}, {0}}, {{1, -3}, {1}},  {{-1, -3}, {-1}},      {{-1, -2}, {1}}, {{0, -1}, {0}},
            {{0, 0}, {1}},  {{lo, 1}, {lo}}, {{2, bits - 1}, {lo}}, {{2, bits}, {0}}};
  }
  if (op == "left_shift") {  // counts past the width or negative give 0
    return {{{1, bits - 1}, {lo}}, {{1, bits}, {0}}, {{-1, bits + 1}, {0}}, {{1, -1}, {0}}};
  }
  if (op == "right_shift") {  // ... and -1 for a negative x
    return {{{lo, bits - 1}, {-1}}, {{lo, bits}, {-1}}, {{hi, bits}, {0}}, {{-1, -1}, {-1}}};
  }
  if (op == "floor_divide" || op == "remainder" || op == "mod" || op == "fmod") {
    const bool q = op == "floor_divide", f = op == "fmod";
    return {{{7, 0}, {0}},
            {{lo, -1}, {q ? lo : 0}},
            {{-7, 2}, {q ? -4 : (f ? -1 : 1)}},
            {{7, -2}, {q ? -4 : (f ? 1 : -1)}}};
  }
  if (op == "gcd") return {{{lo, 0}, {lo}}, {{lo, lo}, {lo}}, {{0, 0}, {0}}};
  if (op == "absolute") return {{{lo}, {lo}}, {{lo + 1}, {hi}}};
  if (op == "divmod") {
    return {{{7, 0}, {0, 0}},     {{-7, 0}, {0, 0}},    {{0, 0}, {0, 0}},
            {{lo, -1}, {lo, 0}},  {{hi, -1}, {-hi, 0}}, {{7, -2}, {-4, -1}},
            {{-7, 2}, {-4, 1}},   {{-7, -2}, {3, -1}},  {{lo, hi}, {-2, hi - 1}},
            {{hi, lo}, {-1, -1}}, {{lo, 1}, {lo, 0}},   {{-1, hi}, {-1, hi - 1}}};
  }
  return {};
}

long double gamma(DType t, std::int64_t n) {
  const long double u = std::ldexp(1.0L, -mantissa_digits(t));
  return n <= 0 ? 0 : n * u / (1 - n * u);
}

}  // namespace parity
