// The ufunc methods (reduce, accumulate, reduceat, outer, at) of every binary ufunc loop T(T,T)
// on every target: against `cpu` (the same bits for integers and for ops that are not reorderable;
// reorderable float folds and scans within their error bound, since `parallel` and `cuda` may
// group them differently) and, for integers and ordered ops, against values derived here from
// NumPy's definitions with the op's long double reference.
#include <cmath>

#include "cases.hpp"
#include "data.hpp"
#include "references.hpp"
#include "tolerances.hpp"

namespace parity {

namespace {

// The long double reference of the op, rounded to t at each step as the loops round (exact for
// integers, which wrap modulo 2^bits as NumPy's loops do).
long double apply(const UfuncRef& ref, DType t, long double a, long double b) {
  const long double in[2] = {a, b};
  long double out = 0;
  (is_integer(t) && ref.int_f ? ref.int_f : ref.f)(in, &out);
  if (t == DType::bool_) return std::isnan(out) || out != 0;  // bool loops: the result's truth
  if (!is_integer(t)) return round_to(t, out);
  const int bits = static_cast<int>(loom::itemsize(t) * 8);
  const long double m = std::ldexp(1.0L, bits);
  long double r = std::fmod(out, m);
  if (r < 0) r += m;
  if (loom::kind(t) == loom::Kind::signed_int && r >= m / 2) r -= m;
  return r;
}

struct MethodCase {
  Case& c;
  const UfuncRef* ref;
  loom::Ufunc uf;
  DType t;
  // Results must equal cpu's bits (integers, or an op folded strictly in order, or a host target
  // for elementwise-defined methods).
  bool exact() const { return !is_float(t) || (!c.op->reorderable && (c.host || rounded())); }
  // A correctly rounded op (+, -, *, /) gives the same bits on every target; sin*exp differs by
  // an ulp or two between the GPU's and the host's maths, and a long fold of it amplifies that.
  bool rounded() const { return ulp_bound(c.name(), t) <= 0.5; }
  // Folds along a line can be compared with cpu's (not so for a device fold of a not correctly
  // rounded op that is not reorderable: the difference grows without bound along the line).
  bool foldable() const { return !is_float(t) || c.host || c.op->reorderable || rounded(); }
  // A reference can be computed element by element: integers exactly, ordered float ops with
  // one rounding per step.
  // one rounding per step (correctly rounded ops only: the error of sin*exp compounds in a fold).
  bool referenced() const {
    return ref && (is_integer(t) || (!c.op->reorderable && ulp_bound(c.name(), t) <= 0.5));
  }

  void compare(const std::string& sc, const Array& got, const Array& cpu, bool bitwise) {
    if (!c.vs_cpu() || (sc != "outer" && sc != "at" && !foldable())) return;
    if (bitwise) {
      c.check->same_bits(got, cpu, sc, "vs cpu");
      return;
    }
    const auto g = values(got), w = values(cpu);
    c.check->expect(g.size() == w.size(), sc + ": size differs from cpu's");
    for (std::size_t i = 0; i < g.size() && i < w.size(); ++i) {
      // Regrouped folds of at most a few hundred terms of one sign: a relative bound.
      const double tol = 1e3 * static_cast<double>(ulp(t, w[i]));
      c.check->value(t, g[i], w[i], {Bound::absolute, tol},
                     {sc, static_cast<std::int64_t>(i), {}, "vs cpu"});
    }
  }
  void against(const std::string& sc, const Array& got, const std::vector<long double>& want) {
    const auto g = values(got);
    c.check->expect(g.size() == want.size(), sc + ": size differs from the reference's");
    for (std::size_t i = 0; i < g.size() && i < want.size(); ++i) {
      // Integers exactly; ordered float folds: at most one rounding per step (the reference
      // rounds after each step too, so only double rounding in long double can differ).
      const double tol = is_integer(t) ? 0.0 : 4 * static_cast<double>(ulp(t, want[i]));
      c.check->value(t, g[i], want[i], {Bound::absolute, tol},
                     {sc, static_cast<std::int64_t>(i), {}, "vs NumPy's definition"});
    }
  }
};

// A (rows, cols) array, as several layouts of the same values.
std::vector<std::pair<std::string, Array>> layouts(Rng& rng, DType t, const Domain& d) {
  return {{"contiguous", random(rng, {6, 37}, t, d)},
          {"transposed", transposed(rng, {6, 37}, t, d)},
          {"step2", step2(rng, {6, 37}, t, d)},
          {"reversed", reversed(rng, {6, 37}, t, d)}};
}

void reduce_and_accumulate(MethodCase& m, const std::string& name, const Array& x) {
  Case& c = m.c;
  const int rows = static_cast<int>(x.shape()[0]), cols = static_cast<int>(x.shape()[1]);
  const auto v = values(x);  // C order
  for (int axis : {0, 1}) {
    const std::string sc = name + "_axis" + std::to_string(axis);
    const Array got = m.uf.reduce(x, {.target = c.target, .axis = axis, .dtype = m.t});
    const Array again = m.uf.reduce(x, {.target = c.target, .axis = axis, .dtype = m.t});
    c.check->same_bits(got, again, sc, "second run (determinism)");
    if (c.vs_cpu())
      m.compare(sc, got, m.uf.reduce(x, {.target = "cpu", .axis = axis, .dtype = m.t}), m.exact());
    const Array acc = m.uf.accumulate(x, {.target = c.target, .axis = axis, .dtype = m.t});
    if (c.vs_cpu()) {
      m.compare(sc + "_accumulate", acc,
                m.uf.accumulate(x, {.target = "cpu", .axis = axis, .dtype = m.t}), m.exact());
    }
    if (!m.referenced()) continue;
    // NumPy: reduce is the left fold along the axis; accumulate keeps every partial fold.
    const int n = axis == 0 ? rows : cols, lines = axis == 0 ? cols : rows;
    std::vector<long double> red(lines), scan(static_cast<std::size_t>(rows) * cols);
    for (int l = 0; l < lines; ++l) {
      long double a = 0;
      for (int i = 0; i < n; ++i) {
        const int r = axis == 0 ? i : l, k = axis == 0 ? l : i;
        const long double e = v[static_cast<std::size_t>(r) * cols + k];
        a = i == 0 ? e : apply(*m.ref, m.t, a, e);
        scan[static_cast<std::size_t>(r) * cols + k] = a;
      }
      red[l] = a;
    }
    m.against(sc, got, red);
    m.against(sc + "_accumulate", acc, scan);
  }
  // reduceat with NumPy's rules: [0, 4), [4, 2) -> x[4] alone, [2, 5), [5, end).
  const Array idx = loom::array<std::int64_t>({0, 4, 2, 5});
  const Array ra = m.uf.reduceat(x, idx, {.target = c.target, .axis = 1, .dtype = m.t});
  if (c.vs_cpu()) {
    m.compare(name + "_reduceat", ra,
              m.uf.reduceat(x, idx, {.target = "cpu", .axis = 1, .dtype = m.t}), m.exact());
  }
  if (m.referenced()) {
    const std::int64_t seg[4][2] = {{0, 4}, {4, 5}, {2, 5}, {5, cols}};
    std::vector<long double> want;
    for (int r = 0; r < rows; ++r) {
      for (const auto& s : seg) {
        long double a = v[static_cast<std::size_t>(r) * cols + s[0]];
        for (std::int64_t k = s[0] + 1; k < s[1]; ++k) {
          a = apply(*m.ref, m.t, a, v[static_cast<std::size_t>(r) * cols + k]);
        }
        want.push_back(a);
      }
    }
    m.against(name + "_reduceat", ra, want);
  }
}

void outer_and_at(MethodCase& m, Rng& rng, const Domain& d0, const Domain& d1) {
  Case& c = m.c;
  const Array a = random(rng, {7}, m.t, d0), b = random(rng, {5}, m.t, d1);
  const Array o = m.uf.outer(a, b, {.target = c.target});
  c.check->expect(o.shape() == Shape{7, 5}, "outer: shape " + loom::shape_str(o.shape()));
  // outer is the elementwise op over every pair: the same bits as the call on host targets.
  if (c.vs_cpu())
    m.compare("outer", o, m.uf.outer(a, b, {.target = "cpu"}), c.host || !is_float(m.t));
  if (m.ref) {
    const auto av = values(a), bv = values(b);
    std::vector<long double> want;
    for (auto x : av) {
      for (auto y : bv) want.push_back(apply(*m.ref, m.t, x, y));
    }
    if (is_integer(m.t)) m.against("outer", o, want);
  }
  // at: repeated indices apply once per occurrence, in order.
  const Array idx = loom::array<std::int64_t>({3, 0, 3, -1, 3, 6, 0});
  const Array vals = random(rng, {7}, m.t, d1);
  Array base = random(rng, {7}, m.t, d0);
  Array got = base.copy();
  m.uf.at(got, idx, vals, {.target = c.target});
  if (c.vs_cpu()) {
    Array cpu = base.copy();
    m.uf.at(cpu, idx, vals, {.target = "cpu"});
    m.compare("at", got, cpu, m.exact());
  }
  if (m.referenced()) {
    auto want = values(base);
    const auto iv = idx.to_vector<std::int64_t>();
    const auto bv = values(vals);
    for (std::size_t j = 0; j < iv.size(); ++j) {
      const std::int64_t i = iv[j] < 0 ? iv[j] + 7 : iv[j];
      want[i] = apply(*m.ref, m.t, want[i], bv[j]);
    }
    m.against("at", got, want);
  }
}

}  // namespace

void run_methods(Case& c) {
  const auto& sig = c.loop->sig;
  if (c.op->kind != loom::OpKind::ufunc || c.op->nin != 2 || c.op->nout != 1) return;
  if (sig.inputs[0] != sig.outputs[0] || sig.inputs[1] != sig.outputs[0]) return;
  const DType t = c.out(0);
  if (is_complex(t)) return run_complex_methods(c);
  if (!is_float(t) && !is_integer(t)) return;
  const UfuncRef* ref = ufunc_ref(c.name());
  const Domain d0 = ref ? (is_integer(t) ? ref->intg[0] : ref->flt[0]) : Domain{1, 3};
  const Domain d1 = ref ? (is_integer(t) ? ref->intg[1] : ref->flt[1]) : Domain{1, 3};
  // Small magnitudes keep long folds of products and quotients finite.
  const Domain dfold = is_integer(t) ? Domain{1, 3} : Domain{0.5, 2};
  MethodCase m{c, ref, runtime().ufunc(c.name()), t};
  Rng rng("methods " + c.name() + sig.str());
  try {
    for (const auto& [name, x] : layouts(rng, t, dfold)) reduce_and_accumulate(m, name, x);
    outer_and_at(m, rng, d0, d1);
  } catch (const loom::Error& e) {
    c.check->expect(false, std::string("methods threw: ") + e.what());
  }
}

}  // namespace parity
