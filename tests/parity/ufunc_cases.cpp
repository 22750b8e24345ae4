// Elementwise ufuncs: each loop on random, broadcast, strided, reversed, transposed, empty,
// one-element, 0-d and special-value inputs, compared with `cpu` (bitwise on host targets), with
// its own result on contiguous copies, and with the long double reference.
#include <cmath>

#include "cases.hpp"
#include "data.hpp"
#include "references.hpp"
#include "tolerances.hpp"

namespace parity {

namespace {

struct Scenario {
  Scenario(std::string n, std::vector<Array> i, std::vector<Array> o = {},
           std::vector<IntEdge> e = {})
      : name(std::move(n)), in(std::move(i)), out(std::move(o)), edges(std::move(e)) {}
  std::string name;
  std::vector<Array> in;
  std::vector<Array> out;      // given out= arrays, or none
  std::vector<IntEdge> edges;  // integer corner cases: NumPy's answers replace the reference
};

// Inputs without a reference: positive and modest, valid for log, sqrt, divide and friends.
Domain default_domain(DType t) { return is_integer(t) ? Domain{1, 100} : Domain{0.5, 2}; }

std::vector<Scenario> scenarios(const Case& c, const UfuncRef* ref) {
  Rng rng(c.name() + loop_name(c.loop->sig));
  const int nin = c.op->nin;
  auto dom = [&](int k) {
    if (!ref) return default_domain(c.in(k));
    return is_integer(c.in(k)) ? ref->intg[k] : ref->flt[k];
  };
  auto make = [&](auto&& fn, auto&& shape_of) {
    std::vector<Array> v;
    for (int k = 0; k < nin; ++k) v.push_back(fn(rng, shape_of(k), c.in(k), dom(k)));
    return v;
  };
  auto all = [](Shape s) { return [s](int) { return s; }; };
  std::vector<Scenario> s;
  s.push_back({"contiguous", make(random, all({1031}))});
  s.push_back({"large", make(random, all({(1 << 18) + 7}))});
  s.push_back({"step2", make(step2, all({37}))});
  s.push_back({"reversed", make(reversed, all({37}))});
  s.push_back({"transposed", make(transposed, all({6, 7}))});
  auto first_transposed = make(random, all({6, 7}));
  first_transposed[0] = transposed(rng, {7, 6}, c.in(0), dom(0)).transpose().copy().transpose();
  for (int k = 1; k < nin; ++k) first_transposed[k] = first_transposed[k].transpose().copy();
  s.push_back({"mixed_order", first_transposed});
  auto bshape = [](int k) { return k % 2 == 0 ? Shape{4, 1} : Shape{1, 5}; };
  auto b = make(random, bshape);
  if (nin == 1) b[0] = random(rng, {1, 5}, c.in(0), dom(0)).broadcast_to({4, 5});
  s.push_back({"broadcast", b});
  if (nin >= 2) {
    s.push_back({"scalar", make(random, [](int k) { return k == 0 ? Shape{9} : Shape{}; })});
    s.push_back({"empty_broadcast", make(random, [](int k) {
                   return k == 0 ? Shape{3, 1} : Shape{0};
                 })});
  }
  s.push_back({"empty_1d", make(random, all({0}))});
  s.push_back({"empty_3x0", make(random, all({3, 0}))});
  s.push_back({"one_element", make(random, all({1}))});
  s.push_back({"zero_d", make(random, all({}))});
  Scenario out{"out_reversed", make(random, all({37})), {}};
  for (int j = 0; j < c.op->nout; ++j)
    out.out.push_back(loom::empty({37}, c.out(j)).slice(0, 36, -38, -1));
  s.push_back(out);
  bool floats = true;
  for (int k = 0; k < nin; ++k) floats = floats && is_float(c.in(k));
  if (floats && nin <= 3) {  // every combination of special values
    const auto sp = specials(c.in(0));
    const std::size_t m = sp.size();
    std::size_t total = 1;
    for (int k = 0; k < nin; ++k) total *= m;
    std::vector<std::vector<double>> cols(nin, std::vector<double>(total));
    for (std::size_t i = 0; i < total; ++i) {
      std::size_t r = i;
      for (int k = nin - 1; k >= 0; --k, r /= m) cols[k][i] = sp[r % m];
    }
    Scenario sc{"specials", {}, {}};
    for (int k = 0; k < nin; ++k) {
      sc.in.push_back(from_values(cols[k], {static_cast<std::int64_t>(total)}, c.in(k)));
    }
    s.push_back(sc);
  }
  if (ref && !ref->hard.empty() && floats) {
    Scenario sc{"hard", {}, {}};
    for (int k = 0; k < nin; ++k) {
      const auto& col = ref->hard.at(k);
      sc.in.push_back(from_values(col, {static_cast<std::int64_t>(col.size())}, c.in(k)));
    }
    s.push_back(sc);
  }
  if (is_integer(c.in(0)) && c.in(0) != DType::bool_) {
    const auto edges = int_edges(c.name(), static_cast<int>(loom::itemsize(c.in(0)) * 8),
                                 loom::kind(c.in(0)) == loom::Kind::unsigned_int);
    if (!edges.empty()) {
      Scenario sc{"int_edges", {}, {}, edges};
      for (int k = 0; k < nin; ++k) {
        std::vector<std::int64_t> col;
        for (const auto& e : edges) col.push_back(e.in.at(k));
        sc.in.push_back(from_ints(col, c.in(k)));
      }
      s.push_back(sc);
    }
  }
  return s;
}

// Elementwise comparison against reference values (cpu's results or the long double reference).
void compare(Case& c, const std::string& sc, const std::string& what, const std::vector<Array>& in,
             const std::vector<Array>& got,
             const std::function<void(const long double*, long double*)>& f, double ulps,
             bool zero_sign) {
  const Shape shape = got[0].shape();
  std::vector<std::vector<long double>> iv, ov;
  for (const auto& a : in) iv.push_back(values(a.broadcast_to(shape)));
  for (const auto& g : got) ov.push_back(values(g));
  std::vector<long double> x(in.size()), y(got.size());
  for (std::size_t i = 0; i < ov[0].size(); ++i) {
    for (std::size_t k = 0; k < in.size(); ++k) x[k] = iv[k][i];
    f(x.data(), y.data());
    for (std::size_t j = 0; j < got.size(); ++j) {
      const Bound b{Bound::ulps, ulps, zero_sign};
      const Where w{sc, static_cast<std::int64_t>(i), x,
                    "output " + std::to_string(j) + " " + what};
      long double want = y[j];
      const DType ot = c.out(static_cast<int>(j));
      const loom::Kind ok = loom::kind(ot);
      if (ok == loom::Kind::boolean) {  // bool results: the reference's truth (1 + 1 is true)
        want = std::isnan(want) || want != 0;
      } else if (ok == loom::Kind::unsigned_int || ok == loom::Kind::signed_int) {
        // Integer results wrap modulo 2^bits, into the dtype's range.
        const long double m = std::ldexp(1.0L, static_cast<int>(loom::itemsize(ot) * 8));
        want = std::fmod(want, m);
        if (want < 0) want += m;
        if (ok == loom::Kind::signed_int && want >= m / 2) want -= m;
      }
      c.check->value(ot, ov[j][i], want, b, w);
    }
  }
}

bool contiguous(const std::vector<Array>& v) {
  for (const auto& a : v) {
    if (!a.is_c_contiguous()) return false;
  }
  return true;
}

// Elementwise means elementwise: each element computed alone gives the bits it got among its
// neighbours (a SIMD loop must not let one lane's value change another lane's result).
void alone(Case& c, const loom::Ufunc& uf, const std::string& sc, const std::vector<Array>& in,
           const std::vector<Array>& got, const Shape& shape) {
  std::vector<Array> flat_in, flat_out;
  for (const auto& a : in) flat_in.push_back(a.broadcast_to(shape).copy().reshape({-1}));
  for (const auto& g : got) flat_out.push_back(g.copy().reshape({-1}));
  const std::int64_t n = loom::shape_size(shape);
  for (std::int64_t i = 0; i < n; ++i) {
    std::vector<Array> one;
    for (const auto& a : flat_in) one.push_back(a.slice(0, i, i + 1));
    const auto r = uf.call(one, {.target = c.target, .signature = c.loop->sig.str()});
    for (std::size_t j = 0; j < r.size(); ++j) {
      c.check->same_bits(flat_out[j].slice(0, i, i + 1), r[j], sc, [&] {
        std::string x;
        for (const auto& v : one) x += (x.empty() ? "" : ", ") + fmt(values(v)[0]);
        return "element " + std::to_string(i) + " (inputs " + x + ") alone vs among its neighbours";
      });
    }
  }
}

// One scenario: (a) against cpu, views against contiguous copies, elements alone, then (b)
// against NumPy's integer corner cases or the long double reference.
void run_scenario(Case& c, const loom::Ufunc& uf, const Scenario& sc, const UfuncRef* ref,
                  double bound) {
  const std::string sig = c.loop->sig.str();
  std::vector<Shape> shapes;
  for (const auto& a : sc.in) shapes.push_back(a.shape());
  const Shape shape = loom::broadcast_shapes(shapes);
  const auto got = uf.call(sc.in, {.target = c.target, .out = sc.out, .signature = sig});
  bool shapes_ok = static_cast<int>(got.size()) == c.op->nout;
  c.check->expect(shapes_ok, sc.name + ": wrong number of outputs");
  for (int j = 0; shapes_ok && j < c.op->nout; ++j) {
    shapes_ok = got[j].shape() == shape && got[j].dtype() == c.out(j);
    c.check->expect(shapes_ok, sc.name + ": output " + std::to_string(j) + " is " + got[j].str() +
                                   ", expected shape " + loom::shape_str(shape) + " and dtype " +
                                   std::string(loom::name(c.out(j))));
    if (!sc.out.empty()) {
      c.check->expect(got[j].data() == sc.out[j].data(), sc.name + ": out= was not returned");
    }
  }
  if (!shapes_ok) return;
  if (c.vs_cpu()) {  // (a) the target against the serial backend
    const auto cpu = uf.call(sc.in, {.target = "cpu", .signature = sig});
    // Device math libraries round differently: each side within its own bound of the truth, so
    // they may differ by the host's bound plus the device's.
    const double host_bound = ulp_bound(c.name(), c.out(0), false);
    const double tol = (bound < 0 ? 2.0 : bound) + (host_bound < 0 ? 2.0 : host_bound);
    for (int j = 0; j < c.op->nout; ++j) {
      if (c.host) {
        c.check->same_bits(got[j], cpu[j], sc.name, "output " + std::to_string(j) + " vs cpu");
        continue;
      }
      const auto g = values(got[j]), r = values(cpu[j]);
      for (std::size_t i = 0; i < g.size(); ++i) {
        c.check->value(c.out(j), g[i], r[i], {Bound::ulps, tol, false},
                       {sc.name, static_cast<std::int64_t>(i), {}, "vs cpu"});
      }
    }
  }
  if (c.host && (!contiguous(sc.in) || !sc.out.empty())) {  // views: the bits of copies
    std::vector<Array> copies;
    for (const auto& a : sc.in) copies.push_back(a.copy());
    const auto again = uf.call(copies, {.target = c.target, .signature = sig});
    for (int j = 0; j < c.op->nout; ++j) {
      c.check->same_bits(got[j], again[j], sc.name, "vs contiguous copies");
    }
  }
  if (c.host && (sc.name == "contiguous" || sc.name == "specials" || sc.name == "hard")) {
    alone(c, uf, sc.name, sc.in, got, shape);
  }
  for (int j = 0; j < c.op->nout && !sc.edges.empty(); ++j) {  // wrap-around, division by 0
    const auto g = values(got[j]);
    for (std::size_t i = 0; i < sc.edges.size(); ++i) {
      std::vector<long double> in(sc.edges[i].in.begin(), sc.edges[i].in.end());
      const Where w{sc.name, static_cast<std::int64_t>(i), in, "output " + std::to_string(j)};
      const std::int64_t e = sc.edges[i].out.at(j);
      const long double want = loom::kind(c.out(j)) == loom::Kind::unsigned_int
                                   ? static_cast<long double>(static_cast<std::uint64_t>(e))
                                   : static_cast<long double>(e);
      c.check->value(c.out(j), g[i], want, {}, w);
    }
  }
  if (ref && sc.edges.empty()) {  // (b) the target against the independent reference
    const bool ints = is_integer(c.in(0)) && ref->int_f;
    compare(c, sc.name, "vs reference", sc.in, got, ints ? ref->int_f : ref->f, bound,
            ref->zero_sign);
  }
}

}  // namespace

void run_ufunc(Case& c) {
  if (complex_loop(c)) return run_complex_ufunc(c);
  const UfuncRef* ref = ufunc_ref(c.name());
  if (ref && (ref->nin != c.op->nin || ref->nout != c.op->nout)) {
    c.check->expect(false, "the reference table's arity disagrees with op '" + c.name() + "'");
    ref = nullptr;
  }
  bool real = true;  // the reference compares real values only
  for (auto t : c.loop->sig.inputs) real = real && (is_float(t) || is_integer(t));
  for (auto t : c.loop->sig.outputs) real = real && (is_float(t) || is_integer(t));
  if (!real) ref = nullptr;
  if (ref && !ref->bool_loops) {  // the reference's arithmetic is not the bool loop's
    for (auto t : c.loop->sig.inputs) ref = t == DType::bool_ ? nullptr : ref;
  }
  c.has_reference = ref != nullptr;
  const double bound = ref ? ulp_bound(c.name(), c.out(0), !c.host) : -1;
  if (ref && bound < 0) {
    c.check->expect(false, "no ulp bound for '" + c.name() + "' in tolerances.hpp");
  }
  const loom::Ufunc uf = runtime().ufunc(c.name());
  for (const auto& sc : scenarios(c, ref)) {
    try {
      run_scenario(c, uf, sc, ref, bound);
    } catch (const loom::Error& e) {
      c.check->expect(false, sc.name + ": threw " + e.what());
    }
  }
  // Each loop is reached by its own input dtypes (no override), as type resolution promises.
  std::vector<Array> ones;
  for (int k = 0; k < c.op->nin; ++k) ones.push_back(from_values({1.0}, {1}, c.in(k)));
  const auto plain = uf.call(ones, {.target = c.target});
  c.check->expect(plain[0].dtype() == c.out(0),
                  "inputs of the loop's own dtypes resolved to another loop (output " +
                      std::string(loom::name(plain[0].dtype())) + ")");
}

}  // namespace parity
