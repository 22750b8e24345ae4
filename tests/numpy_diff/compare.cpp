#include "compare.hpp"

#include <cmath>
#include <complex>
#include <cstring>
#include <set>
#include <sstream>

#include "float_rule.hpp"

namespace numpy_diff {

const char* name(Finding f) {
  switch (f) {
    case Finding::foreign_exception:
      return "not a loom::Error";
    case Finding::loom_refuses:
      return "loom refuses where NumPy answers";
    case Finding::loom_answers:
      return "loom answers where NumPy refuses";
    case Finding::refusal_wrote:
      return "a refusal changed an argument";
    case Finding::input_changed:
      return "an input changed";
    case Finding::shape:
      return "result shape";
    case Finding::dtype:
      return "result dtype";
    case Finding::kind:
      return "result kind (integer vs float)";
    case Finding::value:
      return "result values";
    case Finding::exact_bound:
      return "sum further from the exact sum than O(log n)";
    case Finding::masked_not_zero:
      return "where= without out=: masked-out element not 0";
    case Finding::out_not_returned:
      return "out= not returned";
    case Finding::out_outside_written:
      return "out= written outside its view";
    case Finding::at_values:
      return "at: array values after the call";
    case Finding::refusal_missing:
      return "loom answers a call it documents a refusal of";
    case Finding::refusal_unlike:
      return "loom refuses a Python int out of bounds otherwise";
  }
  return "?";
}

std::string ufunc_of(const Case& c) {
  if (c.kind != "reduce") return c.op;
  if (c.op == "sum") return "add";
  if (c.op == "prod") return "multiply";
  if (c.op == "max") return "maximum";
  return "minimum";
}

namespace {

using loom::DType;
using loom::Kind;

bool is_float(DType t) { return loom::kind(t) == Kind::floating; }
bool is_complex(DType t) { return loom::kind(t) == Kind::complex; }

// Element indices (into the C-contiguous base) that a view of it covers.
std::set<std::int64_t> footprint(const loom::Array& base, const loom::Array& view) {
  std::set<std::int64_t> s;
  if (view.size() == 0) return s;
  const std::int64_t isz = static_cast<std::int64_t>(view.itemsize());
  const std::int64_t start = view.data() - base.data();
  const int nd = view.ndim();
  std::vector<std::int64_t> ix(nd, 0);
  for (;;) {
    std::int64_t off = start;
    for (int k = 0; k < nd; ++k) off += ix[k] * view.strides()[k];
    s.insert(off / isz);
    int k = nd - 1;
    while (k >= 0 && ++ix[k] == view.shape()[k]) ix[k--] = 0;
    if (k < 0) break;
  }
  return s;
}

std::string fmt(double v) {
  char b[40];
  std::snprintf(b, sizeof b, "%.17g", v);
  return b;
}

// Compares loom's array `got` (any dtype, NumPy's shape) with NumPy's values `want` of dtype
// `wdt`, element k of `want` being flat position sample[k] (k itself without a sample). `skip`:
// positions not to compare; null in `want` (where= without out=) must be 0 in loom's. Appends at
// most one problem of kind `what`.
void compare_values(const loom::Array& got, DType wdt, const json& want, const FloatRule& rule,
                    const json& scale, const json& count, Finding what,
                    const std::set<std::int64_t>* skip, std::vector<Problem>& out,
                    const std::vector<std::int64_t>& sample = {}) {
  const std::size_t m = want.size();
  std::ostringstream bad, maskbad;
  int nbad = 0, nmask = 0;
  auto pos = [&](std::size_t k) {
    return sample.empty() ? static_cast<std::int64_t>(k) : sample[k];
  };
  auto note = [&](std::int64_t i, const std::string& e, const std::string& l) {
    if (nbad++ < 4) bad << " [" << i << "] numpy " << e << " loom " << l << ";";
  };
  if (is_complex(wdt)) {
    const auto gc = got.astype(DType::complex128).to_vector<std::complex<double>>();
    for (std::size_t k = 0; k < m; ++k) {
      const std::int64_t i = pos(k);
      if (skip && skip->count(i)) continue;
      const std::complex<double> l = gc[static_cast<std::size_t>(i)];
      if (want[k].is_null()) {
        if (l != 0.0 && nmask++ < 3) maskbad << " [" << i << "] " << fmt(l.real());
        continue;
      }
      const std::complex<double> e(json_double(want[k].at(0)), json_double(want[k].at(1)));
      const double sc = scale.is_null() ? 0 : json_double(scale[k]);
      const double ct = count.is_null() ? 0 : json_double(count[k]);
      if (!complex_ok(e, l, rule, sc, ct)) {
        note(i, fmt(e.real()) + (e.imag() < 0 ? "" : "+") + fmt(e.imag()) + "j",
             fmt(l.real()) + (l.imag() < 0 ? "" : "+") + fmt(l.imag()) + "j");
      }
    }
  } else if (!is_float(wdt)) {
    const std::vector<double> gd = got.astype(DType::float64).to_vector<double>();
    // Integers and bools: loom's value in NumPy's dtype (wrapping), bit for bit.
    const loom::Array g = got.astype(wdt);
    const loom::Array w = loom::empty({static_cast<std::int64_t>(m)}, wdt);
    fill(w, want);
    const std::size_t isz = loom::itemsize(wdt);
    const std::vector<std::int64_t> gi = g.to_vector<std::int64_t>();
    for (std::size_t k = 0; k < m; ++k) {
      const std::int64_t i = pos(k);
      if (skip && skip->count(i)) continue;
      const auto iu = static_cast<std::size_t>(i);
      if (want[k].is_null()) {
        if (gd[iu] != 0 && nmask++ < 3) maskbad << " [" << i << "]";
        continue;
      }
      if (std::memcmp(g.data() + i * isz, w.data() + k * isz, isz) != 0) {
        note(i, want[k].dump(),
             std::to_string(gi[iu]) + " (as " + std::string(loom::name(wdt)) + "; " + fmt(gd[iu]) +
                 " in loom's " + std::string(loom::name(got.dtype())) + ")");
      }
    }
  } else {
    const std::vector<double> gd = got.astype(DType::float64).to_vector<double>();
    for (std::size_t k = 0; k < m; ++k) {
      const std::int64_t i = pos(k);
      if (skip && skip->count(i)) continue;
      const double l = gd[static_cast<std::size_t>(i)];
      if (want[k].is_null()) {
        if (l != 0 && nmask++ < 3) maskbad << " [" << i << "] " << fmt(l);
        continue;
      }
      const double e = json_double(want[k]);
      const double sc = scale.is_null() ? 0 : json_double(scale[k]);
      const double ct = count.is_null() ? 0 : json_double(count[k]);
      if (!float_ok(e, l, rule, sc, ct)) {
        std::string extra;
        if (!scale.is_null()) extra = " (scale " + fmt(sc) + ", n " + fmt(ct) + ")";
        note(i, fmt(e), fmt(l) + extra);
      }
    }
  }
  if (nbad) {
    out.push_back(
        {what, std::to_string(nbad) + " of " + std::to_string(m) + " differ:" + bad.str()});
  }
  if (nmask) {
    out.push_back({Finding::masked_not_zero, std::to_string(nmask) + " elements:" + maskbad.str()});
  }
}

FloatRule rule_for(const Case& c, DType numpy_dt, DType loom_dt) {
  FloatRule r;
  DType forced = numpy_dt;
  if (c.kw.contains("dtype")) forced = loom::dtype_from_name(c.kw.at("dtype").get<std::string>());
  r.u = unit_roundoff({numpy_dt, loom_dt, is_float(forced) ? forced : numpy_dt});
  r.cmp = r.u == std::ldexp(1.0, -11)   ? DType::float16
          : r.u == std::ldexp(1.0, -24) ? DType::float32
                                        : DType::float64;
  const std::string uf = ufunc_of(c);
  const bool fold = c.method == "reduce" || c.method == "reduceat";
  if (uf == "add" && fold) {
    r.kind = FloatRule::sum;
  } else if (uf == "multiply" && fold) {
    r.kind = FloatRule::prod;
  } else if ((uf == "add" || uf == "multiply") && c.method == "accumulate") {
    r.kind = FloatRule::prefix;
  } else if ((uf == "subtract" || uf == "divide") && fold && r.cmp == DType::float16) {
    // NumPy's float16 subtract and divide reduce loops accumulate a contiguous run in float and
    // round once; loom's round every step, on every target (docs/catalogue.md, float16): each
    // of n roundings errs by u of a partial result, bounded as a sum by sum|x| (subtract) and
    // as a product by the exact quotient's magnitude (divide; gen_cases.py writes both).
    r.kind = uf == "subtract" ? FloatRule::sum : FloatRule::prod;
  } else {
    r.kind = loom_dt == numpy_dt ? FloatRule::exact : FloatRule::ulps1;
  }
  if (uf == "multiply") r.cx_ulps = 1;
  return r;
}

// Does loom promise NumPy's dtype here? Where NumPy's dtype is the output of one of the op's
// loops: loom resolves like NumPy among the loops it has.
bool dtype_promised(const loom::Runtime& rt, const Case& c, DType numpy_dt) {
  const auto op = rt.registry().find(c.op);
  if (!op) return false;
  for (const auto& l : op->loops) {
    if (!l.sig.outputs.empty() && l.sig.outputs[0] == numpy_dt) return true;
  }
  return false;
}

void check_unchanged(const Outcome& o, Finding what, bool skip_out, bool skip_first,
                     std::vector<Problem>& out) {
  std::vector<std::pair<const char*, const Built*>> all;
  for (std::size_t i = 0; i < o.args.size(); ++i)
    all.push_back({i ? "argument 2" : "argument 1", &o.args[i]});
  if (o.indices) all.push_back({"indices", &*o.indices});
  if (o.out) all.push_back({"out=", &*o.out});
  if (o.where) all.push_back({"where=", &*o.where});
  for (std::size_t k = 0; k < all.size(); ++k) {
    if (skip_first && k == 0) continue;
    if (skip_out && all[k].second == (o.out ? &*o.out : nullptr)) continue;
    if (bytes_of(all[k].second->base) != o.before[k]) {
      out.push_back({what, std::string(all[k].first) + " changed"});
    }
  }
}

// NumPy's "Python integer V out of bounds for T" (OverflowError) is loom's E-VALUE-WEAK-INT-RANGE
// or, for initial=, E-VALUE-INITIAL-RANGE, each naming T (and V): another refusal would hide a
// wrong reason. Except loom's "no loop" for the dtypes, which NumPy checks after the value.
void refusal_alike(const Expect& x, const Outcome& o, std::vector<Problem>& p) {
  const std::string pre = "Python integer ", mid = " out of bounds for ";
  const std::size_t m = x.message.find(mid);
  if (*x.error != "OverflowError" || x.message.rfind(pre, 0) != 0 || m == std::string::npos) return;
  const std::string v = x.message.substr(pre.size(), m - pre.size());
  const std::string t = x.message.substr(m + mid.size());
  auto has = [&](const std::string& part) { return o.message.find(part) != std::string::npos; };
  const bool twin = o.error_class == "ValueError" &&
                    (has("the weak int " + v + " ") || has("initial=")) && has("loop's dtype " + t);
  if (!twin && !(o.error_class == "TypeError" && has("has no loop"))) {
    p.push_back({Finding::refusal_unlike,
                 "NumPy: " + x.message + "; loom: " + o.error_class + ": " + o.message});
  }
}

}  // namespace

std::vector<Problem> check(const loom::Runtime& rt, const Case& c, const Outcome& o,
                           bool any_order) {
  std::vector<Problem> p;
  const Expect& x = c.expect;
  if (o.foreign) {
    p.push_back({Finding::foreign_exception, o.message});
    return p;
  }
  if (x.error) {
    if (!o.refused) {
      p.push_back({Finding::loom_answers, "NumPy: " + *x.error + ": " + x.message});
    } else {
      check_unchanged(o, Finding::refusal_wrote, false, false, p);
      refusal_alike(x, o, p);
    }
    return p;
  }
  if (o.refused) {
    p.push_back({Finding::loom_refuses, o.error_class + ": " + o.message});
    check_unchanged(o, Finding::refusal_wrote, false, false, p);
    return p;
  }
  if (x.out_cannot_hold_loop) {  // docs/errors.md E-TYPE-REDUCE-OUT-NARROWER
    p.push_back({Finding::refusal_missing, "out= of dtype " +
                                               std::string(loom::name(c.out->dtype)) +
                                               " cannot hold NumPy's loop dtype " + x.loop});
    return p;
  }
  const bool at = c.method == "at";
  check_unchanged(o, Finding::input_changed, /*skip_out=*/true, /*skip_first=*/at, p);
  const bool values = x.undefined.empty();
  if (at) {
    if (!values) return p;
    const loom::Array& a = o.args[0].base;
    FloatRule r = rule_for(c, a.dtype(), a.dtype());
    const bool unordered = any_order && !x.scale.is_null();
    if (unordered) r.kind = FloatRule::prefix;
    compare_values(a, a.dtype(), x.a_after, r, unordered ? x.scale : json(),
                   unordered ? x.count : json(), Finding::at_values, nullptr, p);
    return p;
  }
  const loom::Array& res = o.result;
  if (res.shape() != x.shape) {
    p.push_back({Finding::shape,
                 "numpy " + loom::shape_str(x.shape) + " loom " + loom::shape_str(res.shape())});
    return p;
  }
  if (res.dtype() != x.dtype && dtype_promised(rt, c, x.dtype)) {
    p.push_back({Finding::dtype, "numpy " + std::string(loom::name(x.dtype)) + " loom " +
                                     std::string(loom::name(res.dtype()))});
  }
  if (is_float(x.dtype) != is_float(res.dtype())) {
    p.push_back({Finding::kind, "numpy " + std::string(loom::name(x.dtype)) + " loom " +
                                    std::string(loom::name(res.dtype()))});
  }
  FloatRule r = rule_for(c, x.dtype, res.dtype());
  if (r.cx_ulps > 0 && (x.loop == "complex64" || x.loop == "complex128")) {
    r.cx_fused_u = unit_roundoff({loom::dtype_from_name(x.loop)});
  }
  if (values) {
    compare_values(res, x.dtype, x.data, r, x.scale, x.count, Finding::value, nullptr, p, x.sample);
  }
  if (!x.exact.is_null() && r.kind == FloatRule::sum) {
    // loom's own bound against the exact sum (issue 11: O(log n) on every layout)
    const std::vector<double> gd = res.astype(DType::float64).to_vector<double>();
    std::ostringstream bad;
    int nbad = 0;
    for (std::size_t i = 0; i < gd.size(); ++i) {
      if (x.exact[i].is_null()) continue;
      double l = gd[i];
      const double e = json_double(x.exact[i]), sc = json_double(x.scale[i]),
                   n = json_double(x.count[i]);
      l = in_cmp(r.cmp, l);
      const double rows = x.rows > 1 ? static_cast<double>(x.rows) : 0.0;
      const double tol = (depth(n) + rows + 1) * r.u * sc;
      if (!(std::fabs(l - e) <= tol) && nbad++ < 3) {
        bad << " [" << i << "] exact " << fmt(e) << " loom " << fmt(l) << " bound " << fmt(tol)
            << " (n " << fmt(n) << ");";
      }
    }
    if (nbad) p.push_back({Finding::exact_bound, std::to_string(nbad) + " elements:" + bad.str()});
  }
  if (o.out) {
    if (res.data() != o.out->view.data() || res.strides() != o.out->view.strides()) {
      p.push_back({Finding::out_not_returned, "result is " + res.str()});
    }
    const std::set<std::int64_t> fp = footprint(o.out->base, o.out->view);
    // Outside the view nothing may change: compared exactly (the view is the result, above).
    FloatRule exact;
    compare_values(o.out->base, o.out->base.dtype(), x.out_after, exact, json(), json(),
                   Finding::out_outside_written, &fp, p);
  }
  return p;
}

}  // namespace numpy_diff
