// Reductions: axis=None, each axis, several axes, keepdims, initial, strided and transposed
// inputs, empty inputs (identity or an error), NaN and inf; compared with `cpu` and with the long
// double reference within Higham's bound for any association order.
#include <cmath>
#include <set>

#include "cases.hpp"
#include "data.hpp"
#include "references.hpp"
#include "tolerances.hpp"

namespace parity {

namespace {

struct Scenario {
  Scenario(std::string n, Array a, std::vector<int> ax, bool k = false,
           std::optional<double> i = std::nullopt)
      : name(std::move(n)), x(std::move(a)), axis(std::move(ax)), keepdims(k), initial(i) {}
  std::string name;
  Array x;
  std::vector<int> axis;  // empty: all axes
  bool keepdims;
  std::optional<double> initial;
};

std::vector<Scenario> scenarios(const Case& c, const ReduceRef* ref) {
  Rng rng(c.name() + loop_name(c.loop->sig));
  const DType t = c.in(0);
  const Domain d = ref ? (is_integer(t) ? ref->intg : ref->flt)
                       : (is_integer(t) ? Domain{1, 3} : Domain{0.5, 2});
  const Array x = random(rng, {5, 6, 7}, t, d);
  std::vector<Scenario> s = {
      {"all", x, {}},
      {"axis0", x, {0}},
      {"axis1", x, {1}},
      {"axis2", x, {2}},
      {"axis-1", x, {-1}},
      {"axes0,2", x, {0, 2}},
      {"axes1,2_keepdims", x, {1, 2}, true},
      {"all_keepdims", x, {}, true},
      {"axis0_initial", x, {0}, false, 3.0},
      {"all_initial", x, {}, false, 3.0},
      {"transposed_all", transposed(rng, {5, 6, 7}, t, d), {}},
      {"transposed_axis0", transposed(rng, {5, 6, 7}, t, d), {0}},
      {"transposed_axes1,2", transposed(rng, {5, 6, 7}, t, d), {1, 2}},
      {"reversed_axis2", reversed(rng, {5, 6, 7}, t, d), {2}},
      {"reversed_all", reversed(rng, {5, 6, 7}, t, d), {}},
      {"step2_axis0", step2(rng, {5, 6, 7}, t, d), {0}},
      {"long_1d", random(rng, {1000}, t, d), {}},
      {"long_rows", random(rng, {3, 1000}, t, d), {1}},
      {"long_columns", random(rng, {1000, 3}, t, d), {0}},
      {"zero_d", random(rng, {}, t, d), {}},
      {"one_element", random(rng, {1}, t, d), {}},
      {"empty", random(rng, {0}, t, d), {}},
      {"empty_initial", random(rng, {0}, t, d), {}, false, 3.0},
      {"empty_3x0_axis1", random(rng, {3, 0}, t, d), {1}},
      {"empty_3x0_axis0", random(rng, {3, 0}, t, d), {0}},
      {"empty_0x4_keepdims", random(rng, {0, 4}, t, d), {}, true},
  };
  if (!ref || ref->large) {
    // float16 (largest finite 65504) holds a sum of 2^18 values in [-1, 1], not in [-1e3, 1e3].
    const Domain dl = t == DType::float16 ? Domain{-1, 1} : d;
    s.push_back({"large", random(rng, {(1 << 18) + 5}, t, dl), {}});
  }
  if (is_float(t)) {
    const double nan = std::nan(""), inf = INFINITY;
    s.push_back({"nan", from_values({1, nan, 2}, {3}, t), {}});
    s.push_back({"inf", from_values({1, inf, 2}, {3}, t), {}});
    s.push_back({"inf_minus_inf", from_values({inf, -inf}, {2}, t), {}});
    s.push_back({"minus_inf", from_values({-inf, 3, 5}, {3}, t), {}});
    Array rows = random(rng, {4, 40}, t, d);
    std::vector<double> v = rows.to_vector<double>();
    v[45] = nan, v[90] = inf, v[130] = -inf, v[135] = nan;
    rows = from_values(v, {4, 40}, t);
    s.push_back({"nan_inf_rows", rows, {1}});
    s.push_back({"nan_inf_columns", rows, {0}});
  }
  return s;
}

// The reduced values of x per output element in C order ("initial" first), for a reference.
std::vector<std::vector<long double>> groups(const Array& x, const std::set<int>& axes,
                                             std::optional<double> initial) {
  Shape out_shape;
  for (int k = 0; k < x.ndim(); ++k) out_shape.push_back(axes.count(k) ? 1 : x.shape()[k]);
  std::vector<std::vector<long double>> g(loom::shape_size(out_shape));
  if (initial) {  // as the dtype holds it (3 is True in a bool reduction)
    const long double init = x.dtype() == DType::bool_ ? (*initial != 0) : *initial;
    for (auto& e : g) e.push_back(init);
  }
  const auto v = values(x);
  for (std::size_t i = 0; i < v.size(); ++i) {
    std::int64_t rest = static_cast<std::int64_t>(i), o = 0, mul = 1;
    for (int k = x.ndim() - 1; k >= 0; --k) {
      const std::int64_t ik = rest % x.shape()[k];
      rest /= x.shape()[k];
      if (!axes.count(k)) o += ik * mul, mul *= x.shape()[k];
    }
    g[o].push_back(v[i]);
  }
  return g;
}

}  // namespace

void run_reduce(Case& c) {
  if (complex_loop(c)) return run_complex_reduce(c);
  const ReduceRef* ref = reduce_ref(c.name());
  if (!(is_float(c.in(0)) || is_integer(c.in(0))) ||
      !(is_float(c.out(0)) || is_integer(c.out(0)))) {
    ref = nullptr;
  }
  c.has_reference = ref != nullptr;
  const DType t = c.out(0);
  const loom::Reduce red = runtime().reduce(c.name());
  if (ref) {
    const auto& id = c.op->identity;
    c.check->expect(id.has_value() == ref->identity.has_value() &&
                        (!id || static_cast<long double>(*id) == *ref->identity),
                    "the op's identity disagrees with the reference table's");
  }
  for (const auto& sc : scenarios(c, ref)) {
    const int nd = sc.x.ndim();
    std::set<int> axes;
    for (int a : sc.axis) axes.insert(a < 0 ? a + nd : a);
    if (sc.axis.empty()) {
      for (int k = 0; k < nd; ++k) axes.insert(k);
    }
    Shape shape;
    for (int k = 0; k < nd; ++k) {
      if (!axes.count(k))
        shape.push_back(sc.x.shape()[k]);
      else if (sc.keepdims)
        shape.push_back(1);
    }
    const auto g = groups(sc.x, axes, sc.initial);
    bool empty_group = false;
    for (const auto& e : g) empty_group = empty_group || e.empty();
    const loom::ReduceOptions o{
        .target = c.target,
        .axis = sc.axis.empty() ? loom::Axes() : loom::Axes(sc.axis),
        .keepdims = sc.keepdims,
        .initial = sc.initial ? loom::Initial(*sc.initial) : loom::Initial()};
    loom::ReduceOptions on_cpu = o;
    on_cpu.target = "cpu";
    const bool no_identity = ref ? !ref->identity.has_value() : !c.op->identity.has_value();
    if (empty_group && no_identity) {  // NumPy: "zero-size array to reduction ... no identity"
      bool threw = false;
      try {
        red(sc.x, o);
      } catch (const loom::ValueError&) {
        threw = true;
      }
      c.check->expect(threw,
                      sc.name + ": empty reduction without identity did not throw ValueError");
      continue;
    }
    Array got, again, cpu;
    try {
      got = red(sc.x, o);
      again = red(sc.x, o);
      if (c.vs_cpu()) cpu = red(sc.x, on_cpu);
    } catch (const loom::Error& e) {
      c.check->expect(false, sc.name + ": threw " + e.what());
      continue;
    }
    c.check->expect(got.shape() == shape && got.dtype() == t,
                    sc.name + ": result is " + got.str() + ", expected shape " +
                        loom::shape_str(shape) + " and dtype " + std::string(loom::name(t)));
    if (got.shape() != shape) continue;
    c.check->same_bits(got, again, sc.name, "second run (determinism)");
    const auto gv = values(got);
    const auto cv = !c.vs_cpu() ? gv : values(cpu);
    for (std::size_t i = 0; i < gv.size(); ++i) {
      long double v = 0, mag = 0;
      if (ref) {
        if (g[i].empty()) {
          v = *ref->identity;
        } else {
          ref->f(g[i], v, mag);
        }
      }
      const auto n = static_cast<std::int64_t>(g[i].size()) - 1;
      const double bound = t == DType::float16 ? float16_fold_bound(n, mag)
                                               : static_cast<double>(kSumSlack * gamma(t, n) * mag);
      const Where w{sc.name, static_cast<std::int64_t>(i), {}, ""};
      if (c.vs_cpu()) {  // (a): partitions may differ; each side within its bound of the truth
        Where wc = w;
        wc.what = "vs cpu";
        const bool exact = c.host && !is_float(t);
        const double tol = ref ? 2 * bound : 64 * static_cast<double>(ulp(t, cv[i]));
        c.check->value(t, gv[i], cv[i], {Bound::absolute, exact ? 0.0 : tol}, wc);
      }
      if (ref) {
        Where wr = w;
        wr.what = "vs reference";
        c.check->value(t, gv[i], v, {Bound::absolute, bound}, wr);
      }
    }
  }
}

}  // namespace parity
