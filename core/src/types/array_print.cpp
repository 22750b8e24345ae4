// Printing arrays as NumPy 2 prints them: numpy/_core/arrayprint.py (FloatingFormat,
// _formatArray) with the default print options, and NumPy's scalar str for 0-d arrays.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <complex>
#include <cstdlib>
#include <ostream>
#include <string>
#include <vector>

#include "loom/array.hpp"

namespace loom {

namespace {

constexpr int kPrecision = 8, kLineWidth = 75, kThreshold = 1000, kEdgeItems = 3;

// ---- one floating-point value as Dragon4 prints it ----

// Shortest decimal that reads back as the same value of dtype t (float16, float32, float64):
// significant digits and the exponent of the first one (x = 0.d1d2... * 10^(exp + 1)). |x| > 0.
struct Digits {
  std::string d;
  int exp;
};

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
    ip = "0";
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
    ip = "0";
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
    ip = "0";
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

std::string exp_str(int exp, int digits) {
  std::string e = std::to_string(std::abs(exp));
  if (static_cast<int>(e.size()) < digits) e.insert(0, digits - e.size(), '0');
  return std::string(exp < 0 ? "-" : "+") + e;
}

// NumPy's FloatingFormat (floatmode 'maxprec', precision 8, suppress False): the widths and the
// notation come from every value shown; `plus` is sign='+' (a complex number's imaginary part).
class FloatFormat {
 public:
  FloatFormat(const std::vector<double>& vals, DType t, bool plus) : t_(t), plus_(plus) {
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

  std::string operator()(double v) const {
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

 private:
  int sign_width(double v) const { return std::signbit(v) || plus_ ? 1 : 0; }
  DType t_;
  bool plus_;
  bool exp_ = false;
  int pad_left_ = 0, pad_right_ = 0, precision_ = 0, exp_digits_ = 2;
};

// ---- reading elements ----

double real_at(const char* p, DType t) {
  return visit_dtype(t, [&](auto z) -> double {
    using T = decltype(z);
    T v;
    std::memcpy(&v, p, sizeof v);
    if constexpr (std::is_same_v<T, float16_t>) {
      return static_cast<float>(v);
    } else if constexpr (requires { v.real(); }) {
      return static_cast<double>(v.real());
    } else {
      return static_cast<double>(v);
    }
  });
}
double imag_at(const char* p, DType t) {
  if (t == DType::complex64) {
    std::complex<float> v;
    std::memcpy(&v, p, sizeof v);
    return v.imag();
  }
  std::complex<double> v;
  std::memcpy(&v, p, sizeof v);
  return v.imag();
}
DType part_dtype(DType t) {
  return t == DType::complex64 ? DType::float32 : t == DType::complex128 ? DType::float64 : t;
}

std::string int_str(const char* p, DType t) {
  return visit_dtype(t, [&](auto z) -> std::string {
    using T = decltype(z);
    if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
      T v;
      std::memcpy(&v, p, sizeof v);
      return std::to_string(+v);
    } else {
      return {};
    }
  });
}

// Calls f(pointer) for every element shown (the leading and trailing edge items of each axis when
// summarising), in C order.
template <class F>
void each_shown(const Array& a, bool summary, int axis, const char* p, F&& f) {
  if (axis == a.ndim()) return f(p);
  const std::int64_t n = a.shape()[axis], st = a.strides()[axis];
  const bool cut = summary && 2 * kEdgeItems < n;
  for (std::int64_t i = 0; i < n; ++i) {
    if (cut && i == kEdgeItems) i = n - kEdgeItems;
    each_shown(a, summary, axis + 1, p + i * st, f);
  }
}

// The element formatter for the elements shown (NumPy's _get_format_function).
std::function<std::string(const char*)> element_format(const Array& a, bool summary) {
  const DType t = a.dtype();
  const Kind k = kind(t);
  if (k == Kind::boolean) {
    const std::string yes = a.ndim() > 0 ? " True" : "True";
    return [yes](const char* p) { return *p ? yes : std::string("False"); };
  }
  if (k == Kind::signed_int || k == Kind::unsigned_int) {
    std::size_t w = 0;
    each_shown(a, summary, 0, a.data(),
               [&](const char* p) { w = std::max(w, int_str(p, t).size()); });
    return [w, t](const char* p) {
      std::string s = int_str(p, t);
      return std::string(w - std::min(w, s.size()), ' ') + s;
    };
  }
  std::vector<double> re, im;
  each_shown(a, summary, 0, a.data(), [&](const char* p) {
    re.push_back(real_at(p, t));
    if (k == Kind::complex) im.push_back(imag_at(p, t));
  });
  FloatFormat rf(re, part_dtype(t), false);
  if (k != Kind::complex) return [rf, t](const char* p) { return rf(real_at(p, t)); };
  FloatFormat imf(im, part_dtype(t), true);
  return [rf, imf, t](const char* p) {
    std::string i = imf(imag_at(p, t));
    const auto sp = i.find_last_not_of(' ') + 1;  // 'j' before the padding
    return rf(real_at(p, t)) + i.substr(0, sp) + "j" + i.substr(sp);
  };
}

// NumPy's _extendLine: wrap when the word would pass the width, unless the line is still empty.
void extend_line(std::string& s, std::string& line, const std::string& word, int width,
                 const std::string& prefix) {
  if (static_cast<int>(line.size() + word.size()) > width && line.size() > prefix.size()) {
    while (!line.empty() && line.back() == ' ') line.pop_back();
    s += line + "\n";
    line = prefix;
  }
  line += word;
}

// NumPy's _formatArray.
std::string format_rec(const Array& a, const std::function<std::string(const char*)>& fmt,
                       const char* p, int axis, const std::string& indent, int width,
                       const std::string& sep, bool summary) {
  if (axis == a.ndim()) return fmt(p);
  const std::string next_indent = indent + " ";
  const int next_width = width - 1;
  const std::int64_t n = a.shape()[axis], st = a.strides()[axis];
  const bool cut = summary && 2 * kEdgeItems < n;
  const std::int64_t lead = cut ? kEdgeItems : 0, trail = cut ? kEdgeItems : n;
  auto sub = [&](std::int64_t i) {
    return format_rec(a, fmt, p + i * st, axis + 1, next_indent, next_width, sep, summary);
  };
  std::string s;
  std::string sep_r = sep;
  while (!sep_r.empty() && sep_r.back() == ' ') sep_r.pop_back();
  if (axis == a.ndim() - 1) {
    const int elem_width = width - std::max(static_cast<int>(sep_r.size()), 1);
    std::string line = indent;
    for (std::int64_t i = 0; i < lead; ++i) {
      extend_line(s, line, sub(i), elem_width, indent);
      line += sep;
    }
    if (cut) {
      extend_line(s, line, "...", elem_width, indent);
      line += sep;
    }
    for (std::int64_t i = trail; i > 1; --i) {
      extend_line(s, line, sub(n - i), elem_width, indent);
      line += sep;
    }
    extend_line(s, line, sub(n - 1), elem_width, indent);
    s += line;
  } else {
    const std::string line_sep = sep_r + std::string(a.ndim() - 1 - axis, '\n');
    for (std::int64_t i = 0; i < lead; ++i) s += indent + sub(i) + line_sep;
    if (cut) s += indent + "..." + line_sep;
    for (std::int64_t i = trail; i > 1; --i) s += indent + sub(n - i) + line_sep;
    s += indent + sub(n - 1);
  }
  return "[" + s.substr(indent.size()) + "]";
}

std::string array_body(const Array& a, const std::string& sep, const std::string& prefix,
                       int width) {
  if (a.size() == 0) return "[]";
  const bool summary = a.size() > kThreshold;
  const auto fmt = element_format(a, summary);
  return format_rec(a, fmt, a.data(), 0, " " + std::string(prefix.size(), ' '), width, sep,
                    summary);
}

// NumPy's str of a float scalar: positional from 1e-4 up to 1e16, else scientific; unique digits.
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
      ip = "0";
      fp = std::string(-g.exp - 1, '0') + g.d;
    }
    if (fp.empty()) return sign + ip + (trim_to_int ? "" : ".0");
    return sign + ip + "." + fp;
  }
  const Digits g = shortest(ax, t);
  const std::string mant = g.d.size() > 1 ? g.d.substr(0, 1) + "." + g.d.substr(1) : g.d;
  return sign + mant + "e" + exp_str(g.exp, 2);
}

std::string scalar_str(const Array& a) {
  const DType t = a.dtype();
  const char* p = a.data();
  switch (kind(t)) {
    case Kind::boolean:
      return *p ? "True" : "False";
    case Kind::signed_int:
    case Kind::unsigned_int:
      return int_str(p, t);
    case Kind::floating:
      return scalar_float(real_at(p, t), t, false);
    case Kind::complex: {
      // Python's complex repr: (1+2j), and 2j alone when the real part is +0.
      const double re = real_at(p, t), im = imag_at(p, t);
      std::string is = scalar_float(im, part_dtype(t), true);
      if (re == 0 && !std::signbit(re)) return is + "j";
      if (is[0] != '-') is = "+" + is;
      return "(" + scalar_float(re, part_dtype(t), true) + is + "j)";
    }
  }
  return {};
}

void require_printable(const Array& a, const char* what) {
  if (!a.valid()) throw ValueError(std::string(what) + " on an empty (default-constructed) Array");
  if (!a.device().is_host()) {
    throw DeviceError(std::string(what) + " needs a host array, got " + a.str() +
                      "; copy it to the host first (Runtime::to_host)");
  }
}

}  // namespace

std::string format(const Array& a) {
  require_printable(a, "format()");
  if (a.ndim() == 0) return scalar_str(a);
  return array_body(a, " ", "", kLineWidth);
}

std::string repr(const Array& a) {
  require_printable(a, "repr()");
  const std::string prefix = "array(";
  std::string body = a.size() == 0 ? "[]" : array_body(a, ", ", prefix, kLineWidth - 1);
  std::vector<std::string> extras;
  if ((a.size() == 0 && !(a.ndim() == 1)) || a.size() > kThreshold) {
    extras.push_back("shape=" + shape_str(a.shape()));
  }
  const DType t = a.dtype();
  const bool implied =
      t == DType::float64 || t == DType::int64 || t == DType::bool_ || t == DType::complex128;
  if (!implied || a.size() == 0) extras.push_back("dtype=" + std::string(name(t)));
  if (extras.empty()) return prefix + body + ")";
  std::string out = prefix + body + ",", extra;
  for (const auto& e : extras) extra += (extra.empty() ? "" : ", ") + e;
  extra += ")";
  const auto nl = out.rfind('\n');
  const std::size_t last = out.size() - (nl == std::string::npos ? 0 : nl + 1);
  const bool wrap = static_cast<int>(last + extra.size() + 1) > kLineWidth;
  return out + (wrap ? "\n" + std::string(prefix.size(), ' ') : " ") + extra;
}

std::ostream& operator<<(std::ostream& os, const Array& a) { return os << format(a); }

}  // namespace loom
