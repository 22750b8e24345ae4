// The element checker, ulp arithmetic and run counters of the parity suite.
#include "common.hpp"

#include <gtest/gtest.h>

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
      auto& worst = stats().worst[key_];
      const double rel = b.mode == Bound::ulps ? err : (b.value > 0 ? err / b.value : 0);
      if (rel > worst.err) {
        std::string in;
        for (auto x : w.inputs) in += (in.empty() ? "" : ", ") + fmt(x);
        worst = {rel, b.mode == Bound::ulps ? b.value : 1.0,
                 b.mode == Bound::ulps ? "ulp" : "of sum bound", w.scenario + " (" + in + ")"};
      }
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

bool Checker::same_bits(const Array& got, const Array& ref, const std::string& scenario,
                        const std::string& what) {
  ++checks_;
  if (got.shape() != ref.shape() || got.dtype() != ref.dtype()) {
    fail(scenario + " " + what + ": got " + got.str() + ", expected " + ref.str());
    return false;
  }
  const auto a = bytes(got), b = bytes(ref);
  if (a == b) return true;
  // Equal bits, except that any two NaNs are equal: IEEE 754 leaves a NaN's sign and payload
  // unspecified, and SIMD and scalar code legitimately differ there.
  const std::size_t isz = got.itemsize();
  const auto va = values(got), vb = values(ref);
  for (std::size_t e = 0; e < va.size(); ++e) {
    if (std::memcmp(&a[e * isz], &b[e * isz], isz) == 0) continue;
    if (is_float(got.dtype()) && std::isnan(va[e]) && std::isnan(vb[e])) continue;
    fail(scenario + " " + what + ": not bitwise equal; first difference at element " +
         std::to_string(e) + ": " + fmt(va[e]) + " vs " + fmt(vb[e]));
    return false;
  }
  return true;
}

}  // namespace parity
