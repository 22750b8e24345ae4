// loom-demo's shared pieces: checking answers and printing the table.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <sstream>

#include "demo.hpp"

namespace loom::demo {

std::int64_t Context::scaled(std::int64_t n, std::int64_t min) const {
  return std::max(min, static_cast<std::int64_t>(std::llround(static_cast<double>(n) * scale)));
}

std::string Check::str() const {
  if (!problem.empty()) return "FAIL  " + problem;
  if (!note.empty()) return (pass ? "PASS  " : "FAIL  ") + note;
  char buf[128];
  std::snprintf(buf, sizeof buf, "%s  max abs err %.2e, rel err %.2e (tol %.1e)",
                pass ? "PASS" : "FAIL", max_abs, rel, tol);
  return buf;
}

Check compare(const Array& got, const Shape& shape, DType dtype, const std::vector<double>& ref,
              double tol) {
  Check c;
  c.tol = tol;
  if (got.shape() != shape || got.dtype() != dtype) {
    c.problem = "expected " + std::string(name(dtype)) + " of shape " + shape_str(shape) +
                ", got " + got.str();
    return c;
  }
  const std::vector<double> v = got.to_vector<double>();
  double scale = 0;
  bool finite = true;
  for (std::size_t i = 0; i < v.size(); ++i) {
    const double d = std::abs(v[i] - ref[i]);
    if (!std::isfinite(v[i]) && v[i] != ref[i]) finite = false;
    c.max_abs = std::max(c.max_abs, d);
    scale = std::max(scale, std::abs(ref[i]));
  }
  c.rel = scale > 0 ? c.max_abs / scale : c.max_abs;
  c.pass = finite && c.rel <= tol;
  if (!finite) c.problem = "non-finite values where the reference is finite";
  return c;
}

double fold_tolerance(DType t, std::int64_t n, double floor) {
  const double eps = t == DType::float32 ? 0x1.0p-24 : 0x1.0p-53;
  return std::max(floor, 8 * std::sqrt(static_cast<double>(n)) * eps);
}

Row guarded_row(const Context& ctx, std::string name, std::string shape, DType dtype,
                const std::function<void(Row&)>& body) {
  Row row{std::move(name), ctx.target, std::move(shape), std::string(loom::name(dtype)), NAN, {}};
  try {
    body(row);
  } catch (const std::exception& e) {
    row.check = {};
    row.check.problem = e.what();
  }
  return row;
}

namespace {

std::string format_time(double s) {
  if (std::isnan(s)) return "-";
  char buf[32];
  if (s < 1e-3) {
    std::snprintf(buf, sizeof buf, "%.1f us", s * 1e6);
  } else if (s < 1) {
    std::snprintf(buf, sizeof buf, "%.2f ms", s * 1e3);
  } else {
    std::snprintf(buf, sizeof buf, "%.2f s", s);
  }
  return buf;
}

}  // namespace

void print_table(const std::vector<Row>& rows) {
  const std::vector<std::string> head = {"case", "target", "shape", "dtype", "time", "check"};
  std::vector<std::vector<std::string>> cells;
  for (const auto& r : rows) {
    cells.push_back({r.name, r.target, r.shape, r.dtype, format_time(r.seconds), r.check.str()});
  }
  std::vector<std::size_t> w(head.size());
  for (std::size_t k = 0; k < head.size(); ++k) {
    w[k] = head[k].size();
    for (const auto& c : cells) w[k] = std::max(w[k], c[k].size());
  }
  auto line = [&](const std::vector<std::string>& c) {
    std::ostringstream os;
    for (std::size_t k = 0; k < c.size(); ++k) {
      if (k) os << " | ";
      // Right-align the time so magnitudes line up; the last column is not padded.
      const std::string pad(k + 1 < c.size() ? w[k] - c[k].size() : 0, ' ');
      os << (k == 4 ? pad + c[k] : c[k] + pad);
    }
    std::cout << os.str() << "\n";
  };
  line(head);
  std::string rule;
  for (std::size_t k = 0; k < w.size(); ++k) {
    rule += std::string(k + 1 < w.size() ? w[k] : 5, '-') + (k + 1 < w.size() ? "-+-" : "");
  }
  std::cout << rule << "\n";
  for (const auto& c : cells) line(c);
}

}  // namespace loom::demo
