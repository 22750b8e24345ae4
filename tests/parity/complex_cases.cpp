// The complex loops (complex64, complex128) of ufuncs, their methods and the reductions: the same
// scenarios as the real ones (ufunc_cases.cpp, method_cases.cpp, reduce_cases.cpp) on complex
// data, compared with `cpu` (bitwise on host targets) and with the std::complex<long double>
// reference (complex_refs.hpp) in the error measure of Checker::cvalue.
#include <cmath>

#include "cases.hpp"
#include "complex_refs.hpp"
#include "data.hpp"
#include "tolerances.hpp"

namespace parity {

namespace {

Array crandom(Rng& rng, const Shape& shape, DType t, const Domain& r, const Domain& i) {
  const Array re = random(rng, shape, DType::float64, r),
              im = random(rng, shape, DType::float64, i);
  const auto rv = re.to_vector<double>(), iv = im.to_vector<double>();
  std::vector<std::complex<double>> v(rv.size());
  for (std::size_t k = 0; k < v.size(); ++k) v[k] = {rv[k], iv[k]};
  return loom::from_vector(v, shape).astype(t);
}

// Parts of the special values: no huge finite value, so that long double and the loop's dtype
// overflow alike in the references' intermediate steps.
const std::vector<double>& special_parts() {
  static const std::vector<double> v = {NAN, INFINITY, -INFINITY, 0.0, -0.0, 1.0, -1.0, 0.5, -2.5};
  return v;
}

struct In {
  Domain re, im;
};

struct Scenario {
  std::string name;
  std::vector<Array> in;
  std::vector<Array> out;
};

std::vector<Scenario> scenarios(const Case& c, const ComplexRef* ref) {
  Rng rng("complex " + c.name() + loop_name(c.loop->sig));
  const int nin = c.op->nin;
  auto dom = [&](int k) {
    if (!ref) return In{{0.5, 2}, {-2, 2}};
    return k == 0 ? In{ref->re, ref->im} : In{ref->re2, ref->im2};
  };
  auto make = [&](auto&& shape_of, auto&& view) {
    std::vector<Array> v;
    for (int k = 0; k < nin; ++k)
      v.push_back(view(crandom(rng, shape_of(k), c.in(k), dom(k).re, dom(k).im)));
    return v;
  };
  auto all = [](Shape s) { return [s](int) { return s; }; };
  auto same = [](Array a) { return a; };
  auto every_other = [](Array a) { return a.slice(0, 0, a.shape()[0], 2); };
  auto rev = [](Array a) { return a.slice(0, a.shape()[0] - 1, -a.shape()[0] - 1, -1); };
  auto tr = [](Array a) { return a.transpose(); };
  std::vector<Scenario> s;
  s.push_back({"contiguous", make(all({1031}), same), {}});
  s.push_back({"large", make(all({(1 << 18) + 7}), same), {}});
  s.push_back({"step2", make(all({74}), every_other), {}});
  s.push_back({"reversed", make(all({37}), rev), {}});
  s.push_back({"transposed", make(all({7, 6}), tr), {}});
  s.push_back({"broadcast",
               make(
                   [](int k) {
                     return k % 2 == 0 ? Shape{4, 1} : Shape{1, 5};
                   },
                   same),
               {}});
  if (nin >= 2)
    s.push_back({"scalar", make([](int k) { return k == 0 ? Shape{9} : Shape{}; }, same), {}});
  s.push_back({"empty_1d", make(all({0}), same), {}});
  s.push_back({"one_element", make(all({1}), same), {}});
  s.push_back({"zero_d", make(all({}), same), {}});
  Scenario out{"out_reversed", make(all({37}), same), {}};
  for (int j = 0; j < c.op->nout; ++j)
    out.out.push_back(loom::empty({37}, c.out(j)).slice(0, 36, -38, -1));
  s.push_back(out);
  // Every combination of special parts: each input takes every (re, im) pair.
  const auto& sp = special_parts();
  std::vector<std::complex<double>> z;
  for (double a : sp) {
    for (double b : sp) z.emplace_back(a, b);
  }
  const std::size_t m = z.size();
  std::size_t total = 1;
  for (int k = 0; k < nin; ++k) total *= m;
  Scenario sc{"specials", {}, {}};
  for (int k = 0; k < nin; ++k) {
    std::vector<std::complex<double>> col(total);
    std::size_t period = 1;
    for (int j = k + 1; j < nin; ++j) period *= m;
    for (std::size_t i = 0; i < total; ++i) col[i] = z[(i / period) % m];
    sc.in.push_back(loom::from_vector(col).astype(c.in(k)));
  }
  s.push_back(sc);
  return s;
}

std::vector<CL> as_complex(const Array& a) {
  if (is_complex(a.dtype())) return cvalues(a);
  std::vector<CL> out;
  for (auto v : values(a)) out.emplace_back(v, 0);
  return out;
}

std::vector<long double> parts(const std::vector<CL>& x) {
  std::vector<long double> v;
  for (auto z : x) v.push_back(z.real()), v.push_back(z.imag());
  return v;
}

// Each element computed alone gives the bits it got among its neighbours (no SIMD lane may change
// another's result), as ufunc_cases.cpp's check of the real loops.
void alone(Case& c, const loom::Ufunc& uf, const Scenario& sc, const std::vector<Array>& got,
           const Shape& shape, const std::string& sig) {
  std::vector<Array> flat_in, flat_out;
  for (const auto& a : sc.in) flat_in.push_back(a.broadcast_to(shape).copy().reshape({-1}));
  for (const auto& g : got) flat_out.push_back(g.copy().reshape({-1}));
  const std::int64_t n = loom::shape_size(shape);
  for (std::int64_t i = 0; i < n; ++i) {
    std::vector<Array> one;
    std::vector<CL> x;
    for (const auto& a : flat_in) {
      one.push_back(a.slice(0, i, i + 1));
      x.push_back(as_complex(one.back())[0]);
    }
    const auto r = uf.call(one, {.target = c.target, .signature = sig});
    for (std::size_t j = 0; j < r.size(); ++j) {
      c.check->same_bits(flat_out[j].slice(0, i, i + 1), r[j], sc.name, [&] {
        std::string xs;
        for (auto p : parts(x)) xs += (xs.empty() ? "" : ", ") + fmt(p);
        return "element " + std::to_string(i) + " (input parts " + xs +
               ") alone vs among its neighbours";
      });
    }
  }
}

// One output element against its reference, by the output's kind.
void check_element(Case& c, DType t, CL got, CL want, const Bound& b, const Where& w) {
  if (is_complex(t)) {
    c.check->cvalue(t, got, want, b, w);
  } else if (t == DType::bool_) {
    c.check->value(t, got.real(), want.real() != 0, b, w);
  } else {
    c.check->value(t, got.real(), want.real(), b, w);
  }
}

bool nonfinite(CL z) { return !std::isfinite(z.real()) || !std::isfinite(z.imag()); }

// On cuda, the C99 functions are Thrust's (complex_ops.hpp), whose results for an input with an
// infinite or NaN part differ from glibc's Annex G values in which part is NaN and which infinite
// (docs/catalogue.md, "Complex loops"): there only the class is checked, a non-finite result
// where the reference has one and a finite one where it does not.
// class_only marks those elements of the broadcast shape.
std::vector<bool> class_only(const Case& c, const std::vector<Array>& in, const Shape& shape) {
  std::vector<bool> only(static_cast<std::size_t>(loom::shape_size(shape)), false);
  if (c.host || !complex_device_specials_differ(c.name())) return only;
  for (const auto& a : in) {
    const auto v = as_complex(a.broadcast_to(shape));
    for (std::size_t i = 0; i < v.size(); ++i) only[i] = only[i] || nonfinite(v[i]);
  }
  return only;
}

// The class check of one element: non-finite on both sides or on neither.
void check_class(Case& c, CL got, CL want, const std::string& sc, std::size_t i,
                 const char* against) {
  if (nonfinite(got) == nonfinite(want)) return c.check->expect(true, {});
  c.check->expect(false, sc + " element " + std::to_string(i) + ": gave " + fmt(got.real()) +
                             " + " + fmt(got.imag()) + "i, " + against + " " + fmt(want.real()) +
                             " + " + fmt(want.imag()) + "i (finite on one side only)");
}

void run_scenario(Case& c, const loom::Ufunc& uf, const Scenario& sc, const ComplexRef* ref,
                  double bound) {
  const std::string sig = c.loop->sig.str();
  std::vector<Shape> shapes;
  for (const auto& a : sc.in) shapes.push_back(a.shape());
  const Shape shape = loom::broadcast_shapes(shapes);
  const auto got = uf.call(sc.in, {.target = c.target, .out = sc.out, .signature = sig});
  bool ok = static_cast<int>(got.size()) == c.op->nout;
  for (int j = 0; ok && j < c.op->nout; ++j)
    ok = got[j].shape() == shape && got[j].dtype() == c.out(j);
  c.check->expect(ok, sc.name + ": wrong outputs (" + (got.empty() ? "none" : got[0].str()) + ")");
  if (!ok) return;
  const std::vector<bool> only = class_only(c, sc.in, shape);
  if (c.vs_cpu()) {
    const auto cpu = uf.call(sc.in, {.target = "cpu", .signature = sig});
    for (int j = 0; j < c.op->nout; ++j) {
      if (c.host) {
        c.check->same_bits(got[j], cpu[j], sc.name, "output " + std::to_string(j) + " vs cpu");
        continue;
      }
      const double host_bound = complex_ulp_bound(c.name(), c.in(0), false);
      const double tol = (bound < 0 ? 4.0 : bound) + (host_bound < 0 ? 4.0 : host_bound);
      const auto g = as_complex(got[j]), r = as_complex(cpu[j]);
      for (std::size_t i = 0; i < g.size(); ++i) {
        if (only[i]) {
          check_class(c, g[i], r[i], sc.name, i, "cpu");
          continue;
        }
        check_element(c, c.out(j), g[i], r[i], {Bound::ulps, tol, false},
                      {sc.name, static_cast<std::int64_t>(i), {}, "vs cpu"});
      }
    }
  }
  if (c.host) {  // views and out=: the bits of contiguous copies; elements alone
    std::vector<Array> copies;
    for (const auto& a : sc.in) copies.push_back(a.broadcast_to(shape).copy());
    const auto again = uf.call(copies, {.target = c.target, .signature = sig});
    for (int j = 0; j < c.op->nout; ++j) {
      c.check->same_bits(got[j], again[j], sc.name, "vs contiguous copies");
    }
    alone(c, uf, sc, got, shape, sig);
  }
  if (!ref) return;
  std::vector<std::vector<CL>> iv;
  for (const auto& a : sc.in) iv.push_back(cvalues(a.broadcast_to(shape)));
  for (int j = 0; j < c.op->nout; ++j) {
    const auto g = as_complex(got[j]);
    std::vector<CL> x(sc.in.size());
    for (std::size_t i = 0; i < g.size(); ++i) {
      for (std::size_t k = 0; k < x.size(); ++k) x[k] = iv[k][i];
      const Where w{sc.name, static_cast<std::int64_t>(i), parts(x), "vs reference"};
      if (only[i]) {
        if (is_complex(c.out(j))) check_class(c, g[i], ref->f(x.data()), sc.name, i, "reference");
        continue;
      }
      check_element(c, c.out(j), g[i], ref->f(x.data()), {Bound::ulps, bound, ref->zero_sign}, w);
    }
  }
}

}  // namespace

bool complex_loop(const Case& c) {
  for (auto t : c.loop->sig.inputs) {
    if (is_complex(t)) return true;
  }
  return false;
}

void run_complex_ufunc(Case& c) {
  const ComplexRef* ref = complex_ref(c.name());
  if (ref && ref->nin != c.op->nin) {
    c.check->expect(false, "the complex reference's arity disagrees with op '" + c.name() + "'");
    ref = nullptr;
  }
  c.has_reference = ref != nullptr;
  const double bound = complex_ulp_bound(c.name(), c.in(0), !c.host);
  if (ref && bound < 0) {
    c.check->expect(false, "no complex bound for '" + c.name() + "' in tolerances.hpp");
  }
  const loom::Ufunc uf = runtime().ufunc(c.name());
  for (const auto& sc : scenarios(c, ref)) {
    try {
      run_scenario(c, uf, sc, ref, bound);
    } catch (const loom::Error& e) {
      c.check->expect(false, sc.name + ": threw " + e.what());
    }
  }
}

}  // namespace parity
