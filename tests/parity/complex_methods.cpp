// The methods of complex T(T,T) loops (reduce, accumulate, reduceat, outer, at) and the complex
// reductions (sum, prod, max, min): against `cpu` (bitwise where the fold order is fixed) and
// against the long double reference where it bounds the result: exactly for selections
// (maximum ...), step by step for subtract (each part correctly rounded), within Higham's bound
// for sums and products.
#include <algorithm>
#include <cmath>
#include <set>

#include "cases.hpp"
#include "complex_refs.hpp"
#include "data.hpp"
#include "references.hpp"
#include "tolerances.hpp"

namespace parity {

namespace {

Array cdata(Rng& rng, const Shape& shape, DType t) {
  // Magnitudes near 1: folds of products and quotients of 37 terms stay finite.
  const Array re = random(rng, shape, DType::float64, {0.5, 1.5});
  const Array im = random(rng, shape, DType::float64, {-0.5, 0.5});
  const auto rv = re.to_vector<double>(), iv = im.to_vector<double>();
  std::vector<std::complex<double>> v(rv.size());
  for (std::size_t k = 0; k < v.size(); ++k) v[k] = {rv[k] * (k % 3 == 0 ? -1 : 1), iv[k]};
  return loom::from_vector(v, shape).astype(t);
}

bool selection(const std::string& op) {
  return op == "maximum" || op == "minimum" || op == "fmax" || op == "fmin" || op == "max" ||
         op == "min";
}

// got vs want: exactly, or each part within `rel` ulps of the larger part of want.
void compare(Case& c, DType t, const std::string& sc, const Array& got, const std::vector<CL>& want,
             double rel, const std::string& what) {
  const auto g = cvalues(got);
  c.check->expect(g.size() == want.size(), sc + ": size differs");
  for (std::size_t i = 0; i < g.size() && i < want.size(); ++i) {
    c.check->cvalue(t, g[i], want[i], {Bound::ulps, rel, false},
                    {sc, static_cast<std::int64_t>(i), {}, what});
  }
}

void vs_cpu(Case& c, DType t, const std::string& sc, const Array& got, const Array& cpu,
            bool bitwise) {
  if (!c.vs_cpu()) return;
  if (bitwise) {
    c.check->same_bits(got, cpu, sc, "vs cpu");
  } else {  // regrouped folds of at most a few hundred terms near 1
    compare(c, t, sc, got, cvalues(cpu), 1e3, "vs cpu");
  }
}

}  // namespace

void run_complex_methods(Case& c) {
  const auto& sig = c.loop->sig;
  if (c.op->nin != 2 || c.op->nout != 1 || sig.inputs[0] != sig.outputs[0] ||
      sig.inputs[1] != sig.outputs[0]) {
    return;
  }
  const DType t = c.out(0);
  const ComplexRef* ref = complex_ref(c.name());
  const loom::Ufunc uf = runtime().ufunc(c.name());
  const bool ordered = !c.op->reorderable;
  // Ordered folds and selections give the same bits on every target; folds of a correctly
  // rounded op equal the step-by-step reference.
  const bool exact = (ordered && c.host) || selection(c.name());
  const bool stepwise = ref && (selection(c.name()) || c.name() == "subtract");
  Rng rng("complex methods " + c.name() + sig.str());
  try {
    const std::vector<std::pair<std::string, Array>> layouts = {
        {"contiguous", cdata(rng, {6, 37}, t)},
        {"transposed", cdata(rng, {37, 6}, t).transpose()},
        {"step2", cdata(rng, {6, 74}, t).slice(1, 0, 74, 2)},
        {"reversed", cdata(rng, {6, 37}, t).slice(1, 36, -38, -1)}};
    for (const auto& [name, x] : layouts) {
      const auto v = cvalues(x);
      const int rows = 6, cols = 37;
      for (int axis : {0, 1}) {
        const std::string sc = name + "_axis" + std::to_string(axis);
        const Array got = uf.reduce(x, {.target = c.target, .axis = axis, .dtype = t});
        c.check->same_bits(got, uf.reduce(x, {.target = c.target, .axis = axis, .dtype = t}), sc,
                           "second run (determinism)");
        vs_cpu(c, t, sc, got, uf.reduce(x, {.target = "cpu", .axis = axis, .dtype = t}), exact);
        const Array acc = uf.accumulate(x, {.target = c.target, .axis = axis, .dtype = t});
        vs_cpu(c, t, sc + "_accumulate", acc,
               uf.accumulate(x, {.target = "cpu", .axis = axis, .dtype = t}), exact);
        if (!stepwise) continue;
        const int n = axis == 0 ? rows : cols, lines = axis == 0 ? cols : rows;
        std::vector<CL> red(lines), scan(static_cast<std::size_t>(rows) * cols);
        for (int l = 0; l < lines; ++l) {
          CL a;
          for (int i = 0; i < n; ++i) {
            const int r = axis == 0 ? i : l, k = axis == 0 ? l : i;
            const CL e = v[static_cast<std::size_t>(r) * cols + k];
            a = i == 0 ? e : complex_step(*ref, t, a, e);
            scan[static_cast<std::size_t>(r) * cols + k] = a;
          }
          red[l] = a;
        }
        compare(c, t, sc, got, red, 0, "vs NumPy's definition");
        compare(c, t, sc + "_accumulate", acc, scan, 0, "vs NumPy's definition");
      }
      const Array idx = loom::array<std::int64_t>({0, 4, 2, 5});
      const Array ra = uf.reduceat(x, idx, {.target = c.target, .axis = 1, .dtype = t});
      vs_cpu(c, t, name + "_reduceat", ra,
             uf.reduceat(x, idx, {.target = "cpu", .axis = 1, .dtype = t}), exact);
    }
    // outer: the elementwise op over every pair (the call's bits on host targets).
    const Array a = cdata(rng, {7}, t), b = cdata(rng, {5}, t);
    const Array o = uf.outer(a, b, {.target = c.target});
    c.check->expect(o.shape() == Shape{7, 5}, "outer: shape " + loom::shape_str(o.shape()));
    vs_cpu(c, t, "outer", o, uf.outer(a, b, {.target = "cpu"}), c.host);
    if (ref) {
      std::vector<CL> want;
      for (auto x : cvalues(a)) {
        for (auto y : cvalues(b)) {
          const CL in[2] = {x, y};
          want.push_back(ref->f(in));
        }
      }
      compare(c, t, "outer", o, want, complex_ulp_bound(c.name(), t, !c.host), "vs reference");
    }
    // at: repeated indices apply once per occurrence, in order.
    const Array idx = loom::array<std::int64_t>({3, 0, 3, -1, 3, 6, 0});
    const Array vals = cdata(rng, {7}, t), base = cdata(rng, {7}, t);
    Array got = base.copy();
    uf.at(got, idx, vals, {.target = c.target});
    Array cpu = base.copy();
    uf.at(cpu, idx, vals, {.target = "cpu"});
    vs_cpu(c, t, "at", got, cpu, exact || c.host);
    if (stepwise) {
      auto want = cvalues(base);
      const auto iv = idx.to_vector<std::int64_t>();
      const auto bv = cvalues(vals);
      for (std::size_t j = 0; j < iv.size(); ++j) {
        const std::int64_t i = iv[j] < 0 ? iv[j] + 7 : iv[j];
        want[i] = complex_step(*ref, t, want[i], bv[j]);
      }
      compare(c, t, "at", got, want, 0, "vs NumPy's definition");
    }
  } catch (const loom::Error& e) {
    c.check->expect(false, std::string("methods threw: ") + e.what());
  }
}

void run_complex_reduce(Case& c) {
  const DType t = c.out(0);
  const DType part = component(t);
  const loom::Reduce red = runtime().reduce(c.name());
  const std::string op = c.name();
  const bool known = op == "sum" || op == "prod" || selection(op);
  c.has_reference = known;
  Rng rng("complex reduce " + op + loop_name(c.loop->sig));
  struct Sc {
    std::string name;
    Array x;
    std::vector<int> axis;
    std::optional<double> initial;
  };
  const Array x = cdata(rng, {5, 6, 7}, t);
  std::vector<Sc> s = {{"all", x, {}, {}},
                       {"axis0", x, {0}, {}},
                       {"axis2", x, {2}, {}},
                       {"axes0,2", x, {0, 2}, {}},
                       {"transposed_all", cdata(rng, {7, 6, 5}, t).transpose(), {}, {}},
                       {"initial", x, {1}, 3.0},
                       {"long_1d", cdata(rng, {1000}, t), {}, {}},
                       {"one_element", cdata(rng, {1}, t), {}, {}},
                       {"empty", cdata(rng, {0}, t), {}, {}}};
  if (op == "sum") s.push_back({"large", cdata(rng, {(1 << 18) + 5}, t), {}, {}});
  for (const auto& sc : s) {
    const loom::ReduceOptions o{
        .target = c.target,
        .axis = sc.axis.empty() ? loom::Axes() : loom::Axes(sc.axis),
        .initial = sc.initial ? loom::Initial(*sc.initial) : loom::Initial()};
    if (sc.x.size() == 0 && !c.op->identity) {
      bool threw = false;
      try {
        red(sc.x, o);
      } catch (const loom::ValueError&) {
        threw = true;
      }
      c.check->expect(threw, sc.name + ": empty reduction without identity did not throw");
      continue;
    }
    Array got;
    try {
      got = red(sc.x, o);
    } catch (const loom::Error& e) {
      c.check->expect(false, sc.name + ": threw " + e.what());
      continue;
    }
    c.check->same_bits(got, red(sc.x, o), sc.name, "second run (determinism)");
    if (c.vs_cpu()) {
      loom::ReduceOptions oc = o;
      oc.target = "cpu";
      vs_cpu(c, t, sc.name, got, red(sc.x, oc), selection(op));
    }
    if (!known) continue;
    // The groups of reduced values per output element, C order, `initial` first.
    const int nd = sc.x.ndim();
    std::set<int> axes(sc.axis.begin(), sc.axis.end());
    if (sc.axis.empty()) {
      for (int k = 0; k < nd; ++k) axes.insert(k);
    }
    std::int64_t outn = 1;
    for (int k = 0; k < nd; ++k) outn *= axes.count(k) ? 1 : sc.x.shape()[k];
    std::vector<std::vector<CL>> g(outn);
    if (sc.initial) {
      for (auto& e : g) e.emplace_back(*sc.initial, 0);
    }
    const auto v = cvalues(sc.x);
    for (std::size_t i = 0; i < v.size(); ++i) {
      std::int64_t rest = static_cast<std::int64_t>(i), oi = 0, mul = 1;
      for (int k = nd - 1; k >= 0; --k) {
        const std::int64_t ik = rest % sc.x.shape()[k];
        rest /= sc.x.shape()[k];
        if (!axes.count(k)) oi += ik * mul, mul *= sc.x.shape()[k];
      }
      g[oi].push_back(v[i]);
    }
    const auto gv = cvalues(got);
    for (std::size_t i = 0; i < gv.size() && i < g.size(); ++i) {
      const auto& e = g[i];
      const Where w{sc.name, static_cast<std::int64_t>(i), {}, "vs reference"};
      const auto n = static_cast<std::int64_t>(e.size());
      if (op == "sum" || op == "prod") {
        CL want = op == "sum" ? CL{0, 0} : CL{1, 0};
        long double mag_re = 0, mag_im = 0, mag = 1;
        for (const auto& z : e) {
          if (op == "sum") {
            want += z, mag_re += std::fabs(z.real()), mag_im += std::fabs(z.imag());
          } else {
            want *= z, mag *= std::abs(z);
          }
        }
        // sum: Higham's gamma_(n-1) * sum|part| per part; prod: each product rounds each part at
        // most 3 times relative to |a||b|, so gamma_(3n) * prod|z|.
        const long double bre = op == "sum"
                                    ? parity::gamma(part, std::max<std::int64_t>(n - 1, 0)) * mag_re
                                    : parity::gamma(part, 3 * n) * mag;
        const long double bim = op == "sum"
                                    ? parity::gamma(part, std::max<std::int64_t>(n - 1, 0)) * mag_im
                                    : parity::gamma(part, 3 * n) * mag;
        const auto gi = gv[i];
        c.check->value(part, gi.real(), want.real(), {Bound::absolute, static_cast<double>(bre)},
                       {sc.name + " (real part)", w.index, {}, w.what});
        c.check->value(part, gi.imag(), want.imag(), {Bound::absolute, static_cast<double>(bim)},
                       {sc.name + " (imaginary part)", w.index, {}, w.what});
      } else {  // max, min: the lexicographic extreme, exactly
        const ComplexRef* r = complex_ref(op == "max" ? "maximum" : "minimum");
        CL want = e[0];
        for (std::size_t k = 1; k < e.size(); ++k) want = complex_step(*r, t, want, e[k]);
        c.check->cvalue(t, gv[i], want, {Bound::ulps, 0, false}, w);
      }
    }
  }
}

}  // namespace parity
