// One floating-point value as NumPy 2 prints it: Dragon4's shortest and rounded digits (through
// std::to_chars), NumPy's FloatingFormat for the elements of an array, NumPy's str of a scalar.
#include "types/float_format.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>

#include "loom/float16.hpp"

namespace loom::detail {

namespace {

constexpr int kPrecision = 8;

Digits parse_sci(const char* b, const char* e) {
  Digits out;
  const char* p = b;
  for (; p != e && *p != 'e'; ++p) {
    if (*p != '.') out.d += *p;
  }
  // The buffer is not NUL-terminated: read the exponent within [p + 1, e).
  const char* q = p + 1;
  const bool neg = q != e && *q == '-';
  if (q != e && (*q == '-' || *q == '+')) ++q;
  std::from_chars(q, e, out.exp);
  if (neg) out.exp = -out.exp;
  return out;
}

}  // namespace

Digits shortest(double x, DType t) {
  char buf[64];
  std::to_chars_result r;
  if (t == DType::float32) {
    r = std::to_chars(buf, buf + sizeof buf, static_cast<float>(x), std::chars_format::scientific);
  } else if (t == DType::float64) {
    r = std::to_chars(buf, buf + sizeof buf, x, std::chars_format::scientific);
  } else {  // float16: the fewest correctly rounded digits that read back as the same half
    const std::uint16_t bits = float16_t::from_double(x).bits;
    for (int p = 0;; ++p) {
      r = std::to_chars(buf, buf + sizeof buf, x, std::chars_format::scientific, p);
      if (float16_t::from_double(std::strtod(std::string(buf, r.ptr).c_str(), nullptr)).bits ==
          bits) {
        break;
      }
    }
  }
  return parse_sci(buf, r.ptr);
}

namespace {

// Digits rounded (exactly, ties to even) to `frac` fractional digits, positional or scientific.
Digits rounded(double x, bool scientific, int frac) {
  char buf[400];
  if (scientific) {
    auto r = std::to_chars(buf, buf + sizeof buf, x, std::chars_format::scientific, frac);
    return parse_sci(buf, r.ptr);
  }
  auto r = std::to_chars(buf, buf + sizeof buf, x, std::chars_format::fixed, frac);
  std::string s(buf, r.ptr);
  const auto dot = s.find('.');
  std::string ip = s.substr(0, dot), fp = dot == std::string::npos ? "" : s.substr(dot + 1);
  // Back to significant digits: positional callers only need int and fraction parts.
  Digits out;
  out.d = ip + fp;
  out.exp = static_cast<int>(ip.size()) - 1;
  return out;
}

// Int and fraction parts of |x| in unique mode capped at kPrecision fractional digits
// (Dragon4's unique digits, cut off and rounded at the precision), trailing zeros trimmed.
void positional_parts(double ax, DType t, std::string& ip, std::string& fp) {
  if (ax == 0) {
    // assign(1, '0'), not = "0": GCC 12 warns -Wrestrict on the latter here (PR 105651).
    ip.assign(1, '0');
    fp.clear();
    return;
  }
  Digits g = shortest(ax, t);
  const int nfrac = static_cast<int>(g.d.size()) - 1 - g.exp;
  if (nfrac > kPrecision) g = rounded(ax, false, kPrecision);
  // Digits d at exponent exp: int part is the first exp+1 digits (zeros when fewer).
  const int n = static_cast<int>(g.d.size());
  if (g.exp >= 0) {
    ip = g.d.substr(0, std::min(n, g.exp + 1));
    if (n < g.exp + 1) ip.append(g.exp + 1 - n, '0');
    fp = n > g.exp + 1 ? g.d.substr(g.exp + 1) : "";
  } else {
    ip.assign(1, '0');
    fp = std::string(-g.exp - 1, '0') + g.d;
  }
  while (!fp.empty() && fp.back() == '0') fp.pop_back();
  const auto nz = ip.find_first_not_of('0');  // "0012" from a fixed rounding is not possible,
  ip = nz == std::string::npos ? "0" : ip.substr(nz);  // but "00" for 0.000... is
}

// Mantissa int digit, mantissa fraction and exponent of |x| > 0 in unique mode capped at
// kPrecision fractional digits, trailing zeros trimmed.
void scientific_parts(double ax, DType t, std::string& ip, std::string& fp, int& exp) {
  if (ax == 0) {
    ip.assign(1, '0');
    fp.clear();
    exp = 0;
    return;
  }
  Digits g = shortest(ax, t);
  if (static_cast<int>(g.d.size()) - 1 > kPrecision) g = rounded(ax, true, kPrecision);
  ip = g.d.substr(0, 1);
  fp = g.d.substr(1);
  while (!fp.empty() && fp.back() == '0') fp.pop_back();
  exp = g.exp;
}

}  // namespace

std::string exp_str(int exp, int digits) {
  std::string e = std::to_string(std::abs(exp));
  if (static_cast<int>(e.size()) < digits) e.insert(0, digits - e.size(), '0');
  return std::string(exp < 0 ? "-" : "+") + e;
}

FloatFormat::FloatFormat(const std::vector<double>& vals, DType t, bool plus) : t_(t), plus_(plus) {
  std::vector<double> fin;
  bool has_nonfinite = false, neg_inf = false;
  for (double v : vals) {
    if (std::isfinite(v)) {
      fin.push_back(v);
    } else {
      has_nonfinite = true;
      neg_inf = neg_inf || (std::isinf(v) && v < 0);
    }
  }
  double mx = 0, mn = INFINITY;
  for (double v : fin) {
    if (v != 0) mx = std::max(mx, std::fabs(v)), mn = std::min(mn, std::fabs(v));
  }
  if (mx > 0) exp_ = mx >= 1e8 || mn < 1e-4 || mx / mn > 1e3;
  if (fin.empty()) {
    pad_left_ = pad_right_ = 0;
  } else if (exp_) {
    int exp_digits = 0;
    for (double v : fin) {
      std::string ip, fp;
      int e = 0;
      scientific_parts(std::fabs(v), t_, ip, fp, e);
      precision_ = std::max(precision_, static_cast<int>(fp.size()));
      exp_digits = std::max(exp_digits, static_cast<int>(exp_str(e, 2).size()) - 1);
      pad_left_ = std::max(pad_left_, static_cast<int>(ip.size()) + sign_width(v));
    }
    exp_digits_ = exp_digits;
    pad_right_ = exp_digits_ + 2 + precision_;
  } else {
    for (double v : fin) {
      std::string ip, fp;
      positional_parts(std::fabs(v), t_, ip, fp);
      pad_left_ = std::max(pad_left_, static_cast<int>(ip.size()) + sign_width(v));
      pad_right_ = std::max(pad_right_, static_cast<int>(fp.size()));
    }
  }
  if (has_nonfinite) {  // room for nan / inf / -inf right-aligned under the numbers
    const int offset = pad_right_ + 1;
    pad_left_ = std::max({pad_left_, 3 - offset, 3 + ((plus_ || neg_inf) ? 1 : 0) - offset});
  }
}

std::string FloatFormat::operator()(double v) const {
  if (!std::isfinite(v)) {
    std::string r = std::isnan(v) ? (plus_ ? "+nan" : "nan")
                                  : std::string(v < 0   ? "-"
                                                : plus_ ? "+"
                                                        : "") +
                                        "inf";
    const int w = pad_left_ + pad_right_ + 1;
    return std::string(std::max(0, w - static_cast<int>(r.size())), ' ') + r;
  }
  const std::string sign = std::signbit(v) ? "-" : plus_ ? "+" : "";
  std::string ip, fp, out;
  if (exp_) {
    int e = 0;
    scientific_parts(std::fabs(v), t_, ip, fp, e);
    fp.append(precision_ - fp.size(), '0');  // trim 'k': every mantissa as long
    out = sign + ip;
    out.insert(0, std::max(0, pad_left_ - static_cast<int>(out.size())), ' ');
    return out + "." + fp + "e" + exp_str(e, exp_digits_);
  }
  positional_parts(std::fabs(v), t_, ip, fp);
  out = sign + ip;
  out.insert(0, std::max(0, pad_left_ - static_cast<int>(out.size())), ' ');
  return out + "." + fp + std::string(std::max(0, pad_right_ - static_cast<int>(fp.size())), ' ');
}

std::string scalar_float(double v, DType t, bool trim_to_int) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v < 0 ? "-inf" : "inf";
  const std::string sign = std::signbit(v) ? "-" : "";
  const double ax = std::fabs(v);
  if (ax == 0 || (ax >= 1e-4 && ax < 1e16)) {
    Digits g = shortest(ax == 0 ? 1 : ax, t);
    if (ax == 0) g = {"0", 0};
    std::string ip, fp;
    const int n = static_cast<int>(g.d.size());
    if (g.exp >= 0) {
      ip = g.d.substr(0, std::min(n, g.exp + 1)) + std::string(std::max(0, g.exp + 1 - n), '0');
      fp = n > g.exp + 1 ? g.d.substr(g.exp + 1) : "";
    } else {
      ip.assign(1, '0');
      fp = std::string(-g.exp - 1, '0') + g.d;
    }
    if (fp.empty()) return sign + ip + (trim_to_int ? "" : ".0");
    return sign + ip + "." + fp;
  }
  const Digits g = shortest(ax, t);
  const std::string mant = g.d.size() > 1 ? g.d.substr(0, 1) + "." + g.d.substr(1) : g.d;
  return sign + mant + "e" + exp_str(g.exp, 2);
}

}  // namespace loom::detail
