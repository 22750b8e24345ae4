// Printing arrays as NumPy 2 prints them: numpy/_core/arrayprint.py (FloatingFormat,
// _formatArray) with the default print options, and NumPy's scalar str for 0-d arrays; one
// floating-point value: float_format.cpp.
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdlib>
#include <ostream>
#include <string>
#include <vector>

#include "loom/array.hpp"
#include "types/float_format.hpp"

namespace loom {

using detail::FloatFormat;
using detail::scalar_float;

namespace {

constexpr int kLineWidth = 75, kThreshold = 1000, kEdgeItems = 3;

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
  // Appended, not "[" + std::string: the split of this file changed GCC 12's inlining enough for
  // that to trip -Wrestrict (PR 105329) here and below.
  std::string r = "[";
  r += s.substr(indent.size());
  r += "]";
  return r;
}

std::string array_body(const Array& a, const std::string& sep, const std::string& prefix,
                       int width) {
  if (a.size() == 0) return "[]";
  const bool summary = a.size() > kThreshold;
  const auto fmt = element_format(a, summary);
  return format_rec(a, fmt, a.data(), 0, std::string(prefix.size() + 1, ' '), width, sep, summary);
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
      std::string r = "(";
      r += scalar_float(re, part_dtype(t), true);
      r += is;
      r += "j)";
      return r;
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
  std::string gap = wrap ? "\n" : " ";
  if (wrap) gap.append(prefix.size(), ' ');
  return out + gap + extra;
}

std::ostream& operator<<(std::ostream& os, const Array& a) { return os << format(a); }

}  // namespace loom
