// The element checker, ulp arithmetic and run counters of the parity suite.
#include "common.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>

namespace parity {

namespace {
// The reference itself is a long double (64-bit significand): its own rounding is below 2^-11
// ulp of a double, which this slack absorbs so that a correctly rounded result passes a 0.5 bound.
constexpr double kRefSlack = 1.0 / 512;
constexpr int kMaxFailuresShown = 8;
}  // namespace

bool is_float(DType t) { return t == DType::float16 || t == DType::float32 || t == DType::float64; }
bool is_integer(DType t) {
  const auto k = loom::kind(t);
  return k == loom::Kind::boolean || k == loom::Kind::signed_int || k == loom::Kind::unsigned_int;
}
bool is_complex(DType t) { return t == DType::complex64 || t == DType::complex128; }
DType component(DType t) {
  return t == DType::complex64 ? DType::float32 : t == DType::complex128 ? DType::float64 : t;
}
int mantissa_digits(DType t) { return t == DType::float16 ? 11 : t == DType::float32 ? 24 : 53; }
int min_exponent(DType t) { return t == DType::float16 ? -14 : t == DType::float32 ? -126 : -1022; }

long double ulp(DType t, long double x) {
  x = std::fabs(x);
  int e = (x == 0 || !std::isfinite(x)) ? min_exponent(t) : std::ilogb(x);
  if (e < min_exponent(t)) e = min_exponent(t);
  return std::ldexp(1.0L, e - (mantissa_digits(t) - 1));
}

long double round_to(DType t, long double x) {
  if (t == DType::float16) {
    return static_cast<float>(loom::float16_t::from_double(static_cast<double>(x)));
  }
  if (t == DType::float32) return static_cast<float>(x);
  if (t == DType::float64) return static_cast<double>(x);
  return x;
}

std::vector<long double> values(const Array& a) {
  std::vector<long double> out;
  out.reserve(static_cast<std::size_t>(a.size()));
  if (is_integer(a.dtype()) && a.dtype() != DType::uint64) {
    for (auto v : a.to_vector<std::int64_t>()) out.push_back(static_cast<long double>(v));
  } else if (a.dtype() == DType::uint64) {
    for (auto v : a.to_vector<std::uint64_t>()) out.push_back(static_cast<long double>(v));
  } else {
    for (auto v : a.to_vector<double>()) out.push_back(v);
  }
  return out;
}

std::vector<CL> cvalues(const Array& a) {
  std::vector<CL> out;
  out.reserve(static_cast<std::size_t>(a.size()));
  for (auto v : a.to_vector<std::complex<double>>()) out.emplace_back(v.real(), v.imag());
  return out;
}

std::vector<unsigned char> bytes(const Array& a) {
  const Array c = a.copy();
  std::vector<unsigned char> out(static_cast<std::size_t>(c.size()) * c.itemsize());
  if (!out.empty()) std::memcpy(out.data(), c.data(), out.size());
  return out;
}

std::string fmt(long double x) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.21Lg", x);
  return buf;
}

std::string loop_name(const loom::Signature& s) {
  std::string n;
  for (auto t : s.inputs) n.append(loom::name(t)).append("_");
  n.append("to");
  for (auto t : s.outputs) n.append("_").append(loom::name(t));
  return n;
}

Stats& stats() {
  static Stats s;
  return s;
}

void Checker::fail(const std::string& message) {
  if (++failures_ <= kMaxFailuresShown) {
    ADD_FAILURE() << message;
  } else if (failures_ == kMaxFailuresShown + 1) {
    ADD_FAILURE() << "(further mismatches of this case are not shown)";
  }
}

void Checker::expect(bool ok, const std::string& message) {
  ++checks_;
  if (!ok) fail(message);
}

bool Checker::value(DType t, long double got, long double ref, const Bound& b, const Where& w) {
  ++checks_;
  bool ok;
  double err = 0;
  if (!is_float(t)) {
    ok = got == ref;
  } else if (std::isnan(ref)) {
    ok = std::isnan(got);
  } else {
    const long double ref_t = round_to(t, ref);
    if (std::isinf(ref_t) || std::isinf(got)) {
      ok = got == ref_t;
    } else {
      const long double d = std::fabs(got - ref);
      err = static_cast<double>(b.mode == Bound::ulps ? d / ulp(t, ref) : d);
      ok = b.mode == Bound::ulps ? err <= b.value + kRefSlack : d <= b.value * (1 + 1e-6L);
      if (ok && b.zero_sign && ref == 0 && got == 0) ok = std::signbit(got) == std::signbit(ref);
      note_worst(err, b, w);
    }
  }
  if (!ok) {
    std::string in;
    for (auto x : w.inputs) in += (in.empty() ? "" : ", ") + fmt(x);
    fail(w.scenario + " " + w.what + ": element " + std::to_string(w.index) + " (inputs " + in +
         ") gave " + fmt(got) + ", expected " + fmt(ref) +
         (is_float(t) && !std::isnan(ref) && std::isfinite(got)
              ? " (error " + fmt(err) + (b.mode == Bound::ulps ? " ulp" : "") + ", bound " +
                    fmt(b.value) + ")"
              : ""));
  }
  return ok;
}

void Checker::note_worst(double err, const Bound& b, const Where& w) {
  auto& worst = stats().worst[key_];
  const double rel = b.mode == Bound::ulps ? err : (b.value > 0 ? err / b.value : 0);
  if (rel > worst.err) {
    std::string in;
    for (auto x : w.inputs) in += (in.empty() ? "" : ", ") + fmt(x);
    worst = {rel, b.mode == Bound::ulps ? b.value : 1.0,
             b.mode == Bound::ulps ? "ulp" : "of sum bound", w.scenario + " (" + in + ")"};
  }
}

bool Checker::cvalue(DType t, CL got, CL ref, const Bound& b, const Where& w) {
  ++checks_;
  const DType c = component(t);
  const long double g[2] = {got.real(), got.imag()}, r[2] = {ref.real(), ref.imag()};
  bool special = false;
  for (int k = 0; k < 2; ++k) {
    special = special || !std::isfinite(g[k]) || !std::isfinite(round_to(c, r[k]));
  }
  bool ok = true;
  double err = 0;
  auto scaled = [&](long double d, long double scale) {
    return static_cast<double>(b.mode == Bound::ulps ? d / ulp(c, scale) : d);
  };
  if (special) {
    for (int k = 0; k < 2; ++k) {
      const long double rk = round_to(c, r[k]);
      if (std::isnan(r[k])) {
        ok = ok && std::isnan(g[k]);
      } else if (std::isinf(rk) || !std::isfinite(g[k])) {
        ok = ok && g[k] == rk;
      } else {
        const double e = scaled(std::fabs(g[k] - r[k]), r[k]);
        err = std::max(err, e);
        ok = ok && e <= b.value + kRefSlack;
      }
    }
  } else {
    const long double scale = std::max(std::fabs(r[0]), std::fabs(r[1]));
    err = std::max(scaled(std::fabs(g[0] - r[0]), scale), scaled(std::fabs(g[1] - r[1]), scale));
    ok = err <= b.value + (b.mode == Bound::ulps ? kRefSlack : b.value * 1e-6);
    note_worst(err, b, w);
  }
  for (int k = 0; ok && b.zero_sign && k < 2; ++k) {
    if (r[k] == 0 && g[k] == 0) ok = std::signbit(g[k]) == std::signbit(r[k]);
  }
  if (!ok) {
    std::string in;
    for (auto x : w.inputs) in += (in.empty() ? "" : ", ") + fmt(x);
    fail(w.scenario + " " + w.what + ": element " + std::to_string(w.index) + " (inputs " + in +
         ") gave " + fmt(g[0]) + (std::signbit(g[1]) ? " - " : " + ") + fmt(std::fabs(g[1])) +
         "i, expected " + fmt(r[0]) + (std::signbit(r[1]) ? " - " : " + ") + fmt(std::fabs(r[1])) +
         "i (error " + fmt(err) + (b.mode == Bound::ulps ? " ulp" : "") + ", bound " +
         fmt(b.value) + ")");
  }
  return ok;
}

bool Checker::same_bits(const Array& got, const Array& ref, const std::string& scenario,
                        const std::string& what) {
  return same_bits(got, ref, scenario, [&] { return what; });
}

bool Checker::same_bits(const Array& got, const Array& ref, const std::string& scenario,
                        const std::function<std::string()>& describe) {
  ++checks_;
  if (got.shape() != ref.shape() || got.dtype() != ref.dtype()) {
    fail(scenario + " " + describe() + ": got " + got.str() + ", expected " + ref.str());
    return false;
  }
  const auto a = bytes(got), b = bytes(ref);
  if (a == b) return true;
  // Equal bits, except that any two NaNs are equal: IEEE 754 leaves a NaN's sign and payload
  // unspecified, and SIMD and scalar code legitimately differ there.
  const std::size_t isz = got.itemsize();
  if (is_complex(got.dtype())) {  // each part: equal bits, or NaN on both sides
    const auto ca = cvalues(got), cb = cvalues(ref);
    for (std::size_t e = 0; e < ca.size(); ++e) {
      auto same = [](long double x, long double y) {
        return (std::isnan(x) && std::isnan(y)) || (x == y && std::signbit(x) == std::signbit(y));
      };
      if (same(ca[e].real(), cb[e].real()) && same(ca[e].imag(), cb[e].imag())) continue;
      fail(scenario + " " + describe() + ": not bitwise equal; first difference at element " +
           std::to_string(e) + ": " + fmt(ca[e].real()) + " + " + fmt(ca[e].imag()) + "i vs " +
           fmt(cb[e].real()) + " + " + fmt(cb[e].imag()) + "i");
      return false;
    }
    return true;
  }
  const auto va = values(got), vb = values(ref);
  for (std::size_t e = 0; e < va.size(); ++e) {
    if (std::memcmp(&a[e * isz], &b[e * isz], isz) == 0) continue;
    if (is_float(got.dtype()) && std::isnan(va[e]) && std::isnan(vb[e])) continue;
    fail(scenario + " " + describe() + ": not bitwise equal; first difference at element " +
         std::to_string(e) + ": " + fmt(va[e]) + " vs " + fmt(vb[e]));
    return false;
  }
  return true;
}

}  // namespace parity
